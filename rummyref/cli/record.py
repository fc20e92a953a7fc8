"""Recording Rummy 2,000,000: ``new-session``, ``score-hand``, ``end-session``, ``amend``, ``void``.

The store (sqlmodel) is imported inside each command, never at module level.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from rummyref.bounds import CARDS_DEALT, HAND_NUMBER, WILDCARDS
from rummyref.cli.common import DbOption, GameOption, JsonOption, RulesetOption, db_choice, out, print_json
from rummyref.cli.completion import complete_assignment, complete_player, complete_player_list, complete_variation
from rummyref.cli.numbers import bounded

PlayersOption = Annotated[
    Optional[str], typer.Option("--players", "-p", metavar="A,B,C", help="The roster in deal order (A3); fixed for ever once the game exists (A1).", autocompletion=complete_player_list)
]
MeldedOption = Annotated[
    list[str], typer.Option("--melded", "-m", metavar='"NAME=CARDS"', help="Cards NAME melded or laid off this hand; '/' between melds designates them (B5). Repeat per player.", autocompletion=complete_assignment)
]
HeldOption = Annotated[
    list[str], typer.Option("--held", metavar='"NAME=CARDS"', help="Cards left in NAME's hand at the end (blank after '=' for none). Repeat per player.", autocompletion=complete_assignment)
]
OutOption = Annotated[Optional[str], typer.Option("--out", "-o", metavar="NAME", help="Who went out (rummy-2m: holds nothing; Simple Rummy: the hand is checked, S9/V1/V3).", autocompletion=complete_player)]
ClaimOption = Annotated[
    list[str], typer.Option("--claim", "-c", metavar='"NAME=CARD"', help="A Rummy! claim: the card scores for the claimer. Repeatable.", autocompletion=complete_assignment)
]
HandOption = Annotated[
    list[str], typer.Option("--hand", metavar='"NAME=CARDS"', help="Simple Rummy: NAME's final hand; Gin: NAME's cards. Repeat per player.", autocompletion=complete_assignment)
]
FourSevensOption = Annotated[Optional[str], typer.Option("--four-sevens", metavar="NAME", help="Simple Rummy, Four 7's (V5): NAME laid down the four 7s.", autocompletion=complete_player)]
TieOption = Annotated[bool, typer.Option("--tie", help="Simple Rummy: everyone agreed to a tie game (S15).")]
DroppedOption = Annotated[list[str], typer.Option("--dropped", metavar="NAME", help="Simple Rummy: NAME dropped out (S14). Repeatable.", autocompletion=complete_player)]
KnockOption = Annotated[Optional[str], typer.Option("--knock", metavar="NAME", help="Gin: NAME knocked (give both hands with --hand).", autocompletion=complete_player)]
GinOption = Annotated[Optional[str], typer.Option("--gin", metavar="NAME", help="Gin: NAME went gin.", autocompletion=complete_player)]
BigGinOption = Annotated[Optional[str], typer.Option("--big-gin", metavar="NAME", help="Gin: NAME went big gin (all 11 cards in the shipped rule set: one more than dealt).", autocompletion=complete_player)]
DeadOption = Annotated[bool, typer.Option("--dead", help="Gin: a dead hand (the stock ran down; nobody scores).")]
MeldsOption = Annotated[list[str], typer.Option("--melds", metavar='"NAME=MELDS"', help="Gin: the melds the knocker laid down, '/' between them (else ref arranges them).", autocompletion=complete_assignment)]
UpcardOption = Annotated[Optional[str], typer.Option("--upcard", metavar="CARD", help="Gin, Oklahoma: the first upcard (it sets the knock limit).")]
PointsOption = Annotated[
    list[str], typer.Option("--points", metavar="NAME=N", help="In a hurry: NAME's points for the hand instead of cards. Repeat per player.", autocompletion=complete_assignment)
]


def new_session(
    game: GameOption = None,
    players: PlayersOption = None,
    ruleset: RulesetOption = None,
    opening: Annotated[
        list[str], typer.Option("--opening", metavar="NAME=TOTAL", help="A game begun on paper: NAME's total so far (only when the game is created).", autocompletion=complete_assignment)
    ] = [],  # noqa: B006
    wildcards: Annotated[Optional[int], typer.Option("--wildcards", "-w", metavar="N", parser=bounded(WILDCARDS, "--wildcards"), help="WILDCARDs in the deck (a long game: fixed when the game is created; Simple Rummy: per session, S2).")] = None,
    cards: Annotated[Optional[int], typer.Option("--cards", metavar="N", parser=bounded(CARDS_DEALT, "--cards"), help="Simple Rummy: cards dealt to each player (S1).")] = None,
    variation: Annotated[list[str], typer.Option("--variation", "-V", metavar="NAME", help="A variation in force: Simple Rummy's major, minor, go-out, sequences, three-card-draw, four-sevens, spread-out; Gin's oklahoma (chosen when the game is created). Repeatable.", autocompletion=complete_variation)] = [],  # noqa: B006
    first_dealer: Annotated[list[str], typer.Option("--first-dealer", metavar='"NAME=CARDS"', help="Simple Rummy: the cards NAME turned up to choose the first dealer (S3). Repeat per player.")] = [],  # noqa: B006
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Open a session: a Rummy Night (seating dibs A2, deal order A3), a Simple Rummy table (dealer, first player, variations) or a Gin session."""
    from rummyref import play

    request = session_request(game, players, ruleset, opening, wildcards, cards, variation, first_dealer)
    done = play.open_session(db_choice(db), request)
    if done.note:
        from rummyref.cli.common import say

        say(done.note)
    show(done, json_, "opened")


