"""``ref dispute ...``: disputes settled from the facts, with the chain of rules that decided them.

The reasoning lives in :mod:`rummyref.disputes.engine`; these commands read the facts,
call it, and print the verdict (or ``--json``). A verdict that something is not
allowed is still an answer: the exit code is 0 unless the facts cannot be read.

A dispute is decided by the game it means (SPEC §8, as every command chooses it: the one with
a session open, of several the one whose roster has the names given, else the one played last):
its rule set and roster, unless ``--ruleset`` or ``--players`` say otherwise; with no record,
Rummy 2,000,000's. While that game's session is open, a ruling that settled something is kept
as a precedent of it, and any ruling with ``--record`` (see :mod:`rummyref.cli.settle`); the
earlier rulings of the same dispute are shown beside it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from rummyref.bounds import HANDS_PLAYED
from rummyref.cli.common import DbOption, JsonOption, RulesetOption
from rummyref.cli.completion import complete_table_player, complete_table_player_list
from rummyref.cli.numbers import bounded
from rummyref.cli.settle import NightGameOption, NoRecordOption, same_rules, settle
from rummyref.names import shown

if TYPE_CHECKING:
    from rummyref.rules.ruleset import RuleSet

dispute_app = typer.Typer(
    name="dispute",
    help="Settle a dispute from the facts: a Rummy! claim, run or match, a pick-up, a discard, ending the night.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


def register(app: typer.Typer) -> None:
    app.add_typer(dispute_app, name="dispute")


PlayersOption = Annotated[
    Optional[str],
    typer.Option("--players", "-p", metavar="A,B,C", help="The players at the table, in deal order (default: the game's roster; with no record, the rule set's default players: Bill,Ben,Larry in rummy-2m).", autocompletion=complete_table_player_list),
]
TableOption = Annotated[
    Optional[list[str]],
    typer.Option("--table", "-t", metavar="CARDS", help="A meld on the table (repeat for each, or separate melds with /)."),
]


def _ruleset(name: str | None, table: Any = None):
    """--ruleset, else the rule set kept with the game meant (open, else played last), else
    rummy-2m. A file named like the game's rule set but with other rules is another rule set
    (:func:`~rummyref.cli.settle.same_rules`): its values rule, as in ``ref count``."""
    from rummyref.rules.ruleset import load_ruleset

    if table is not None and same_rules(name, table):
        return _as_dealt(table)  # the game's own rule set, named or not: its deck (SPEC §2)
    return load_ruleset(name or "rummy-2m")


def _as_dealt(table: Any):
    """The rule set of the game meant, with no more WILDCARDs than its deck holds (SPEC §2): a
    long game's number fixed at new-session, an open Simple Rummy session's (S2). A card of
    the dispute's facts past that is a record one deck cannot hold (exit 3)."""
    import json
    from dataclasses import replace

    rs = table.ruleset
    row = getattr(table, "_session_row", None)
    options = json.loads(row.options or "{}") if row is not None else {}
    limit = int(options["wildcards"]) if "wildcards" in options else table.game.wildcards
    if limit >= rs.wild_limit:
        return rs
    return replace(rs, wild_max=limit, variations=tuple(
        replace(v, wildcards_max=min(v.wildcards_max, limit)) if v.wildcards_max is not None else v
        for v in rs.variations))


def _players(text: str | None, ruleset_name: str | None, table: Any = None, in_order: bool = False,
             kept: bool = True) -> list[str]:
    """--players, else the roster of the game meant (open, else played last), else the rule set's
    default players. Each name is checked as ``new-session`` checks it (an empty name, two
    alike, a name ``>NAME`` could not reach: exit 3). At an open session of a game with a
    closed roster (A1), ruled by its own rule set (so the ruling may be kept as its
    precedent; ``kept``: not ``--no-record``, a question asked aside), ``--players`` must name that roster: a name not on it is refused with a
    "did you mean" (A1, exit 4), so is a player left out, and with ``in_order`` (the deal
    order, A3) another order. The roster's spellings are used."""
    from rummyref.cli.record import roster_names
    from rummyref.names import check_newcomers, check_roster

    if text is None:
        if table is not None:
            return list(table.roster)
        return list(_ruleset(ruleset_name).default_players)
    names = list(check_roster(roster_names(text)))
    if kept and _closed_table(ruleset_name, table):
        return _the_roster(names, table, in_order)
    check_newcomers(names)
    return names


def _closed_table(ruleset_name: str | None, table: Any) -> bool:
    """Whether ``table`` is an open session of a game with a closed roster (A1) and the dispute
    is ruled by that game's rule set: the players at the table are its roster."""
    from rummyref.disputes.engine import rule_ids

    if getattr(table, "_session_row", None) is None:
        return False
    return same_rules(ruleset_name, table) and "A1" in rule_ids(table.ruleset)


