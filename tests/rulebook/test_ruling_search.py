"""`ref ruling`: finding the rule a player means from the words used at the table.

The questions below were written first, as players would say them at the table
(paraphrase, slang, typos, no rule numbers), before the rulebooks' alias lists.
Each names the rule id a referee would cite. A question that could only be placed
once you know which game is played gives that rule set (the third column).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from cli_helpers import ref, ref_json

from rummyref.rulebook.book import (
    MATCH_WEIGHT,
    SLANG_WEIGHT,
    SYNONYM_WEIGHT,
    _game_named,
    _rules_named,
    build_index,
    explain,
    load_rulebooks,
    pair_term,
    search,
    stem,
    table_slang,
    terms,
    tokenise,
)

os.environ.setdefault("RUMMYREF_CACHE", "off")  # in-process tests build the index afresh

R2M, SR, GIN = "rummy-2m", "simple-rummy", "gin"

# (question, expected rule id, rule set or None for "search every rulebook")
QUESTIONS: list[tuple[str, str, str | None]] = [
    # A1 closed roster
    ("Steve wants in", "A1", None),
    ("my cousin is in town, can he play with us tonight?", "A1", None),
    ("can we add a fourth guy to the game", "A1", None),
    ("my girlfriend wants to sit in for a couple of hands", "A1", R2M),
    ("new guy asking if he can get a seat at the table", "A1", None),
    # A2 seating dibs
    ("who sits on the floor", "A2", None),
    ("who gets to pick their chair first", "A2", None),
    ("does the guy in the lead get to choose where he sits", "A2", None),
    ("where does last place sit", "A2", None),
    ("who sits on teh flor", "A2", None),
    # A3 deal order
    ("who deals after Bill", "A3", None),
    ("Larry wants to deal before Ben this time, is that ok", "A3", None),
    ("can we switch up the dealing order tonight", "A3", R2M),
    ("whose deal is it after ben", "A3", None),
    # A4 full rounds
    ("can we call last hand", "A4", None),
    ("I need to leave early, can we stop after this hand", "A4", R2M),
    ("Larry has to go home, can we quit in the middle of the round", "A4", None),
    ("when are we allowed to end the night", "A4", None),
    ("lst hand guys?", "A4", None),
    # A5 weekly
    ("how often are we supposed to play", "A5", None),
    ("we haven't played in three weeks", "A5", None),
    ("is rummy night every week", "A5", None),
    # A6 spectators
    ("my wife wants to watch us play", "A6", None),
    ("is it ok if someone just watches the game", "A6", None),
    ("a buddy walked in to see the game, what do we do", "A6", None),
    ("do we have to give the onlooker the silent treatment", "A6", None),
    # A7 end of the game
    ("two of us passed two million in the same hand, who wins", "A7", None),
    ("when is the game actually over", "A7", R2M),
    ("what if we both hit 2,000,000 with the exact same score", "A7", None),
    ("ben and bill both went over the target on the same hand", "A7", None),
    ("first to 2 milion wins?", "A7", None),
    ("we fixed the score of an old hand and now someone else is ahead", "A7", R2M),
    ("we corrected hand 3, does the winner change", "A7", R2M),
    # B1 no pausing
    ("can we take a break mid hand", "B1", None),
    ("bathroom break in the middle of a hand?", "B1", None),
    ("my phone is ringing, can we pause", "B1", None),
    ("can we stop halfway through the hand for a smoke", "B1", None),
    # B2 Pete's
    ("pizza's here", "B2", None),
    ("the food arrived in the middle of the hand, can I eat", "B2", None),
    ("can I grab a slice before we finish this hand", "B2", None),
    ("petes guy is at the door", "B2", None),
    ("he's eating his wings during the hand, what's the penalty", "B2", None),
    # B3 discard ends the turn
    ("do I have to discard to end my turn", "B3", None),
    ("can I go out without throwing a card away", "B3", R2M),
    ("I picked up the top card of the rummy line, can I throw it right back and go out", "B3", None),
    ("every card in my hand can be played, do I still have to discard", "B3", None),
    ("must I throw away a card I could play", "B3", None),
    # B4 pick-up from the Rummy Line
    ("can I pick up from the rummy line just to lay it on a run on the table", "B4", None),
    ("do I need a card from my hand to use the card I took from the rummy line", "B4", None),
    ("Ben grabbed a card off the rummy line and played it by itself", "B4", None),
    ("can I take a card out of the discards and only play that card", "B4", R2M),
    ("picking up deep in the rumy line, what do I have to do with the bottom card", "B4", None),
    # B5 run or match designation
    ("the 3 of diamonds fits the run and the threes, where does it go", "B5", None),
    ("the card could go on the run or the set, which one does it count for", "B5", None),
    ("I didn't say where my card goes, what happens", "B5", None),
    ("does my ace go with the run or with the other aces", "B5", R2M),
    ("I want the 7 to count for the three sevens not the straight", "B5", None),
    # B6 sideways card
    ("why is that card turned sideways", "B6", None),
    ("I played a rummy card on the set, how do I lay it down", "B6", None),
    ("does putting it on the match block the run", "B6", None),
    # B7 a card laid is a card played
    ("can I take my discard back", "B7", None),
    ("I put the wrong card on the pile, can I undo it", "B7", None),
    ("he already let go of the card, can he change his mind", "B7", None),
    ("oops I meant to throw the other one", "B7", None),
    ("can i tkae back my discrad", "B7", None),
    # B8 claiming a Rummy! card
    ("we both slapped the rummy card", "B8", None),
    ("who gets the card if two people call rummy at the same time", "B8", None),
    ("I yelled rummy first but he hit the card before me", "B8", None),
    ("what do I have to do to claim a card someone threw away", "B8", None),
    ("Ben and I tied on the rummy card, who decides", "B8", None),
    # B9 the deck runs out
    ("the deck's empty, what now", "B9", R2M),
    ("there are no more cards to draw", "B9", R2M),
    ("we ran out of cards in the deck, do we keep going", "B9", None),
    ("last card of the deck was drawn, do we all get another turn", "B9", None),
    # B10 rearranging within a turn
    ("can I take back a meld I just put down", "B10", None),
    ("I laid 8 7 6 5 of spades but I'd rather play three eights", "B10", None),
    ("can I rearrange my melds before I discard", "B10", None),
    ("can I fix my meld if it's still my turn", "B10", None),
    # B11 call and touch
    ("do I have to touch the card to claim it", "B11", None),
    ("he said rummy but never touched it", "B11", None),
    ("is calling rummy enough or do I have to hit it", "B11", None),
    ("we both called it, who touched first gets it?", "B11", None),
    # S1 players and cards dealt
    ("how many cards do we deal with 5 people", "S1", None),
    ("can 11 people play", "S1", None),
    ("how many cards each with four players", "S1", None),
    ("what's the most cards we can deal to 2 players", "S1", None),
    # S2 how many WILDCARDs
    ("how many jokers can we use", "S2", None),
    ("can we play with 4 wildcards", "S2", None),
    ("do we have to use the wild cards", "S2", None),
    # S3 choosing the first dealer
    ("how do we decide who deals first", "S3", None),
    ("we both turned up kings, who deals", "S3", None),
    ("which suit breaks a tie when picking the first dealer", "S3", None),
    ("is an ace high or low when we pick the dealer", "S3", None),
    # S4 shuffle, cut, deal
    ("who cuts the deck", "S4", None),
    ("which direction do we deal the cards", "S4", None),
    ("do I have to cut if I don't want to", "S4", None),
    ("who gets dealt the first card", "S4", None),
    # S5 stock and discard pile
    ("can I look through the discard pile", "S5", None),
    ("does the discard pile have to be kept neat", "S5", None),
    ("where does the rest of the deck go after the deal", "S5", None),
    ("can I flip back through the old discards to see what was thrown", "S5", None),
    # S6 the turn
    ("what's the order of things on my turn", "S6", None),
    ("do I draw before I discard", "S6", SR),
    ("who goes first after the deal", "S6", None),
    ("which way does play go around the table", "S6", None),
    # S7 melds
    ("is K A 2 a run", "S7", None),
    ("can aces be high", "S7", None),
    ("can a meld be a run and a set at the same time", "S7", None),
    ("what counts as a group", "S7", None),
    ("is Q K A valid", "S7", None),
    # S8 WILDCARDs in melds
    ("can I use more than one joker in a meld", "S8", None),
    ("are three wildcards on their own a valid meld", "S8", None),
    ("can I pick up a wildcard from the discard pile", "S8", None),
    ("can a joker stand in for a card somebody else is holding", "S8", None),
    # S9 going out
    ("how do you win a game of simple rummy", "S9", None),
    ("can I go out with one card left over", "S9", None),
    ("what does going out mean", "S9", None),
    # S10 stock exhausted
    ("what happens when the stockpile runs out", "S10", None),
    ("nobody went out and the stock is gone, who wins", "S10", None),
    ("the stock's empty and I don't want the discard", "S10", SR),
    # S11 caught with a WILDCARD
    ("I'm stuck holding a joker at the end, can I still win", "S11", None),
    ("caught with a wildcard", "S11", None),
    ("everyone still has a wild, so nobody can win?", "S11", None),
    # S12 equal low counts
    ("we tied on low count", "S12", None),
    ("two people have the same count, who wins", "S12", None),
    ("tie breaker for lowest points", "S12", None),
    # S13 counting
    ("how much is a king worth", "S13", SR),
    ("what does an ace count for at the end", "S13", SR),
    ("how do I count up my leftover cards", "S13", None),
    ("does a wildcard add points to my count", "S13", None),
    # S14 dropping out
    ("can I drop out of the game", "S14", None),
    ("I gotta leave, can I fold my hand", "S14", SR),
    ("what do I do with my cards if I quit mid game", "S14", SR),
    # S15 tie game
    ("can we all agree to call it a draw", "S15", None),
    ("can everybody agree on a tie game", "S15", None),
    ("nobody wants to take the last card, can we just tie", "S15", None),
    # S16 no counting the stock
    ("can I count how many cards are left in the stock", "S16", None),
    ("how many cards are left in the draw pile? let me count", "S16", None),
    # S17 a match
    ("how many games to win a match", "S17", None),
    ("who plays first in the next game", "S17", None),
    ("after a tie game who starts", "S17", None),
    # V1 Going Out Major / Minor
    ("going out major", "V1", None),
    ("do I have to meld every single card to go out", "V1", None),
    ("in minor can I go out with two three card melds", "V1", None),
    # V2 Go Out
    ("go out variation, what happens when the stock runs dry", "V2", None),
    ("do we reshuffle the discard pile into a new stock", "V2", None),
    ("we play until somebody goes out, no low count", "V2", None),
    # V3 Sequences Rummy
    ("sequences rummy, how many runs do I need", "V3", None),
    ("do I need a natural run to go out", "V3", None),
    ("playing with seven wildcards", "V3", None),
    # V4 Three-Card Draw
    ("three card draw", "V4", None),
    ("can I take two cards off the discard pile and one from the stock", "V4", None),
    # V5 Four 7's
    ("I have all four sevens", "V5", None),
    ("four 7s is an instant win right", "V5", None),
    # V6 Spread-Out Discard Pile
    ("spread out discard pile", "V6", None),
    ("can I take a card from the middle of the discard pile", "V6", None),
    # V7 shuffle option
    ("shuffle option with seven piles", "V7", None),
    ("dealing the deck into 7 piles to shuffle", "V7", None),
    ("how do we count a hand in 500 rum", "R1", "rummy-500"),
    ("what is a king worth", "R2", "rummy-500"),
    ("two of us went past 500 in the same hand", "R3", "rummy-500"),
    ("who deals the next hand", "R4", "rummy-500"),
    ("how many jokers can we use", "R5", "rummy-500"),
    # Gin Rummy (G1-G15), asked with --ruleset gin; written before the aliases were tuned (G15 after)
    ("can we play gin with three people", "G1", GIN),
    ("how many cards each in gin rummy", "G1", GIN),
    ("do we use the jokers in gin", "G1", GIN),
    ("in gin is queen king ace a run", "G2", GIN),
    ("can the ace go high in gin", "G2", GIN),
    ("how much deadwood do I have", "G3", GIN),
    ("what does a king count for in gin", "G3", GIN),
    ("can I knock with 11", "G4", GIN),
    ("can I knock before I draw", "G4", GIN),
    ("can I knock on my first turn", "G4", GIN),
    ("what is gin worth", "G5", GIN),
    ("we all agreed to stop", "S15", SR),
    ("can I go out with two cards left", "S9", SR),
    ("what's the most I can knock with", "G4", GIN),
    ("when am I allowed to knock", "G4", GIN),
    ("he went gin, can I still play my cards on his runs", "G5", GIN),
    ("how much is gin worth", "G5", GIN),
    ("I have no deadwood, is that gin", "G5", GIN),
    ("all eleven of my cards make melds, do I discard", "G6", GIN),
    ("what's big gin", "G6", GIN),
    ("can I put my 9 on his run after I put the 8 on it", "G7", GIN),
    ("can I lay off on the knocker's sets", "G7", GIN),
    ("we both had 6 deadwood, who gets the points", "G8", GIN),
    ("I had less deadwood than the guy who knocked", "G8", GIN),
    ("what's an undercut worth", "G8", GIN),
    ("only two cards left in the stock and nobody knocked", "G9", GIN),
    ("is it a dead hand", "G9", GIN),
    ("what do we play gin to", "G10", GIN),
    ("how many points to win at gin", "G10", GIN),
    ("what are boxes in gin", "G11", GIN),
    ("do I get a bonus for every hand I won", "G11", GIN),
    ("I got skunked", "G12", GIN),
    ("she didn't win a single hand all game", "G12", GIN),
    ("oklahoma gin, the upcard was a 4", "G13", GIN),
    ("the first upcard is an ace, can we knock", "G13", GIN),
    ("should my 7s be a set or part of runs when I knock", "G14", GIN),
    ("does ref choose which melds I laid down", "G14", GIN),
    # G15 (stop 44): who deals is the table's own custom
    ("whose turn is it to deal", "G15", GIN),
    ("does the loser of the hand deal the next one", "G15", GIN),
    ("who deals first in gin", "G15", GIN),
]

# Written later, in three batches, each first run untouched as a held-out check (figures in the
# README); the vocabulary of the rulebooks was widened after the first two, so they are not
# held out any more and now simply add coverage.
LATER: list[tuple[str, str, str | None]] = [
("larry's brother showed up and wants to be dealt in", "A1", None),
("GET OUT no newbies", "A1", None),
("whoever's winning picks seats first right?", "A2", None),
("it's ben's deal not larry's", "A3", None),
("I'm tired, let's make this the final hand", "A4", None),
("we skipped rummy night last week", "A5", None),
("the neighbour keeps peeking at our cards from the couch", "A6", None),
("nobody's reached two million yet, when does it stop", "A7", None),
("larry and bill both ended over 2m but larry has more", "A7", None),
("hold on, I need to take a call", "B1", None),
("can I start on my fries while we play", "B2", None),
("I melded everything, can I just go out with no discard", "B3", None),
("he took the top card off the line and threw it right back to end it", "B3", None),
("I took the 9 from the line, can I just stick it on his run", "B4", None),
("which pile does my 3 go in, the threes or the diamonds run", "B5", None),
("do I need to announce if it's going on the run or the set", "B5", None),
("what does the crooked card on the table mean", "B6", None),
("my discard slipped out of my hand, can I pick it back up", "B7", None),
("bill shouted rummy, I grabbed the card, who gets it", "B8", None),
("stock is done, do we get another turn each", "B9", R2M),
("I put down 5 6 7 but want to use the 7 in a set instead, still my turn", "B10", None),
("he touched it first but I said rummy first", "B11", None),
("with 7 players how many cards each", "S1", None),
("are jokers allowed in simple rummy", "S2", None),
("how to pick who deals the first hand in simple rummy", "S3", None),
("should the player on the right cut", "S4", None),
("can I peek at the discards underneath", "S5", None),
("can I draw from the discard pile instead of the stock", "S6", None),
("is J Q K A a sequence", "S7", None),
("can a wildcard be used as a 5 in my run", "S8", None),
("I have one card left that doesn't fit, did I win", "S9", None),
("the last card was drawn from the stockpile and nobody went out", "S10", None),
("I had the lowest count but held a wildcard", "S11", None),
("we both have 6 points left, who wins", "S12", None),
("what's my count if I'm holding a jack and a 3", "S13", None),
("I need to drop, my ride is here", "S14", None),
("let's all agree nobody wins this one", "S15", None),
("is it cheating to count the draw pile", "S16", None),
("who leads off the next game after I won", "S17", None),
("under major rules can I have a card left", "V1", None),
("go out rules, the stock ran out, shuffle the discards?", "V2", None),
("how many natural sequences for sequences rummy", "V3", None),
("can I draw both the next discard and a stock card", "V4", None),
("laid down 7 7 7 7, do I win right away", "V5", None),
("if I take a card from the spread, do I get all the cards on top of it", "V6", None),
("dealing into seven piles counts as a shuffle?", "V7", None),
("my coworker heard about our game and asked to join", "A1", None),
("can the person in second place pick before me", "A2", None),
("it's Ben's turn to shuffle isn't it", "A3", None),
("Bill wants to stop halfway through the round", "A4", None),
("how regularly should we meet for rummy", "A5", None),
("Ben's kid keeps hanging around the table watching", "A6", None),
("somebody hit 2,000,000, is the game done", "A7", None),
("the dog needs to go out, can we stop the hand", "B1", None),
("pete's is at the door, can we eat now", "B2", None),
("my last card is playable on the table, do I have to throw it", "B3", None),
("Larry picked the 5 off the rummy line but used none of his own cards", "B4", None),
("I played the 8 of clubs, it fits the run and the eights, nobody said which", "B5", None),
("why do we turn the rummy card on its side", "B6", None),
("no take backs on discards?", "B7", None),
("both hands landed on the card together", "B8", None),
("what happens after the final card of the deck is drawn", "B9", R2M),
("I want to rearrange what I laid down before my turn is over", "B10", None),
("Ben yelled rummy but never put his hand on it", "B11", None),
("what's the maximum number of players in simple rummy", "S1", None),
("is it ok to play with no wildcards at all", "S2", None),
("we flipped cards and both got aces, who deals", "S3", None),
("does the dealer shuffle or the player to the left", "S4", None),
("can I go back and check old discards", "S5", None),
("do I discard at the end of my turn in simple rummy", "S6", SR),
("does A 2 3 count as a run", "S7", None),
("how many wild cards can go in a single group", "S8", None),
("how do I go out", "S9", None),
("stockpile's empty and I pass on the discard", "S10", None),
("can someone win while still holding a wildcard", "S11", None),
("tie for the lowest count, who takes it", "S12", None),
("what's a queen worth", "S13", SR),
("I'm dropping out, do I show my cards", "S14", None),
("can we end the game in a tie if everyone agrees", "S15", None),
("I counted the stockpile, is that allowed", "S16", None),
("who starts the next game in a match", "S17", None),
("in going out minor do I need exactly one card left", "V1", None),
("in the go out variation is there a low count finish", "V2", None),
("do I need two runs to go out in sequences rummy", "V3", None),
("three card draw how does it work", "V4", None),
("four natural sevens", "V5", None),
("spread-out discard pile taking cards", "V6", None),
("what is the seven pile shuffle", "V7", None),
("can I add to a run with a wildcard", "S8", None),
("what happens if i hold a joker when the stock runs out", "S11", None),
("somebody watching us play, what's the rule", "A6", None),
("a guy from work wants to play in our two million game", "A1", None),
("who picks seats first at rummy night", "A2", None),
("Ben dealt but it was Bill's turn", "A3", None),
("can we wrap up after Ben deals", "A4", None),
("it's been a month since rummy night", "A5", None),
("my roommate is sitting in the room during the game", "A6", None),
("what if two players pass the mark on one hand", "A7", None),
("can we pause to let the cat in", "B1", None),
("the pete's guy is here mid hand", "B2", None),
("can I end my turn without a discard", "B3", None),
("must the card I take from the rummy line go with cards from my hand", "B4", None),
("a card that fits both a run and a match, where does it count if I say nothing", "B5", None),
("played the rummy card onto the match, lay it how", "B6", None),
("I want to swap the card I just discarded", "B7", None),
("Larry and Ben hit the rummy card at the same instant", "B8", None),
("the deck ran dry, what now", "B9", R2M),
("can I pick up my meld and reorganize it during my turn", "B10", None),
("does saying rummy without touching count", "B11", None),
("how many cards do 8 players get", "S1", None),
("can we use three jokers", "S2", None),
("how is the first dealer chosen", "S3", None),
("which player cuts the cards", "S4", None),
("is it legal to look back at the discard pile", "S5", None),
("can I take the top discard instead of drawing", "S6", SR),
("is 2 A K of hearts a valid run", "S7", None),
("can a wildcard stand for a card already played", "S8", None),
("can I win with one card not melded", "S9", None),
("nobody can go out and the stockpile is finished", "S10", None),
("I still have a wildcard, can I win on low count", "S11", None),
("equal counts, who wins the game", "S12", None),
("does a jack count 11", "S13", None),
("can a player drop out mid game", "S14", None),
("everyone wants to call a tie game", "S15", None),
("can we count the cards in the stockpile", "S16", None),
("how do you win a match", "S17", None),
("minor variation how many cards left out", "V1", None),
("in go out, what if the stockpile is gone", "V2", None),
("sequences rummy natural sequence rule", "V3", None),
("can I take extra cards from the discard pile in three card draw", "V4", None),
("four natural 7s on the table", "V5", None),
("taking a card buried in the discard pile", "V6", None),
("shuffle by dealing 7 piles", "V7", None),
("what do the cards I still hold cost me at the end", "R1", "rummy-500"),
("is an ace 1 or 15", "R2", "rummy-500"),
("when is the game over", "R3", "rummy-500"),
("how many cards for two players", "R4", "rummy-500"),
("are the jokers in", "R5", "rummy-500"),
("do we deal ten or seven in gin", "G1", GIN),
("is A 2 3 of spades a run in gin", "G2", GIN),
("count my deadwood", "G3", GIN),
("I have 10 points left over, can I go down", "G4", GIN),
("do I get a bonus for gin", "G5", GIN),
("I drew and have 11 cards all melded", "G6", GIN),
("can the defender add cards to the knocker's melds", "G7", GIN),
("undercut rules", "G8", GIN),
("the stock is down to two cards", "G9", GIN),
("game bonus for reaching 100", "G10", GIN),
("how much is each box worth", "G11", GIN),
("shutout doubles the score?", "G12", GIN),
("knock value set by the upcard", "G13", GIN),
("runs or groups, which does the knocker lay down", "G14", GIN),
("should the winner deal the next hand", "G15", GIN),
("Ann dealt last time, is it Bob's deal now", "G15", GIN),]


# Issue 14 (tuning, not held out). First, the table's slang the issue named (sitting in, a
# stand-in, the carpet, bailing, freezing the game, dibs, a wild), then a batch written as a
# development check for the scorer, run untouched first at top-1 83.3%, top-3 93.3% (slang
# weights already raised, no whole-phrasing match yet), used to choose the scorer's changes
# (whole-phrasing match, -ies/-y stems: 90.0% / 98.3%), then given a few aliases. The first held-out file was heldout_table_talk.toml (tuning data since rulings3).
TABLE_TALK: list[tuple[str, str, str | None]] = [
    ('can he sit in for a couple hands', 'A1', None),
    ('my buddy wants to sit in tonight', 'A1', R2M),
    ('can we get a stand-in for Larry this week', 'A1', None),
    ("Ben's out sick, can his brother be a stand-in", 'A1', None),
    ('do I gotta park it on the carpet', 'A2', None),
    ("who's on the carpet tonight", 'A2', None),
    ('last place gets the floor again?', 'A2', None),
    ('who has dibs on the good chair', 'A2', None),
    ("I'm in first, I call dibs on the couch", 'A2', None),
    ('who deals first', 'A3', R2M),
    ('who deals next', 'A3', R2M),
    ('can we make this the final one and bail', 'A4', None),
    ("I'm bailing after this hand", 'A4', R2M),
    ('one more hand and we bail?', 'A4', None),
    ('can I bail early tonight', 'A4', R2M),
    ('can I bail out of this game', 'S14', SR),
    ("I'm bailing, my ride's here", 'S14', SR),
    ('stop for a beer mid hand', 'B1', None),
    ('can we freeze the game for a sec', 'B1', None),
    ("freeze the hand, the baby's crying", 'B1', None),
    ('hold up, can we freeze it while I grab a beer', 'B1', None),
    ('the only card I got left is a rummy card', 'B3', None),
    ('my last card is a rummy card, now what', 'B3', None),
    ('can I go out with two threes', 'V1', SR),
    ('can I use a wild in my run', 'S8', None),
    ('is a wild good for any card', 'S8', None),
    ('how many wilds do we play with', 'S2', SR),
    ('stuck holding a wild when the stock ran out', 'S11', None),
    ('who deals first', 'S3', SR),
    # the development batch
    ("Larry's nephew wants a seat at the table tonight", 'A1', None),
    ('no newbies allowed, right?', 'A1', None),
    ('who picks where to sit first', 'A2', None),
    ("I'm dead last so I'm on the floor again", 'A2', None),
    ('Ben skipped his turn to deal', 'A3', None),
    ('who shuffles after Larry', 'A3', R2M),
    ('can we quit before everybody has dealt', 'A4', None),
    ('I gotta go, can this be the last hand', 'A4', None),
    ('do we have to play every single week', 'A5', None),
    ('my neighbor wants to come over and just watch', 'A6', None),
    ("somebody's peeking over my shoulder", 'A6', None),
    ('how does the whole game end', 'A7', R2M),
    ("Bill and Larry both went past two mil, who's the winner", 'A7', None),
    ('can we pause so I can use the bathroom', 'B1', None),
    ('my kid is crying, can we put the hand on hold', 'B1', None),
    ("food's here, do we stop the hand", 'B2', None),
    ("no eating till the hand's done?", 'B2', None),
    ('I want to go out without a discard', 'B3', None),
    ('picked up the top card of the line, can I discard it right back', 'B3', None),
    ('I dug into the line, does the bottom card have to be played', 'B4', None),
    ('can I take a discard just to stick it on the table', 'B4', None),
    ('my 9 could go on the run or the nines, which is it', 'B5', None),
    ('nobody said run or set, where does it go', 'B5', None),
    ('why is that card laid sideways on the set', 'B6', None),
    ('I threw the wrong card, can I fix it', 'B7', None),
    ('take backs on a discard?', 'B7', None),
    ('who gets the rummy card if we both call it', 'B8', None),
    ('how do you steal a rummy card', 'B8', None),
    ('deck ran out, does everybody get one more go', 'B9', None),
    ('can I redo my meld before I discard', 'B10', None),
    ('does yelling rummy count without touching', 'B11', None),
    ('how many cards for six players', 'S1', None),
    ('can we play with four jokers', 'S2', None),
    ('highest card deals first?', 'S3', SR),
    ('does the guy on the right have to cut', 'S4', None),
    ('can I flip through the discards', 'S5', None),
    ('do I have to draw before I go out', 'S6', SR),
    ('is A K Q a run', 'S7', None),
    ('can my whole meld be jokers', 'S8', None),
    ('do I have to meld every card to win', 'S9', SR),
    ("stockpile ran out, I don't want the top discard", 'S10', None),
    ('caught with a wild at the end', 'S11', None),
    ('same low count, who takes it', 'S12', None),
    ("what's a king count for", 'S13', SR),
    ("I'm out, I'm dropping", 'S14', None),
    ("let's just call it a tie", 'S15', None),
    ('no counting the stock pile', 'S16', None),
    ('best of three games?', 'S17', None),
    ('major or minor going out', 'V1', None),
    ('reshuffle the discards when the stock is gone', 'V2', None),
    ('how many wilds in sequences rummy', 'V3', None),
    ('can I draw three cards', 'V4', None),
    ('four sevens wins?', 'V5', None),
    ('pick a card from deep in the spread discards', 'V6', None),
    ('seven piles shuffle', 'V7', None),
    ('how many cards does each player get in gin', 'G1', GIN),
    ("what's deadwood", 'G3', GIN),
    ('can I knock with 12 points', 'G4', GIN),
    ("he got undercut, what's the score", 'G8', GIN),
    ("what's a shutout in gin", 'G12', GIN),
    # rulings2's development batch (issue 14 item 7), written after heldout2_table_talk.toml and run
    # untouched at top-1 91.4%, top-3 96.6%; it chose the shared table slang
    # (data/rulebooks/table-slang.toml), the texting shorthand and a few situation aliases
    ('can my nephew jump in for a hand', 'A1', None),
    ('we got a new guy who wants to play w us', 'A1', None),
    ("can Bill's brother take his place tonite", 'A1', R2M),
    ('top of the standings picks where they sit?', 'A2', None),
    ("loser's on the floor again lol", 'A2', None),
    ("I'm in 2nd, do I get to pick my seat next", 'A2', None),
    ("it's ben's turn to deal right", 'A3', R2M),
    ("who's dealin after bill", 'A3', R2M),
    ('can we just play 2 hands tonight', 'A4', None),
    ('I gotta dip early, can we end after this hand', 'A4', R2M),
    ("we're out after this one, cool?", 'A4', R2M),
    ('can we skip this week', 'A5', None),
    ('is it every week or what', 'A5', None),
    ('my buddy just wants to watch', 'A6', None),
    ('can my wife hang out in here while we play', 'A6', None),
    ('what score do we need to take the whole thing', 'A7', R2M),
    ('two of us passed two million, who takes it', 'A7', None),
    ('brb, pause the hand', 'B1', None),
    ('can we stop for a smoke mid-hand', 'B1', None),
    ("pete's here, can we chow down", 'B2', None),
    ('can we eat the pizza during the hand', 'B2', None),
    ('all my cards play, do i gotta throw one', 'B3', None),
    ('can i pick up the top card and toss it back to finish', 'B3', None),
    ('can i take a card off the line and play it alone', 'B4', None),
    ('do i need a card from my hand to use what i picked up from the line', 'B4', None),
    ('my 4 goes on the run or the set, where does it count', 'B5', None),
    ("never said where it goes, so it's the run?", 'B5', None),
    ('do i turn it sideways on the set', 'B6', None),
    ('i tossed it but i want it back', 'B7', None),
    ('no take backs on a discard?', 'B7', None),
    ('we slapped it at the same time', 'B8', None),
    ('i yelled rummy but didnt touch it', 'B11', None),
    ('no more cards in the deck what now', 'B9', R2M),
    ('can i pull a card back off my meld this turn', 'B10', None),
    ('how many cards per person with 4 players', 'S1', SR),
    ('how many jokers are we playing with', 'S2', SR),
    ('how do we pick who deals', 'S3', SR),
    ('whos gotta cut', 'S4', SR),
    ('can i look thru the old discards', 'S5', SR),
    ('do i draw first or discard first', 'S6', SR),
    ('can a run go around from king to ace to two', 'S7', None),
    ('can the wild be anything', 'S8', None),
    ('how do you go out', 'S9', SR),
    ("stockpile's done and nobody went out", 'S10', SR),
    ('got caught holding a joker', 'S11', None),
    ('same low score, who takes it', 'S12', SR),
    ('what are face cards worth', 'S13', SR),
    ('i need to bounce, can i fold', 'S14', SR),
    ('everyone agrees to tie?', 'S15', SR),
    ('can i count whats left in the stock', 'S16', SR),
    ('first to win two?', 'S17', SR),
    ('does every card have to be in a meld to go out', 'V1', SR),
    ('keep going till someone goes out?', 'V2', SR),
    ('sequences rummy how many runs', 'V3', SR),
    ('can i draw both the discard and the stock', 'V4', SR),
    ('four sevens on the table, do i win', 'V5', SR),
    ('can i grab a card from the middle of the discards', 'V6', SR),
    ('the seven piles shuffle', 'V7', SR),
]


def _ranked(question: str, ruleset: str | None) -> list[str]:
    return [hit.rule.id for hit in search(question, ruleset=ruleset, limit=3)]


def test_question_table_covers_every_rule():
    ids = {rule.id for book in load_rulebooks().values() for rule in book.rules}
    asked = {expected for _, expected, _ in QUESTIONS}
    assert ids <= asked, f"rules without a question: {sorted(ids - asked)}"
    assert len(QUESTIONS) >= 110
    assert ids <= {expected for _, expected, _ in LATER}


def _accuracy(table):
    """Top-1 and top-3 shares; ``expected`` is a rule id, or a tuple of ids that all answer."""
    misses1, misses3 = [], []
    for question, expected, ruleset in table:
        ranked = _ranked(question, ruleset)
        wanted = {expected} if isinstance(expected, str) else set(expected)
        if not ranked or ranked[0] not in wanted:
            misses1.append((question, expected, ranked))
        if not wanted & set(ranked):
            misses3.append((question, expected, ranked))
    n = len(table)
    return 1 - len(misses1) / n, 1 - len(misses3) / n, misses1, misses3


#: fix-ruling removed 33 rulebook phrasings that near-copied held-out questions
#: (test_heldout_apart.py); some had served tuning questions too: "all" fell from 96.5% to
#: 95.3% (469 of 492) top-1, "written first" stayed at 94.8% / 99.0%. fix-ruling then fixed the
#: causes of the tuning misses (slang pairing with its neighbours, "once" as a conjunction, rules'
#: own vocabulary): "all" 97.2% / 99.8% (478 and 491 of 492), "written first" 96.4% / 99.5%
LEVELS = {"written first": (0.96, 0.99), "all": (0.97, 0.99)}


def test_accuracy_top1_and_top3():
    lines = []
    for name, table in (("written first", QUESTIONS), ("written later", LATER), ("issue 14 table talk", TABLE_TALK),
                        ("all", QUESTIONS + LATER + TABLE_TALK)):
        top1, top3, misses1, misses3 = _accuracy(table)
        lines.append(f"ruling search, {name}: {len(table)} questions, top-1 {top1:.1%}, top-3 {top3:.1%}")
        if name == "all":
            lines += [f"  top-1 miss: {q!r} expected {e}, got {r}" for q, e, r in misses1]
        if name in LEVELS:  # the level reached (rulings3: 94.8% / 99.0% and 96.5% / 99.2%)
            assert top1 >= LEVELS[name][0], (name, misses1)
            assert top3 >= LEVELS[name][1], (name, misses3)
    print("\n" + "\n".join(lines))
    _FIGURES.append("\n".join(line for line in lines if not line.startswith("  ")))


# -- table talk 1: held out until rulings3, tuning data since --------------------------------

HELDOUT_FILE = Path(__file__).with_name("heldout_table_talk.toml")
#: Held out until rulings3: 84.5% / 96.1% (87 and 99 of 103) when the tuning for issue 14 was
#: done, 83.5% / 95.1% before it; 86.4% / 97.1% (89 and 100) after rulings2's shared slang.
#: Two rounds had looked at its misses by then, so rulings3 made it TUNING DATA: its misses
#: were studied by category with the tuning tables' (96.1% / 100%, 99 and 103 of 103, after).
#: A plain BM25 over the same rulebooks: 80.6% / 95.1% (bench/bench_ruling.py).
#: fix-ruling's removal of the near-copies of held-out questions: 95.1% / 100% (98 of 103);
#: then its fixes for the causes of the tuning misses (this set's among them): 97.1% / 100% (100)
HELDOUT_TOP1, HELDOUT_TOP3 = 0.97, 1.0


def heldout() -> list[tuple[str, str, str | None]]:
    raw = tomllib.loads(HELDOUT_FILE.read_text(encoding="utf-8"))
    return [(q["text"], q["rule"], q.get("ruleset")) for q in raw["q"]]


def test_table_talk_1_is_apart_from_the_other_tuning_tables_and_covers_both_games():
    table = heldout()
    assert len(table) >= 90
    tuned = {q.casefold() for q, _, _ in QUESTIONS + LATER + TABLE_TALK}
    assert not [q for q, _, _ in table if q.casefold() in tuned]
    asked = {rule for _, rule, _ in table}
    books = load_rulebooks()
    for name in ("rummy-2m", "simple-rummy"):
        assert set(books[name].ids) <= asked, name


def test_accuracy_on_table_talk_1_now_tuning_data():
    top1, top3, misses1, misses3 = _accuracy(heldout())
    line = f"ruling search, table talk 1 (tuned on): {len(heldout())} questions, top-1 {top1:.1%}, top-3 {top3:.1%}"
    print("\n" + line)
    _FIGURES.append(line)
    assert top1 >= HELDOUT_TOP1, misses1
    assert top3 >= HELDOUT_TOP3, misses3


# The second held-out file (rulings2): written from the rule sources before any of rulings2's
# changes, committed alone, scored untouched at 89.7% / 96.6% (105 and 113 of 117) and then only
# once more, after the changes: 92.3% / 98.3%; a question may name two rules that both answer (B8 and B11).
# rulings3 did not look at it until its changes were done, then once: 90.6% / 98.3% (106 and 115
# of 117; two fewer top-1 hits; its misses not listed).
HELDOUT2_FILE = Path(__file__).with_name("heldout2_table_talk.toml")
#: the level reached honestly (see above and docs/development/benchmarks.md)
HELDOUT2_TOP1, HELDOUT2_TOP3 = 0.93, 0.98  # 92.3% / 98.3% (108 and 115 of 117) after audit D (90.6% after rulings3);
# the same after fix-ruling removed the rulebook phrasings that near-copied held-out questions; then,
# measured once after fix-ruling's fixes for the tuning misses (not tuned on this file, its misses
# not listed): 93.2% / 98.3% (109 and 115 of 117)


def heldout2() -> list[tuple[str, str | tuple[str, ...], str | None]]:
    raw = tomllib.loads(HELDOUT2_FILE.read_text(encoding="utf-8"))
    return [(q["text"], q["rule"] if isinstance(q["rule"], str) else tuple(q["rule"]), q.get("ruleset")) for q in raw["q"]]


def test_heldout2_is_fresh_and_covers_every_rule_of_both_games():
    table = heldout2()
    assert len(table) >= 100
    earlier = {q.casefold() for q, _, _ in QUESTIONS + LATER + TABLE_TALK + heldout()}
    assert not [q for q, _, _ in table if q.casefold() in earlier]
    asked = {r for _, rules, _ in table for r in ([rules] if isinstance(rules, str) else rules)}
    books = load_rulebooks()
    for name in ("rummy-2m", "simple-rummy"):
        assert set(books[name].ids) <= asked, name


def test_accuracy_on_heldout2_table_talk():
    top1, top3, misses1, misses3 = _accuracy(heldout2())
    line = f"ruling search, held-out table talk 2: {len(heldout2())} questions, top-1 {top1:.1%}, top-3 {top3:.1%}"
    print("\n" + line)
    _FIGURES.append(line)
    assert top1 >= HELDOUT2_TOP1, misses1
    assert top3 >= HELDOUT2_TOP3, misses3


# The third held-out file (rulings3): written from the rule sources alone before any of
# rulings3's changes, without opening the rulebook data or any other question file, committed
# alone, scored untouched at 90.8% / 98.0% (139 and 150 of 153; its misses never listed). 15
# first phrasings happened to repeat an earlier question word for word (the freshness test
# below caught them) and were reworded before the commit. A question may name two rules.
# Measured once more, after rulings3's changes: 91.5% / 98.0% (140 and 150 of 153).
HELDOUT3_FILE = Path(__file__).with_name("heldout3_table_talk.toml")
#: the level reached honestly (see above and docs/development/benchmarks.md)
#: 92.2% / 98.0% (141 and 150 of 153) after audit D (91.5% after rulings3) was three questions
#: answered by memory: fix-ruling removed the rulebook phrasings that near-copied held-out
#: questions (test_heldout_apart.py), and it measures 90.2% / 98.0% (138 and 150 of 153), what
#: the search does with phrasings it has not seen. The level is lowered to that, not tuned back.
#: fix-ruling then fixed the causes of the tuning misses only (this file's misses never listed) and
#: measured: 91.5% / 97.4% (140 and 149 of 153). Pairing a slang word's meaning with its neighbours
#: gained a top-1 here and in file 2 but lost one top-3 here; "whoever" as a stop word cost one of
#: each here and helped no tuning question, so it was reverted.
HELDOUT3_TOP1, HELDOUT3_TOP3 = 0.91, 0.97


def heldout3() -> list[tuple[str, str | tuple[str, ...], str | None]]:
    raw = tomllib.loads(HELDOUT3_FILE.read_text(encoding="utf-8"))
    return [(q["text"], q["rule"] if isinstance(q["rule"], str) else tuple(q["rule"]), q["ruleset"]) for q in raw["q"]]


def test_heldout3_is_fresh_and_asks_every_rule_of_both_games_three_times():
    table = heldout3()
    assert len(table) >= 120
    earlier = {q.casefold() for q, _, _ in QUESTIONS + LATER + TABLE_TALK + heldout() + heldout2()}
    assert not [q for q, _, _ in table if q.casefold() in earlier]
    asked = Counter(r for _, rules, _ in table for r in ([rules] if isinstance(rules, str) else rules))
    books = load_rulebooks()
    for name in ("rummy-2m", "simple-rummy"):
        assert not [rule for rule in books[name].ids if asked[rule] < 3], name
    assert {ruleset for _, _, ruleset in table} == {"rummy-2m", "simple-rummy"}


def test_accuracy_on_heldout3_table_talk():
    top1, top3, misses1, misses3 = _accuracy(heldout3())
    line = f"ruling search, held-out table talk 3: {len(heldout3())} questions, top-1 {top1:.1%}, top-3 {top3:.1%}"
    print("\n" + line)
    _FIGURES.append(line)
    assert top1 >= HELDOUT3_TOP1, misses1
    assert top3 >= HELDOUT3_TOP3, misses3


_FIGURES: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _print_figures(request):
    yield
    if _FIGURES:
        capman = request.config.pluginmanager.getplugin("capturemanager")
        with capman.global_and_fixture_disabled():
            print("\n" + "\n".join(_FIGURES))


@pytest.mark.parametrize(
    "question, expected",
    [("B7", "B7"), ("rule a4", "A4"), ("s12", "S12"), ("Rule V3", "V3"), ("simple-rummy:S7", "S7"), ("#b11", "B11")],
)
def test_exact_id_lookup(question, expected):
    hits = search(question)
    assert hits[0].rule.id == expected
    assert hits[0].exact


def test_ruleset_limits_the_search():
    assert {h.ruleset for h in search("who deals first", ruleset="rummy-2m", limit=3)} == {"rummy-2m"}
    assert {h.ruleset for h in search("who deals first", ruleset="simple-rummy", limit=3)} == {"simple-rummy"}


def test_cli_text_shows_best_rule_and_two_candidates():
    result = ref("ruling", "can I take my discard back")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "B7 (rummy-2m) A card laid is a card played"
    assert any(line.startswith("Verdict: ") for line in lines)
    assert any(line.startswith("Related: B3 Every turn ends with a discard") for line in lines)
    assert any(line.startswith("Enforced by: ref amend") for line in lines)
    tail = lines[lines.index("Also possible:") + 1 :]
    assert tail[2:] == ["", "From rummy-2m and simple-rummy: no game is recorded yet (--ruleset picks one)."]
    assert len(tail) == 4 and all(line.startswith("  ") for line in tail[:2])
    assert "score" not in result.stdout  # the search scores are for --json only


def test_cli_exact_id_shows_see_also():
    result = ref("ruling", "rule s12")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "S12 (simple-rummy) Equal low counts"
    assert "latest in turn order" in " ".join(result.stdout.split())  # wrapped at 80 columns
    assert "See also:" in lines


def test_cli_json_shape():
    data = ref_json("ruling", "we both slapped the rummy card")
    assert data["query"] == "we both slapped the rummy card"
    assert data["ruleset"] is None
    assert len(data["rules"]) == 3
    first = data["rules"][0]
    assert first["id"] == "B8" and first["ruleset"] == "rummy-2m"
    assert set(first) >= {"id", "ruleset", "title", "score", "statement", "verdict", "related", "enforced_by"}
    scores = [r["score"] for r in data["rules"]]
    assert scores == sorted(scores, reverse=True)
    assert data["sure"] is True
    assert data["answered_from"] == {"rulebooks": ["rummy-2m", "simple-rummy"], "source": "default", "game": None}


def test_cli_ruleset_option():
    data = ref_json("ruling", "who deals first", "--ruleset", "simple-rummy")
    assert data["ruleset"] == "simple-rummy"
    assert all(r["ruleset"] == "simple-rummy" for r in data["rules"])


@pytest.mark.parametrize("nonsense", ["xyzzy plugh", "the capital of Mongolia", "???"])
def test_cli_no_match_is_not_found(nonsense):
    result = ref("ruling", nonsense)
    assert result.exit_code == 5
    assert "rephras" in result.stderr


def test_cli_unknown_ruleset_is_not_found():
    result = ref("ruling", "who deals", "--ruleset", "poker")
    assert result.exit_code == 5


_PROBE = (  # runs the CLI in a fresh interpreter, then inspects sys.modules
    "import sys, time; t=time.perf_counter(); from rummyref.cli.app import app\n"
    "try:\n    app(['ruling', \"pizza's here\", '--json'])\n"
    "except SystemExit as e:\n    code = e.code\n"
    "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy'))\n"
    "sys.stderr.write(f'HEAVY={heavy} ELAPSED={time.perf_counter()-t:.4f} CODE={code}\\n')\n"
)


def test_ruling_does_not_import_the_database_layer(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.getcwd(), RUMMYREF_CACHE=str(tmp_path / "cache"))
    env["RUMMYREF_DB"] = str(tmp_path / "ref.db")  # a SQLite record (a server one needs its driver)
    figures = []
    for run in ("cold cache", "warm cache"):
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=60)
        wall = time.perf_counter() - started
        assert "HEAVY=[]" in proc.stderr, proc.stderr
        assert "CODE=0" in proc.stderr, proc.stderr
        assert json.loads(proc.stdout)["rules"][0]["id"] == "B2"
        inside = float(proc.stderr.split("ELAPSED=")[1].split()[0])
        figures.append(f"{run}: {inside * 1000:.0f} ms in-process, {wall * 1000:.0f} ms wall")
    assert list((tmp_path / "cache").glob("ruling-index-*.pickle"))
    report = "ref ruling in a fresh interpreter: " + "; ".join(figures)
    print("\n" + report)
    _FIGURES.append(report)
    # speed is measured by bench/bench_startup.py, never asserted by a timed test


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_search_never_fails_on_any_text(text):
    hits = search(text)
    assert len(hits) <= 3
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


# -- the shared table slang and the texting shorthand (rulings2) ---------------------------


@pytest.mark.parametrize(
    "text, tokens",
    [("tonite w ppl", ["tonight", "with", "people"]), ("I'm in 2nd", ["im", "in", "second"]), ("thru the pile", ["through", "the", "pile"])],
)
def test_shorthand_reads_as_the_written_word(text, tokens):
    assert tokenise(text) == tokens


@pytest.mark.parametrize("text, tokens", [
    ("no one went out", ["nobody", "went", "out"]), ("noone knocked", ["nobody", "knocked"]),
    ("No-one won", ["nobody", "won"]), ("one card, no one else", ["one", "card", "nobody", "else"]),
])  # fmt: skip
def test_no_one_reads_as_nobody(text, tokens):
    assert tokenise(text) == tokens


@pytest.mark.parametrize("ruleset, rule", [("simple-rummy", "S10"), ("gin", "G9"), ("rummy-2m", "B9")])
def test_no_one_went_out_is_the_rule_for_nobody_going_out(ruleset, rule):
    # 'no one' was read as 'no' and 'one': the going-out rule came first (audit, stop 34)
    for question in ("no one went out", "nobody went out"):
        assert search(question, ruleset=ruleset)[0].rule.id == rule, question


def test_dropped_g_reads_as_the_known_word_not_a_typo():
    query = explain("who's dealin after bill", ruleset="rummy-2m")
    assert query.weights["deal"] == 1.0
    assert "dealin" not in query.repaired


def test_slang_the_rules_never_use_stands_for_its_expansion():
    weights = explain("i tossed it").weights
    assert weights["discard"] == SLANG_WEIGHT
    assert "toss" not in weights


@pytest.mark.parametrize("slang", sorted(phrase for phrase, _ in table_slang()))
def test_every_shared_slang_phrase_expands_to_words_some_rulebook_uses(slang):
    index = build_index(("rummy-2m", "simple-rummy"))
    key = tuple(stem(t) for t in tokenise(slang))
    assert key in index.synonyms
    assert set(index.synonyms[key]) & set(index.df), slang


@pytest.mark.parametrize(
    "question, ruleset, expected",
    [("can my nephew jump in for a hand", None, "A1"), ("I tossed it but I want it back", None, "B7"),
     ("I need to bounce, can I fold", "simple-rummy", "S14")],
)
def test_shared_slang_reaches_the_rule(question, ruleset, expected):
    assert search(question, ruleset=ruleset)[0].rule.id == expected


# -- categories of miss (rulings3): each fixed for the kind of phrasing, not the sentence ----


@pytest.mark.parametrize(
    "text, has, lacks",
    [("the one on the dealer's right cuts", {"right"}, set()), ("he cuts, right?", set(), {"right"}),
     ("no jokers at all", {"no"}, {"all"}), ("all four sevens", {"all"}, set()), ("I used a wild", {stem("use")}, set()),
     ("who starts once the cards are dealt", set(), {stem("once")}), ("it ends at once", {stem("once")}, set())],
)
def test_words_that_change_meaning_with_their_neighbours(text, has, lacks):
    got = set(terms(text))
    assert has <= got
    assert not lacks & got


def test_a_game_named_as_the_game_picks_the_rulebook_not_a_rule():
    index = build_index(("rummy-2m", "simple-rummy"))
    text, named = _game_named(index, "can my pal sit down in our two million game", ("rummy-2m", "simple-rummy"))
    assert named == {"rummy-2m"}
    assert "million" not in text and "game" not in text
    assert _game_named(index, "who has passed two million", ("rummy-2m", "simple-rummy"))[1] == set()


@pytest.mark.parametrize(
    "text, term, weight",
    [("lay it on the kings", "group", SYNONYM_WEIGHT), ("lay it on the kings", "match", MATCH_WEIGHT),
     ("three 8s on the table", "group", SYNONYM_WEIGHT), ("we each have 9 left", "count", SYNONYM_WEIGHT)],
)
def test_card_talk_a_rank_in_the_plural_is_a_set_and_a_number_left_is_a_count(text, term, weight):
    assert explain(text).weights[term] == weight


def test_slang_the_rules_never_use_pairs_with_its_neighbours_as_its_meaning():
    """fix-ruling: "tonight" is "night" beside "hands" too (a pair as the rules would say it)."""
    weights = explain("can we just play 2 hands tonight").weights
    assert weights[pair_term("hand", "night")] > 0
    assert pair_term("group", "one") not in explain("a single group").weights  # "single" is a rule word: no pairing


# fix-ruling: tuning misses, each fixed for its cause (the rule's own vocabulary, a conjunction,
# slang pairing with its neighbours), asked as a player would at the command line
@pytest.mark.parametrize(
    "question, ruleset, first",
    [("we flipped cards and both got aces, who deals", None, "S3 (simple-rummy) Choosing who deals first"),
     ("is calling rummy enough or do I have to hit it", None,
      "B11 (rummy-2m) A claim needs both the call and the touch; a tie goes to the"),
     ("does a wildcard add points to my count", None, "S13 (simple-rummy) Counting unmelded cards"),
     ("in go out, what if the stockpile is gone", None, "V2 (simple-rummy) Variation: Go Out"),
     ("can we just play 2 hands tonight", None, "A4 (rummy-2m) A Rummy Night ends only after a full round")],
)
def test_cli_tuning_misses_fixed_by_cause(question, ruleset, first):
    result = ref("ruling", "--no-log", question, *(["-r", ruleset] if ruleset else []))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    head = lines[1] if lines[0] == "Not sure; maybe:" else lines[0]  # a close runner-up: shown, unsure
    assert head.startswith(first)


def test_a_plain_number_is_not_a_count():
    assert "count" not in explain("I have 9 cards").weights


@pytest.mark.parametrize(
    "text, named",
    [("in go out, can we reshuffle", {"V2"}), ("the minor variation", {"V1"}), ("under major", {"V1"}),
     ("can I go out with one card", set()), ("playing sequences rummy", {"V3"})],
)
def test_a_variation_named_as_the_one_played(text, named):
    index = build_index(("rummy-2m", "simple-rummy"))
    assert {index.docs[d].rule.id for d in _rules_named(index, text)} == named


# -- audit D: a rare shared word must not decide alone ------------------------------------------
# Audit D found sure answers decided by one rare word ("point" in B11's claim, "guy" in B2's
# delivery guy, "pee" read as a typo of "Pete"). The causes were fixed in the data (A7 knows it is
# a points target, A1 "wants to play", B7 "already laid", B1 the bathroom, S6/S7/A4/B9 the table's
# words) and in the normaliser ("guy" and "person" say nothing, "4th" is "fourth"). These are other
# wordings of the same situations, written after the fix (23 of 24 first right untouched; the
# S9 one is asked of the answer's top three, as S6's turn also answers it).
AUDIT_D: list[tuple[str, str, str | None]] = [
    ("what score are we playing up to", "A7", R2M),
    ("how many points does it take to win the whole game", "A7", R2M),
    ("what's the target we're playing to", "A7", R2M),
    ("how high do we play before someone wins", "A7", R2M),
    ("what total do you need to take the game", "A7", R2M),
    ("how many points do you need to win the game", "A7", None),
    ("my buddy wants to play a few hands with us", "A1", R2M),
    ("can a 5th guy join tonight", "A1", R2M),
    ("this dude wants to play", "A1", R2M),
    ("some guy from work wants to play", "A1", None),
    ("is there room for another player", "A1", R2M),
    ("I already put that card down, can I switch it", "B7", R2M),
    ("that card's already laid, can I swap it for another", "B7", R2M),
    ("gotta pee real quick, can we stop the hand", "B1", R2M),
    ("hold the game while I use the loo", "B1", R2M),
    ("who starts once the cards are dealt", "S6", SR),
    ("after dealing, who goes first", "S6", SR),
    ("how many cards do you need for a meld", "S7", SR),
    ("can we quit before Ben gets his deal", "A4", R2M),
    ("can we end the night before everyone has dealt", "A4", R2M),
    ("the draw pile is all gone, now what", "B9", R2M),
    ("nothing left in the pile to draw from", "B9", R2M),
    ("the pile we draw from is empty", "S10", SR),
]


@pytest.mark.parametrize("question, expected, ruleset", AUDIT_D)
def test_a_rare_shared_word_does_not_decide_alone(question, expected, ruleset):
    assert _ranked(question, ruleset)[0] == expected


@pytest.mark.parametrize(
    "question, expected, ruleset",
    [("when I go out do I still throw a card", "S9", SR), ("do we still discard when we go out", "S9", SR)],
)
def test_going_out_is_in_the_answer_to_a_discard_when_going_out(question, expected, ruleset):
    assert expected in _ranked(question, ruleset)


@pytest.mark.parametrize("text, words", [("this guy wants to play", ["want", "play"]), ("a 4th player", ["fourth", "player"])])
def test_a_person_word_says_nothing_and_an_ordinal_is_a_word(text, words):
    assert terms(text) == words


@pytest.mark.parametrize("question", ["rummy-2m:S7", "simple-rummy:B7", "B12", "gin:G3", "rule s18"])
def test_a_rule_id_naming_no_rule_searched_is_no_match_never_read_as_words(question):
    assert search(question) == []


def test_a_weak_match_is_unsure():
    from rummyref.rulebook.book import unsure

    hits = search("what score are we playing up to", ruleset=R2M)  # A7, but on one word
    assert hits[0].rule.id == "A7" and unsure(hits)


# -- audit L: the word "call" pulled "last hand" to B11, "went out" pulled to B3 -----------------
# A4's own example in the house document is calling "last hand"; a hand may end with nobody going
# out when the stock runs out (B9). Fixed in the rulebook data (A4 and B9 aliases), not in code.
AUDIT_L: list[tuple[str, str, str | None]] = [
    ("can we call last hand, I'm tired", "A4", R2M),
    ("call last hand", "A4", R2M),
    ("I'm tired, can we stop", "A4", R2M),
    ("nobody went out", "B9", R2M),
    ("the hand ended and nobody went out", "B9", R2M),
]


@pytest.mark.parametrize("question, expected, ruleset", AUDIT_L)
def test_audit_l_phrasings_are_answered_surely(question, expected, ruleset):
    from rummyref.rulebook.book import unsure

    hits = search(question, ruleset=ruleset)
    assert hits[0].rule.id == expected and not unsure(hits)


@pytest.mark.parametrize(
    "question, first",
    [("can we call last hand, I'm tired", "A4 (rummy-2m) A Rummy Night ends only after a full round"),
     ("nobody went out", "B9 (rummy-2m) When the deck runs out: one last turn each")],
)
def test_cli_audit_l_rulings(question, first):
    result = ref("ruling", "-r", "rummy-2m", "--no-log", question)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == first


def test_cli_who_plays_first_is_answered_honestly_by_a3():
    """The house rules say nothing on who plays first; A3 is the deal order, and says so."""
    result = ref("ruling", "-r", "rummy-2m", "--no-log", "who goes first after the deal")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "A3 (rummy-2m) Deal order: Bill, then Ben, then Larry"
    text = " ".join(result.stdout.split())
    assert "the house papers do not say who plays first once the cards are dealt, so ref makes no ruling on it" in text


# -- audit rules44 #5: "by itself" is B4's own alias, yet "top card" pulled the question to B3 ----
# (unsure, B4 second). B4 was given the whole phrase "play it by itself"; every figure above stayed
# where it was (all 97.2% / 99.8%, held-out 2 94.0% / 99.1%, held-out 3 92.2% / 97.4%).


@pytest.mark.parametrize("ruleset", [R2M, None])
def test_taking_the_top_card_to_play_it_by_itself_is_b4(ruleset):
    from rummyref.rulebook.book import unsure

    hits = search("can I take the top card and play it by itself", ruleset=ruleset)
    assert hits[0].rule.id == "B4" and not unsure(hits)


# -- audit rules44 #1: where a game's own rulebook only guesses, the house rules may answer --------


def test_the_house_rules_never_take_a_question_asked_at_its_own_games_table():
    """Every question of the tables above, asked at a table of its own game (Simple Rummy, Gin;
    Rummy 2,000,000's own rulebook is the house rules), keeps its own rulebook's answer: the
    house rules answer only where that one guesses, and with a rule that holds at any table
    (rummyref.rulebook.book.house_answers). Asked at the other game's table, the questions the
    house rules take are answered with the rule they were written for, all but two of them."""
    from rummyref.rulebook.book import HOUSE_RULEBOOK, house_answers, search_books

    home = {"S": SR, "V": SR, "G": GIN}
    taken_home, taken_away, right_away = [], 0, 0
    for question, expected, _ in QUESTIONS + LATER + TABLE_TALK + heldout() + heldout2() + heldout3():
        wanted = {expected} if isinstance(expected, str) else set(expected)
        for table in (SR, GIN):
            own = search_books(question, (table,))
            if own and house_answers(own, search_books(question, (HOUSE_RULEBOOK,))):
                answer = search_books(question, (HOUSE_RULEBOOK,))[0].rule.id
                if home.get(sorted(wanted)[0][0]) == table:
                    taken_home.append((question, table, answer))
                else:
                    taken_away += 1
                    right_away += answer in wanted
    line = f"house rules at another game's table: {taken_away} answered, {right_away} with the rule asked for"
    print("\n" + line)
    _FIGURES.append(line)
    assert taken_home == []
    assert right_away >= taken_away - 2


# -- audit simple-variations #4: the spread-out pile asked as the table asks it -------------------


@pytest.mark.parametrize("question, expected", [
    ("can I pick up from the middle of the discard pile", "V6"),
    ("pick a card up out of the middle of the pile", "V6"),
    ("can I pick up one from the bottom of the discard pile", "V6"),
])
def test_taking_from_inside_the_discard_pile_is_the_spread_out_variation(question, expected):
    assert _ranked(question, SR)[0] == expected