def session_request(game, players, ruleset, opening, wildcards, cards, variation, first_dealer):
    """``new-session``'s options (``ref night`` takes the same ones) as a SessionRequest; an
    unreadable --opening is refused before the database is touched."""
    from rummyref.bounds import OPENING, bounded_int
    from rummyref.errors import UnreadableInput
    from rummyref.games.base import SessionRequest
    from rummyref.games.forms import split_assignment
    from rummyref.names import check_roster, find

    # an unusable player name is refused before the database is touched, too
    names = check_roster(roster_names(players)) if players is not None else None
    openings: dict[str, int] = {}
    for name, value in (split_assignment(text, "--opening") for text in opening):
        if find(name, list(openings)) is not None:  # one total per player: never the last one silently
            raise UnreadableInput(f"--opening was given twice for {name}", hint="one use per player")
        openings[name] = bounded_int(value.strip(), f"--opening {name}", OPENING)
    return SessionRequest(game, names, ruleset, openings, wildcards, cards, tuple(variation), tuple(first_dealer))


def roster_names(players: str) -> list[str]:
    """``--players A,B,C`` split at the commas; an empty name (``A,,B``, a comma at either end,
    nothing at all) is refused, naming its place, rather than dropped silently."""
    from rummyref.errors import UnreadableInput

    names = [n.strip() for n in players.split(",")]
    empty = [i for i, n in enumerate(names, 1) if not n]
    if empty:
        place = "no name given" if names == [""] else f"name {empty[0]} of {len(names)} is empty"
        raise UnreadableInput(f"--players {players!r}: {place}",
                              hint="name every player, separated by commas: --players Ann,Bob,Cy")
    return names


def show(done, json_: bool, what: str) -> None:
    """Print what a command did, the kind's way: JSON on stdout, or its tables."""
    kind = done.kind
    if json_:
        data = getattr(kind, f"{what}_json")(done.shown)
        if done.reason is not None:  # an amend or a void: why, as the history keeps it (B7)
            data = {**data, "correction_reason": done.reason}
        print_json({**data, "seal": done.seal} if done.seal else data)
        return
    getattr(kind, f"show_{what}")(done.shown, out)
    if done.seal:
        from rummyref.cli.verify import show_seal

        show_seal(done.seal)