def _the_roster(names: list[str], table: Any, in_order: bool) -> list[str]:
    from rummyref.errors import RuleRefusal
    from rummyref.names import resolve_name

    roster = list(table.roster)
    game = shown(table.game.name)
    found = [resolve_name(n, roster, game) for n in names]
    missing = [n for n in roster if n not in found]
    if missing:
        raise RuleRefusal(
            f"--players leaves out {', '.join(missing)}: every player of {game} is at its table",
            rule="A1", hint=f"--players {','.join(roster)} (or leave --players out: the roster is the default)")
    if in_order and found != roster:
        raise RuleRefusal(
            f"--players {','.join(found)} is not the deal order of {game} ({', '.join(roster)})",
            rule="A3", hint=f"the deal always passes in the roster's order: --players {','.join(roster)}")
    return roster


@dispute_app.command(
    "claim",
    help="""Who wins a Rummy! card (rules B8, B11).

List who called "Rummy!" and who touched the card, each in the order it happened;
join players who acted at the same moment with =. The house chain: no call and touch,
no claim; the first to complete both wins (B8); completed together, the first touch
wins (B11); touches simultaneous too, the player not claiming judges (B8). Facts that
cannot all be true, and a judgment where there is no tie, are refused (exit 3). A rule set
without B8 (Simple Rummy, Gin) has no claim dispute (exit 5).

Examples:

\b
  ref dispute claim --called Bill,Ben --touched Bill,Ben

\b
  ref dispute claim --called "Bill=Ben" --touched "Ben,Bill"

\b
  ref dispute claim --called Bill=Ben --touched Bill=Ben --judge-says Ben
""",
)
def claim(
    called: Annotated[str, typer.Option("--called", "-c", metavar="ORDER", help='Who called "Rummy!", in order: "Bill,Ben"; "Bill=Ben" = together.')],
    touched: Annotated[str, typer.Option("--touched", metavar="ORDER", help="Who touched the card, in order (= for together).")] = "",
    completed: Annotated[
        str, typer.Option("--completed", metavar="ORDER", help="Who completed both first, when the two orders do not tell (it must agree with them).")
    ] = "",
    players: PlayersOption = None,
    judge_says: Annotated[Optional[str], typer.Option("--judge-says", metavar="NAME", help="The non-claiming player's judgment on a true tie (refused where there is none).", autocompletion=complete_table_player)] = None,
    table_decides: Annotated[Optional[str], typer.Option("--table-decides", metavar="NAME", help="The table's decision on a true tie when every player claims.", autocompletion=complete_table_player)] = None,
    ruleset: RulesetOption = None,
    game: NightGameOption = None,
    db: DbOption = None,
    no_record: NoRecordOption = None,
    as_json: JsonOption = False,
) -> None:
    from rummyref.disputes.engine import Dispute, check_order, check_rules, claim_ruling, order_names, parse_order

    def decide(table):
        rules = _ruleset(ruleset, table)
        check_rules(Dispute.CLAIM, rules)  # before the names: a rule set with no B8 has no claim to read
        roster = _players(players, ruleset, table, kept=no_record is not False)
        return claim_ruling(
            roster,
            parse_order(called, roster, "--called"),
            parse_order(touched, roster, "--touched"),
            parse_order(completed, roster, "--completed"),
            judge_says=judge_says,
            table_decides=table_decides,
            ruleset=rules,
        )

    for text, what in ((called, "--called"), (touched, "--touched"), (completed, "--completed")):
        check_order(text, what)  # an empty place is refused before the record is opened
    named = order_names(players, called, touched, completed, judge_says, table_decides)
    settle(decide, game=game, db=db, no_record=no_record, as_json=as_json, names=named, ruleset=ruleset)


