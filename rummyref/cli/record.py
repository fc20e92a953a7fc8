"""Recording Rummy 2,000,000: ``new-session``, ``score-hand``, ``end-session``, ``amend``, ``void``.

The store (sqlmodel) is imported inside each command, never at module level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rummyref.cli.completion import complete_assignment, complete_player, complete_player_list, complete_variation
from rummyref.cli.common import DbOption, GameOption, JsonOption, RulesetOption, db_choice, print_json

if TYPE_CHECKING:
    from rummyref.cli.facts import Given

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
    list[str], typer.Option("--hand", metavar='"NAME=CARDS"', help="Simple Rummy: NAME's final hand. Repeat per player.", autocompletion=complete_assignment)
]
FourSevensOption = Annotated[Optional[str], typer.Option("--four-sevens", metavar="NAME", help="Simple Rummy, Four 7's (V5): NAME laid down the four 7s.", autocompletion=complete_player)]
TieOption = Annotated[bool, typer.Option("--tie", help="Simple Rummy: everyone agreed to a tie game (S15).")]
DroppedOption = Annotated[list[str], typer.Option("--dropped", metavar="NAME", help="Simple Rummy: NAME dropped out (S14). Repeatable.", autocompletion=complete_player)]
PointsOption = Annotated[
    list[str], typer.Option("--points", metavar="NAME=N", help="In a hurry: NAME's points for the hand instead of cards. Repeat per player.", autocompletion=complete_assignment)
]


def _given(melded, held, out, claim, points):
    from rummyref.cli.facts import Given

    return Given(list(melded or []), list(held or []), out, list(claim or []), list(points or []))


def _facts(db: Optional[str], game: Optional[str], given: Given, hand: Optional[int] = None):
    """Read the roster (short read), then build the facts, asking at a terminal if needed;
    ``hand``: a correction of that hand (the position then holds its entry in force)."""
    from rummyref.cli.facts import build_facts, interactive, prompt_ask
    from rummyref.store.guard import position
    from rummyref.store.record import reading

    with reading(db) as rec:
        g = rec.game_row(game)
        domain, seen = rec.game(g), position(rec, g, hand)
    return seen, build_facts(domain, given, prompt_ask if interactive() else None)


def new_session(
    game: GameOption = None,
    players: PlayersOption = None,
    ruleset: RulesetOption = None,
    opening: Annotated[
        list[str], typer.Option("--opening", metavar="NAME=TOTAL", help="A game begun on paper: NAME's total so far (only when the game is created).", autocompletion=complete_assignment)
    ] = [],  # noqa: B006
    wildcards: Annotated[Optional[int], typer.Option("--wildcards", "-w", help="WILDCARDs in the deck (rummy-2m: 0-2, only when the game is created; Simple Rummy: per session, S2).")] = None,
    cards: Annotated[Optional[int], typer.Option("--cards", help="Simple Rummy: cards dealt to each player (S1).")] = None,
    variation: Annotated[list[str], typer.Option("--variation", "-V", metavar="NAME", help="Simple Rummy: a variation in force (major, minor, go-out, sequences, three-card-draw, four-sevens, spread-out). Repeatable.", autocompletion=complete_variation)] = [],  # noqa: B006
    first_dealer: Annotated[list[str], typer.Option("--first-dealer", metavar='"NAME=CARDS"', help="Simple Rummy: the cards NAME turned up to choose the first dealer (S3). Repeat per player.")] = [],  # noqa: B006
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Open a session: a Rummy Night (seating dibs A2, deal order A3) or a Simple Rummy table (dealer, first player, variations)."""
    from rummyref.cli import render_record as r
    from rummyref.cli import simple_record as sr
    from rummyref.store.record import writing

    o = SessionOptions(game, players, ruleset, tuple(opening), wildcards, cards, tuple(variation), tuple(first_dealer))
    o.openings()  # an unreadable --opening is refused before the database is touched
    with writing(db_choice(db), create=True) as rec:
        simple, opened = open_session(rec, o)
    if simple:
        return sr.show_opened(opened, json_)
    print_json(r.opened_json(opened)) if json_ else r.show_opened(opened)


@dataclass(frozen=True)
class SessionOptions:
    """``new-session``'s options as typed (``ref night`` takes the same ones)."""

    game: Optional[str] = None
    players: Optional[str] = None
    ruleset: Optional[str] = None
    opening: Sequence[str] = ()
    wildcards: Optional[int] = None
    cards: Optional[int] = None
    variation: Sequence[str] = ()
    first_dealer: Sequence[str] = ()

    def names(self) -> Optional[list[str]]:
        return [n.strip() for n in self.players.split(",") if n.strip()] if self.players else None

    def openings(self) -> dict[str, int]:
        from rummyref.cli.facts import read_points, split_assignment

        pairs = [split_assignment(text, "--opening") for text in self.opening]
        return {name: read_points(value, name) for name, value in pairs}


def open_session(rec, o: SessionOptions):
    """Open a session in the caller's write transaction (creating the game on first use):
    ``(True, SessionOpened)`` for Simple Rummy, ``(False, NightOpened)`` for a Rummy Night."""
    from rummyref.cli import simple_record as sr
    from rummyref.store.simple import simple_target

    if o.game is not None and not o.game.strip():
        from rummyref.errors import UnreadableInput

        raise UnreadableInput("--game needs a name", hint="e.g. --game rummy-2m, or leave it out for the latest game")
    openings = o.openings()
    simple, name = simple_target(rec, o.game, o.ruleset)
    if simple:
        return True, sr.open_session(rec, name, o.ruleset, o.names(), openings, o.wildcards, o.cards,
                                     list(o.variation), list(o.first_dealer))
    sr.refuse_options("rummy-2m", "new-session", cards=o.cards, variation=o.variation, first_dealer=o.first_dealer)
    return False, rec.new_session(o.game, o.ruleset, o.names(), openings, o.wildcards)