def score_hand(
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out_: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    hand: HandOption = [],  # noqa: B006
    four_sevens: FourSevensOption = None,
    tie: TieOption = False,
    dropped: DroppedOption = [],  # noqa: B006
    knock: KnockOption = None,
    gin: GinOption = None,
    big_gin: BigGinOption = None,
    dead: DeadOption = False,
    melds: MeldsOption = [],  # noqa: B006
    upcard: UpcardOption = None,
    dealer: Annotated[Optional[str], typer.Option("--dealer", metavar="NAME", help="Who dealt (checked against the deal order, A3 / S6).", autocompletion=complete_player)] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Record the next hand (rummy-2m, Gin) or game (Simple Rummy); print scores, or counts, winner and match."""
    from rummyref import play

    given = _given(melded, held, out_, claim, points, hand, four_sevens, tie, dropped,
                   knock=knock, gin=gin, big_gin=big_gin, dead=dead, melds=list(melds), upcard=upcard)
    ask, confirm = _terminal()
    done = play.record_hand(db_choice(db), game, given, ask, dealer, confirm)
    show(_written(done, confirm), json_, "recorded")


def _terminal():
    """At a terminal: the asker and the "Record it?" that settles the hand first; else (None, None)."""
    from rummyref.cli.common import err
    from rummyref.cli.night_forms import TableConfirm
    from rummyref.cli.prompts import asker

    ask = asker()
    return (ask, TableConfirm(ask, err)) if ask is not None else (None, None)


def _written(done, confirm):
    """What was written; a hand the table dropped ends the command here: exit 0, or the code of
    the refusal it was dropped on (nothing was written either way)."""
    if done is None:
        refused = confirm.refused if confirm is not None else None
        raise typer.Exit(int(refused.exit_code) if refused is not None else 0)
    return done


def _given(melded, held, out_, claim, points, hand, four_sevens, tie, dropped, **more) -> dict:
    """Every option a hand may be told with, by name; each kind's Form reads its own."""
    return {"melded": list(melded or []), "held": list(held or []), "out": out_, "claim": list(claim or []),
            "points": list(points or []), "hand": list(hand or []), "four_sevens": four_sevens, "tie": tie,
            "dropped": list(dropped or []), **more}


def end_session(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Close the session: a Rummy Night only after full rounds (A4) or when the game is over (A7); Simple Rummy and Gin any time between games or hands."""
    from rummyref import play

    show(play.close_session(db_choice(db), game), json_, "closed")


ReasonOption = Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why the record is corrected (kept in the history, B7).")]


def amend(
    hand: Annotated[int, typer.Argument(metavar="HAND", help="The hand number (as in ref history).", parser=bounded(HAND_NUMBER, "HAND"))],
    reason: ReasonOption,
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out_: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    hand_: HandOption = [],  # noqa: B006
    four_sevens: FourSevensOption = None,
    tie: TieOption = False,
    dropped: DroppedOption = [],  # noqa: B006
    knock: KnockOption = None,
    gin: GinOption = None,
    big_gin: BigGinOption = None,
    dead: DeadOption = False,
    melds: MeldsOption = [],  # noqa: B006
    upcard: UpcardOption = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Correct a recorded hand (or Simple Rummy game): a new entry with the right facts; the original stays in the history (B7).

    At a terminal the hand as recorded answers first: give (or fix) only what was wrong;
    the change is shown before -> after and written only on "Record it?". Off a terminal
    the options give the whole hand."""
    from rummyref import play

    given = _given(melded, held, out_, claim, points, hand_, four_sevens, tie, dropped,
                   knock=knock, gin=gin, big_gin=big_gin, dead=dead, melds=list(melds), upcard=upcard)
    ask, confirm = _terminal()
    done = play.correct(db_choice(db), game, hand, given, reason, ask, "amend", confirm)
    show(_written(done, confirm), json_, "recorded")


def void(
    hand: Annotated[int, typer.Argument(metavar="HAND", help="The hand number (as in ref history).", parser=bounded(HAND_NUMBER, "HAND"))],
    reason: ReasonOption,
    game: GameOption = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Void a recorded hand (or Simple Rummy game): its result no longer counts; both stay in the history (B7)."""
    from rummyref import play

    ask, confirm = _terminal()
    done = play.correct(db_choice(db), game, hand, None, reason, ask, "void", confirm)
    show(_written(done, confirm), json_, "recorded")


def register(app: typer.Typer) -> None:
    app.command("new-session")(new_session)
    app.command("score-hand")(score_hand)
    app.command("end-session")(end_session)
    app.command("amend")(amend)
    app.command("void")(void)