@dispute_app.command(
    "designate",
    help="""Run or match: where a card counts when it fits both (rules B5, B6).

Shows the table melds the card can join, the default when nothing was said (the run),
what the choice changes in the score, and the sideways card that cuts the run off.

Examples:

\b
  ref dispute designate 3D --table "4D 5D 6D" --table "3S 3H 3C"

\b
  ref dispute designate AD --table "2D 3D 4D / AS AH AC" --as match
""",
)
def designate(
    card: Annotated[str, typer.Argument(metavar="CARD", help="The card played, e.g. 3D.")],
    table: TableOption = None,
    as_: Annotated[Optional[str], typer.Option("--as", metavar="run|match", help="What the player designated (default: nothing said).")] = None,
    ruleset: RulesetOption = None,
    game: NightGameOption = None,
    db: DbOption = None,
    no_record: NoRecordOption = None,
    as_json: JsonOption = False,
) -> None:
    from rummyref.disputes.engine import designate_ruling, read_card, read_table
    from rummyref.errors import UnreadableInput

    if as_ is not None and not as_.strip():
        raise UnreadableInput("--as: empty", hint="use --as run or --as match (or the rule set's own words)")
    the_card, melds = read_card(card, "CARD"), read_table(table or [])
    used: list[RuleSet] = []  #: the rule set the ruling was made by: its words name the melds

    def judge(t):
        rs = _ruleset(ruleset, t)
        used.append(rs)
        return designate_ruling(the_card, melds, rs, _designated(as_, rs))

    def extra(result, _table) -> list[str]:
        lines = ["Can join:"] if result.details.get("options") else []
        word = used[-1].meld_word
        return lines + [f"  the {word(o['kind'])} {o['meld']} -> {o['becomes']} ({o['value']})"
                        for o in result.details.get("options", [])]

    settle(judge, game=game, db=db, no_record=no_record, as_json=as_json, extra=extra, ruleset=ruleset)


def _designated(as_: str | None, rs: RuleSet) -> str | None:
    """``--as``: ref's ``run`` or ``match``, or the rule set's own word for either (a house's
    ``--as straight``); the ruling keeps ref's word."""
    from rummyref.errors import UnreadableInput

    if as_ is None:
        return None
    said = as_.strip().lower()
    for kind in ("run", "match"):
        if said in (kind, rs.meld_word(kind).lower()):
            return kind
    run, match = rs.meld_word("run"), rs.meld_word("match")
    raise UnreadableInput(f"--as: {as_!r} is neither {run} nor {match}", hint=f"use --as {run} or --as {match}")


@dispute_app.command(
    "pickup",
    help="""Is a pick-up from the Rummy Line legal (rule B4)?

The card taken (the deepest one, when several were taken) must be used at once with
at least one card from the taker's own hand: in a new meld, or laid off with it on a
meld on the table. Lists every legal use, most points first.

Examples:

\b
  ref dispute pickup 7H --hand "7S 7D KC 2C"

\b
  ref dispute pickup 7H --hand "8H 2C" --table "9H 10H JH"
""",
)
def pickup(
    card: Annotated[str, typer.Argument(metavar="CARD", help="The card taken from the Rummy Line.")],
    hand: Annotated[str, typer.Option("--hand", metavar="CARDS", help="The taker's own hand (without the card taken).")],
    table: TableOption = None,
    ruleset: RulesetOption = None,
    game: NightGameOption = None,
    db: DbOption = None,
    no_record: NoRecordOption = None,
    as_json: JsonOption = False,
) -> None:
    from rummyref.cards import read_cards_of
    from rummyref.disputes.engine import pickup_ruling, read_card, read_table
    from rummyref.errors import UnreadableInput

    the_card, cards, melds = read_card(card, "CARD"), read_cards_of(hand, "in --hand"), read_table(table or [])
    if not cards:  # "--hand ''" is refused as given empty; ",," is no hand either
        raise UnreadableInput(f"--hand {hand!r}: no card in it, only separators",
                              hint='give the taker\'s own cards, e.g. --hand "7S 7D KC"')

    def extra(result, _table) -> list[str]:
        uses = result.details.get("uses", [])
        lines = []
        if len(uses) > 1:
            lines.append(f"Legal uses ({result.details['uses_found']}, most points first):")
            for u in uses[:10]:
                where = f" on {u['on']}" if u["on"] else ""
                lines.append(f"  {u['how']}{where}: {u['meld']}  (from hand: {u['from_hand']}; {u['value']} points)")
            if result.details["uses_found"] > 10:
                lines.append(f"  ... and {result.details['uses_found'] - 10} more (--json lists up to 40)")
        return lines

    settle(
        lambda t: pickup_ruling(the_card, cards, melds, _ruleset(ruleset, t)),
        game=game, db=db, no_record=no_record, as_json=as_json, extra=extra, ruleset=ruleset,
    )  # fmt: skip