def score_hand(
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    hand: HandOption = [],  # noqa: B006
    four_sevens: FourSevensOption = None,
    tie: TieOption = False,
    dropped: DroppedOption = [],  # noqa: B006
    dealer: Annotated[Optional[str], typer.Option("--dealer", help="Who dealt (checked against the deal order, A3 / S6).", autocompletion=complete_player)] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Record the next hand (rummy-2m) or game (Simple Rummy); print scores, or counts, winner and match."""
    from rummyref.cli import render_record as r
    from rummyref.cli import simple_record as sr
    from rummyref.record import resolve_name
    from rummyref.store.guard import expect
    from rummyref.store.record import writing

    db = db_choice(db)
    if sr.simple_game(db, game):
        sr.refuse_options("simple", "score-hand", melded=melded, held=held, claim=claim, points=points)
        return sr.show_game(sr.record_game(db, game, hand, out, four_sevens, tie, dropped, dealer), json_)
    sr.refuse_options("rummy-2m", "score-hand", hand=hand, four_sevens=four_sevens, tie=tie, dropped=dropped)
    seen, facts = _facts(db, game, _given(melded, held, out, claim, points))
    with writing(db) as rec:
        g = rec.game_row(seen.game)
        expect(rec, g, seen)  # the hand number is decided here, under the write lock
        domain = rec.game(g)
        who = resolve_name(dealer, domain.roster, g.name, domain.closed_roster) if dealer else None
        result = rec.record_hand(g, facts, who)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def end_session(game: GameOption = None, db: DbOption = None, json_: JsonOption = False) -> None:
    """Close the session: a Rummy Night only after full rounds (A4) or when the game is over (A7); Simple Rummy any time between games."""
    from rummyref.cli import render_record as r
    from rummyref.cli import simple_record as sr
    from rummyref.cli.verify import show_seal
    from rummyref.store import seal
    from rummyref.store.record import writing
    from rummyref.store.simple import SimpleRecord, is_simple_row

    with writing(db_choice(db)) as rec:
        g = rec.game_row(game)
        if is_simple_row(g):
            closed = SimpleRecord(rec).close_session(g)
        else:
            result = rec.close_night(g)
        code = seal.current(rec)  # the record's seal with this night closed
    if is_simple_row(g):
        return sr.show_closed(closed, json_, code)
    if json_:
        return print_json({**r.closed_json(result), "seal": code})
    r.show_closed(result)
    show_seal(code)


ReasonOption = Annotated[str, typer.Option("--reason", help="Why the record is corrected (kept in the history, B7).")]


def amend(
    hand: Annotated[int, typer.Argument(help="The hand number (as in ref history).")],
    reason: ReasonOption,
    game: GameOption = None,
    melded: MeldedOption = [],  # noqa: B006
    held: HeldOption = [],  # noqa: B006
    out: OutOption = None,
    claim: ClaimOption = [],  # noqa: B006
    points: PointsOption = [],  # noqa: B006
    hand_: HandOption = [],  # noqa: B006
    four_sevens: FourSevensOption = None,
    tie: TieOption = False,
    dropped: DroppedOption = [],  # noqa: B006
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Correct a recorded hand (or Simple Rummy game): a new entry with the right facts; the original stays in the history (B7)."""
    from rummyref.cli import render_record as r
    from rummyref.cli import simple_record as sr
    from rummyref.store.record import writing

    db = db_choice(db)
    if sr.simple_game(db, game):
        sr.refuse_options("simple", "amend", melded=melded, held=held, claim=claim, points=points)
        return sr.show_game(sr.amend_game(db, game, hand, hand_, out, four_sevens, tie, dropped, reason), json_)
    sr.refuse_options("rummy-2m", "amend", hand=hand_, four_sevens=four_sevens, tie=tie, dropped=dropped)
    from rummyref.store.guard import expect

    seen, facts = _facts(db, game, _given(melded, held, out, claim, points), hand)
    with writing(db) as rec:
        g = rec.game_row(seen.game)
        expect(rec, g, seen, hand)  # two amendments of one hand at once: the second is stale (exit 7)
        result = rec.amend(g, hand, facts, reason)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def void(
    hand: Annotated[int, typer.Argument(help="The hand number (as in ref history).")],
    reason: ReasonOption,
    game: GameOption = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Void a recorded hand (or Simple Rummy game): its result no longer counts; both stay in the history (B7)."""
    from rummyref.cli import render_record as r
    from rummyref.cli import simple_record as sr
    from rummyref.store.record import writing
    from rummyref.store.simple import is_simple_row

    with writing(db_choice(db)) as rec:
        g = rec.game_row(game)
        simple = is_simple_row(g)
        result = sr.void_game(rec, g.name, hand, reason) if simple else rec.void(g, hand, reason)
    if simple:
        return sr.show_game(result, json_)
    print_json(r.hand_json(result)) if json_ else r.show_hand(result)


def register(app: typer.Typer) -> None:
    app.command("new-session")(new_session)
    app.command("score-hand")(score_hand)
    app.command("end-session")(end_session)
    app.command("amend")(amend)
    app.command("void")(void)