@dispute_app.command(
    "discard",
    help="""May the turn (and the game) end with this discard (rule B3)?

A turn ends only with a discard; a card taken from the top of the Rummy Line may not be
thrown straight back to end the game; a Rummy! card must be discarded, not held.

Examples:

\b
  ref dispute discard --took 7H --discarded 7H --going-out

\b
  ref dispute discard --took 7H --discarded KS --table "QS JS 10S"
""",
)
def discard(
    took: Annotated[Optional[str], typer.Option("--took", metavar="CARD", help="The card taken from the top of the Rummy Line this turn.")] = None,
    discarded: Annotated[Optional[str], typer.Option("--discarded", metavar="CARD", help="The card discarded (leave out: no discard).")] = None,
    going_out: Annotated[bool, typer.Option("--going-out", help="The discard is the player's last card.")] = False,
    table: TableOption = None,
    ruleset: RulesetOption = None,
    game: NightGameOption = None,
    db: DbOption = None,
    no_record: NoRecordOption = None,
    as_json: JsonOption = False,
) -> None:
    from rummyref.disputes.engine import discard_ruling, read_card, read_table

    taken = read_card(took, "--took") if took else None
    thrown = read_card(discarded, "--discarded") if discarded else None
    melds = read_table(table or [])
    settle(
        lambda t: discard_ruling(taken, thrown, going_out, melds, _ruleset(ruleset, t)),
        game=game, db=db, no_record=no_record, as_json=as_json, ruleset=ruleset,
    )  # fmt: skip


@dispute_app.command(
    "end-night",
    help="""May the Rummy Night end now (rules A4, A7)?

Without --hands: from the open Rummy Night in the record (its roster in deal order,
the hands dealt tonight, whether the game is over), as ref end-session would act.
With --hands: from the facts given, no record needed. Mid-round, names who still has
to deal, in deal order. A rule set with no full-round rule (Simple Rummy, Gin, 500 Rum)
may end its session after any hand.

Examples:

\b
  ref dispute end-night

\b
  ref dispute end-night --game rummy-2m --json

\b
  ref dispute end-night --players Bill,Ben,Larry --hands 4

\b
  ref dispute end-night --hands 5 --game-over
""",
)
def end_night(
    hands: Annotated[Optional[int], typer.Option("--hands", "-n", metavar="N", parser=bounded(HANDS_PLAYED, "--hands"), help="Hands played in this session so far (default: read from the open Rummy Night).")] = None,
    players: PlayersOption = None,
    game_over: Annotated[bool, typer.Option("--game-over", help="With --hands: the game is over (A7). A player past the target is not enough: level leaders there play on.")] = False,
    first_dealer: Annotated[Optional[str], typer.Option("--first-dealer", metavar="NAME", help="With --hands: who dealt the session's first hand (default: the first player).", autocompletion=complete_table_player)] = None,
    ruleset: RulesetOption = None,
    game: NightGameOption = None,
    db: DbOption = None,
    no_record: NoRecordOption = None,
    as_json: JsonOption = False,
) -> None:
    from rummyref.disputes.engine import end_night_ruling, order_names
    from rummyref.errors import UnreadableInput, plural
    from rummyref.games.registry import kind_for

    if hands is not None:
        settle(
            lambda t: end_night_ruling(_players(players, ruleset, t, in_order=True, kept=no_record is not False), hands, game_over, first_dealer, _ruleset(ruleset, t)),
            game=game, db=db, no_record=no_record, as_json=as_json, names=order_names(players, first_dealer),
            ruleset=ruleset,
        )  # fmt: skip
        return
    given = [o for o, v in (("--players", players), ("--game-over", game_over), ("--first-dealer", first_dealer)) if v]
    if given:
        raise UnreadableInput(
            f"{', '.join(given)} go{'es' if len(given) == 1 else ''} with --hands N (the facts form)",
            hint="without --hands the roster, the hands and the game's end come from the open Rummy Night",
        )

    def from_the_record(_result, table) -> list[str]:
        rs = table.ruleset
        word = kind_for(rs).hand_word(rs)
        when = "tonight" if rs.session_short == "night" else f"in this {rs.session_short}"
        # counted as A3 counts them: the hands in force, and after a void the hands dealt too
        dealt = sum(1 for step, _ in table.session_log if step == "hand")
        voided = sum(1 for step, _ in table.session_log if step == "void")
        count = (f"{plural(dealt, word)} dealt {when}" if not voided else
                 f"{plural(dealt - voided, word)} in force {when} ({dealt} dealt, {voided} voided)")
        return [f"From the record: {rs.session_word} {table.night} of {shown(table.game.name)}, "
                f"{count}" + (", the game is over." if table.game.over else ".")]  # fmt: skip

    settle(
        lambda t: end_night_ruling(t.roster, t.hands_dealt, t.game.over, ruleset=_ruleset(ruleset, t),
                                   log=t.session_log),
        game=game, db=db, no_record=no_record, as_json=as_json, extra=from_the_record, ruleset=ruleset,
        need_table="or give the facts instead: ref dispute end-night --hands N [--players A,B,C]",
    )  # fmt: skip
