"""Showing a long game: a human table on the console the CLI passes in, or one JSON document.

The words come from the rule set: a session is a "Rummy Night" only where the house says so,
and a house rule is cited (A2, A3, A7) only where the house has it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from rummyref.errors import and_list, plural
from rummyref.games.base import again, round_completed
from rummyref.games.long.nights import seating_dibs
from rummyref.games.long.scoring import DECIDED_BY_DEFAULT, score_shown, score_to_json
from rummyref.names import shown
from rummyref.rules.ruleset import RuleSet, plural_word
from rummyref.wrap import Grid, echo, fill


def n(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def cited(rs: RuleSet, rule: str) -> str:
    """`` (A3)`` where the house cites the rule, else nothing."""
    return f" ({rule})" if rs.cite(rule) else ""


def over_cited(rs: RuleSet) -> str:
    """`` (A7)`` (the house's rule) or the rule set's own rule for a game that is over (500
    Rum's R3, ``scoring.rule``), else nothing."""
    rule = rs.cite("A7") or rs.over_rule
    return f" ({rule})" if rule else ""


def cap(word: str) -> str:
    """A word at the start of a sentence ("session" -> "Session"; "Rummy Night" stays)."""
    return word[:1].upper() + word[1:]


def this_session(rs: RuleSet) -> str:
    """ "tonight" for a night, else "this session"."""
    return "tonight" if rs.session_short == "night" else f"this {rs.session_short}"


def _dibs_lines(totals) -> list[str]:
    return [f"  {d.pick}. {d.name} ({n(dict(totals)[d.name])}): {d.seat}" for d in seating_dibs(totals)]


# -- new-session --------------------------------------------------------------------------


def opened_json(r) -> dict:
    g = r.game
    dibs = [asdict(d) for d in seating_dibs(r.totals)] if r.ruleset.house.seating_dibs else []
    return {
        "game": g.name,
        "ruleset": g.ruleset,
        "target": g.target,
        "wildcards": g.wildcards,
        "created": r.created,
        "night": r.number,
        "players": [{"name": p.name, "seat": p.seat, "opening": p.opening} for p in g.players],
        "totals": dict(r.totals),
        "dibs": dibs,
        "deal_order": list(g.roster),
        "first_dealer": r.first_dealer,
    }


def show_opened(r, out) -> None:
    g, rs = r.game, r.ruleset
    if r.created:
        out.print(f"New game {g.name} ({g.ruleset}, target {n(g.target)}, {plural(g.wildcards, 'WILDCARD')})", markup=False)
        for p in g.players:
            if p.opening:
                out.print(f"  opening balance (carried from paper): {p.name} {n(p.opening)}", markup=False)
    out.print(f"{cap(rs.session_word)} {r.number} of {g.name} is open.", markup=False)
    if rs.house.seating_dibs:
        out.print(f"Seating dibs{cited(rs, 'A2')}:", markup=False)
        for line in _dibs_lines(r.totals):
            out.print(line, markup=False)
    out.print(f"Deal order{cited(rs, 'A3')}: {', '.join(g.roster)}. {r.first_dealer} deals first.", markup=False)


# -- score-hand / amend / void ------------------------------------------------------------


def hand_json(r) -> dict:
    return {
        "game": r.game.name,
        "kind": r.kind,
        "entry": r.seq,
        "hand": r.hand,
        "night": r.night,
        "hand_in_night": r.hand_in_night,
        "dealer": r.dealer,
        **({"score": score_shown(score_to_json(r.score))} if r.score else {"score": None}),
        "totals": dict(r.totals),
        "next_dealer": r.round.next_dealer if r.round and not r.game.over else None,
        "round": asdict(r.round) if r.round else None,
        "over": r.game.over,
        "winner": r.game.winner,
        "tied": list(r.outcome.tied),
        "night_emptied": r.night_emptied,
        "night_not_full": dict(r.night_not_full) if r.night_not_full else None,
        "not_full_night": (r.not_full_night or r.night) if r.night_not_full else None,
        "reopened": bool(r.reopened),
    }


def show_hand(r, out) -> None:
    title = {"hand": "", "amend": " (amended)", "void": " (voided)"}[r.kind]
    rs = r.ruleset
    night = rs.session_word
    out.print(
        f"{rs.hand_title} {r.hand}{title} of {r.game.name}: {night} {r.night}, {rs.hand_word} {r.hand_in_night} of the "
        f"{rs.session_short}, "
        f"{r.dealer} dealt (entry {r.seq})",
        markup=False,
    )
    show_score(r.score, r.game.roster, dict(r.totals), out, r.ruleset)
    emptied(r, out)
    not_full(r, out)
    reopened(r, out)
    footer(r, out)


def reopened(r, out) -> None:
    """A correction after which the game is no longer over says so, and who leads now (A7)."""
    if not r.reopened:
        return
    totals = dict(r.totals)
    best = max(totals.values())
    leaders = [name for name in r.game.roster if totals[name] == best]
    lead = (f"{leaders[0]} leads with {n(best)}" if len(leaders) == 1 else
            f"{and_list(leaders)} lead with {n(best)}")
    echo(out, f"The game is no longer over{over_cited(r.ruleset)}: {r.reopened} no longer wins; {lead}, and "
              "the game goes on.")


def emptied(r, out) -> None:
    """A void that left its closed night with no hand in force says so (SPEC §8)."""
    if r.night_emptied:
        rs = r.ruleset
        out.print(f"{cap(rs.session_word)} {r.night} has no {rs.hand_word} in force now: it counts as no "
                  f"{rs.session_word} (not among the {rs.session_short}s played, nor the last one).", markup=False)


def not_full(r, out) -> None:
    """A void that left its closed night with rounds no longer full says so (A4, SPEC §8): the
    night is over, so nothing is refused, and nobody deals in it again."""
    if not r.night_not_full:
        return
    rs, dealt = r.ruleset, dict(r.night_not_full)
    low, high = min(dealt.values()), max(dealt.values())
    short = [n for n, k in dealt.items() if k == low]
    if all(k == high for k in dealt.values() if k != low):
        who = (f"{and_list(short)} {'has' if len(short) == 1 else 'have'} dealt {rs.hands(low)} in force, "
               f"the others {high}")
    else:
        who = f"{rs.hand_words} in force dealt: " + ", ".join(f"{n} {k}" for n, k in dealt.items())
    rule = f" ({rs.cite('A4')})" if rs.cite("A4") else ""
    still = "no longer" if r.night_was_full else "not"
    echo(out, f"{cap(rs.session_word)} {r.not_full_night or r.night} is closed with its rounds {still} full: "
              f"{who}{rule}.")


def show_score(score, roster, totals, out, rs: RuleSet) -> None:
    """A hand's scores (``None``: voided) with the totals they make, and the arrangement used
    (``ref score-hand`` after writing; ``ref night`` before asking to write)."""
    table = Grid(boxed=True).column("player", name=True)
    # where 80 columns are short (a 30-cell name, a total of -1,000,010,000) an empty column
    # of the points form goes, unsaid; the cards form's claimed, melded, held, said
    for col, spare in (("melded", 2), ("claimed", 1), ("held", 3), (rs.hand_word, 0), ("total", 0)):
        table.column(col, right=True, spare=spare)
    scores = {s.name: s for s in score.scores} if score else {}
    for name in roster:
        s = scores.get(name)
        if s is None:
            table.row(name, "", "", "", "void", n(totals[name]))
        elif score.form == "points":
            table.row(name, "", "", "", n(s.points), n(totals[name]))
        else:
            held = n(s.held) + (f" (W {s.wild_penalty})" if s.wild_penalty else "")
            table.row(name, n(s.melded), n(s.claimed), held, n(s.points), n(totals[name]))
    table.print(out)
    show_arrangement(score, out, rs)


def show_arrangement(score, out, rs: RuleSet, margin: str = "") -> None:
    """How the melded cards were counted: every meld with who laid which card and how it was
    decided, then each player's credits card by card, and the scorer's notes, in the rule
    set's words (``rs``: its ``run`` and ``match``; B5, run first, is cited for the cards its
    default put in a run only where its rulebook has B5). Wrapped to the console's width (80
    columns at most); ``margin`` goes before every line."""
    width = min(out.width, 80)
    b5 = rs.game_rule("B5") is not None

    def say(text: str, first: str = "  ", indent: str = "      ") -> None:
        _wrapped(out, text, width, margin + indent, margin + first)

    if score and score.arrangement:
        if not any(m.laid for m in score.arrangement):  # a 0.1 hand: no card-by-card record
            say("Arrangement used (as ref 0.1 counted it; its totals are history):", "", "  ")
            for m in score.arrangement:
                say(f"{m.shown}  [{rs.meld_note(m.note)}, {n(m.value)}] "
                    + ("designated" if m.designated else "0.1's choice"))
        else:
            claims = any(c.claimed for m in score.arrangement for c in m.laid)
            star = "; * won by a Rummy! claim" if claims else ""
            say(f"Arrangement used: each card with who laid it{star}", "", "  ")
            for m in score.arrangement:
                how = how_decided(m, rs, b5)
                say(f"{meld_line(m)}  [{rs.meld_note(m.note)}, {n(m.value)}]" + (f" {how}" if how else ""))
            say("Credits (each card where it sits, minus the cards held):", "", "  ")
            for ps in score.scores:
                say(credit_line(ps.name, score, ps, rs))
    for note in (score.notes if score else ()):
        say(f"Note: {note}", "", "  ")


def _wrapped(out, text: str, width: int, indent: str, first: str) -> None:
    out.print(fill(text, width, first, indent), markup=False, soft_wrap=True)


def meld_line(m) -> str:
    """``AD (Ben) 2D 3D 4D (Larry)``: the meld's cards in order, each run of one player's cards
    followed by the player's name."""
    parts: list[str] = []
    run: list[str] = []
    who = None
    for c in m.in_order():
        if c.by != who and run:
            parts.append(f"{' '.join(run)} ({shown(str(who))})")
            run = []
        who = c.by
        run.append(c.shown)
    if run:
        parts.append(f"{' '.join(run)} ({shown(str(who))})")
    return " ".join(parts)


def how_decided(m, rs: RuleSet, b5: bool = True) -> str:
    """How the meld came to be as shown: said by the table, B5's default (ref's runs-first
    default where the rulebook has no B5: ``b5`` false, or a meld decided ``default``), or the
    engine."""
    if not m.decided:  # written before ref said how (no reason kept)
        return "said by the table" if m.designated else ""
    parts = []
    said = [f"{m.stated}'s meld as laid with /"] if m.stated else []
    said += [f"{c.by}'s {c.typed}" for c in m.laid if c.said]
    if m.decided == "table":
        parts.append("said by the table" + (f" ({', '.join(said)})" if said else ""))
    if m.defaulted:
        who = ", ".join(m.defaulted)
        first = f"{rs.meld_words('run')} first"
        why = first if m.decided == DECIDED_BY_DEFAULT or not b5 else f"{first}, B5"
        parts.append(f"{who}: by default ({why})" if m.decided == "table" else f"by default ({why}): {who}")
    if m.decided == "engine":
        parts.append("arranged by ref (the engine)")
    ref_wild = [c for c in m.laid if c.card == "W" and c.counts_as != "W" and "=" not in c.typed]
    if ref_wild and m.decided != "engine" and m.kind == "sequence":
        parts.append(", ".join(f"{c.by}'s {c.shown}" for c in ref_wild) + " read by ref")
    return "; ".join(parts)


def credit_line(name: str, score, ps, rs: RuleSet) -> str:
    """``Ben: AD 1 (run AD 2D 3D 4D) - KS 10 held = -9``: what the player laid, by meld, with
    its value where it sits, less the cards held; ``= points`` is the hand's score."""
    terms = []
    for m in score.arrangement:
        mine = [c for c in m.laid if c.by == name]
        if mine:
            terms.append(f"{' '.join(c.shown for c in mine)} {n(sum(c.value for c in mine))} "
                         f"({rs.meld_word(m.kind_word())} {m.cards_shown()})")
    text = f"{shown(name)}: " + (" + ".join(terms) if terms else "nothing laid")
    if ps.held:
        cards = " ".join(ps.held_cards) or "cards"
        text += f" - {cards} {n(ps.held)} held"
    return f"{text} = {n(ps.points)}"


def show_change(game, before: Mapping[str, int], totals: Mapping[str, int], r, out) -> None:
    """A correction before it is written: each player's hand score and total, before -> after,
    and what it does to the end of the game (A7). ``before``: the hand's points as in force;
    ``totals``: the totals now; ``r``: the correction as adjudicated (a HandRecorded)."""
    rs = r.ruleset
    what = "voided" if r.score is None else "amended"
    out.print(f"{rs.hand_title} {r.hand}, {what}, if recorded (before -> after):", markup=False)
    after = r.score.points() if r.score else {}
    now = dict(r.totals)
    table = Grid().column("player", name=True)
    for col in (f"{rs.hand_word} was", "", "now", "total was", "", "now"):
        table.column(col, right=col != "")
    for name in game.roster:
        new = n(after[name]) if name in after else "void"
        table.row(name, n(before.get(name)), "->", new, n(totals[name]), "->", n(now[name]))
    table.print(out)
    show_arrangement(r.score, out, rs)
    if r.game.over and (not game.over or game.winner != r.game.winner):
        out.print(f"The game would be over{over_cited(rs)}: {r.game.winner} wins with {n(now[r.game.winner])}.",
                  markup=False)
    elif game.over and not r.game.over:
        out.print(f"The game would no longer be over{over_cited(rs)}: play goes on.", markup=False)
    emptied(r, out)  # what the void would do to its closed night (``ref night``'s void N asks first)
    not_full(r, out)


def footer(r, out, end: str = "ref end-session") -> None:
    """What comes next: game over (A7), a tie past the target, the next dealer or the end of a round."""
    g, rs = r.game, r.ruleset
    a7 = over_cited(rs)
    if g.over:
        out.print(f"GAME OVER{a7}: {g.winner} wins with {n(dict(r.totals)[g.winner])}.", markup=False)
        more = again(g, rs)  # its players and WILDCARDs where not the rule set's own, too
        if not r.night_open:  # a correction after the last night closed: no night to end
            out.print(f"A new game: ref new-session --game NEW-NAME{more}.", markup=False)
        elif rs.again:  # another rule set's game: its --ruleset, or the new game would be the default's
            out.print(f"The {rs.session_short} may end now: {end}.", markup=False)
            out.print(f"A new game: ref new-session --game NEW-NAME{more}.", markup=False)
        else:
            out.print(f"The {rs.session_short} may end now: {end}. A new game: ref new-session --game NEW-NAME{more}.",
                      markup=False)
        return
    if r.outcome.tied:
        out.print(f"{level(r.outcome.tied, dict(r.totals), g.target)}: play goes on {rs.hand_word} by {rs.hand_word}{a7}.", markup=False)
    if r.round is None:
        return
    if r.round.mid_round:
        where = (f" ({rs.hand_word} {r.round.in_round + 1} of round {r.round.rounds + 1})"
                 if r.round.in_round < len(g.roster) and len(set(r.round.still_to_deal)) == len(r.round.still_to_deal)
                 else f" (round {round_completed(r.round.hands, r.round.still_to_deal, len(g.roster))})")
        out.print(f"Next: {r.round.next_dealer} deals{where}.", markup=False)
    elif r.round.hands == 0:  # every hand voided: nothing to complete (SPEC §8)
        out.print(f"No {rs.hand_word} counts {this_session(rs)}: the {rs.session_short} may end as abandoned ({end}).",
                  markup=False)
        out.print(f"Next: {r.round.next_dealer} deals.", markup=False)
    else:
        out.print(
            f"Round {r.round.rounds} complete. Next: {r.round.next_dealer} deals, or the {rs.session_short} may end ({end}).",
            markup=False,
        )


# -- end-session --------------------------------------------------------------------------


def closed_json(r) -> dict:
    return {
        "game": r.game.name,
        "night": r.number,
        "hands": r.hands,
        "voided": r.voided,
        "rounds": r.rounds,
        "points": dict(r.points),
        "totals": dict(r.totals),
        "winners": list(r.winners),
        "ended_early_game_over": r.early,
        "abandoned": r.abandoned,
    }


def show_closed(r, out) -> None:
    """The night's summary: hands and rounds, its winner, each player's night and game total
    (best night first; equal nights in deal order)."""
    rs = r.ruleset
    early = f" (ended mid-round: the game is over{', A7' if rs.cite('A7') else ''})" if r.early else ""
    voided = f" ({rs.hands(r.voided)} voided)" if r.voided else ""
    out.print(
        f"{cap(rs.session_word)} {r.number} of {r.game.name} is closed: {rs.hands(r.hands)}, "
        f"{plural(r.rounds, 'full round')}{early}{voided}.",
        markup=False,
    )
    if r.abandoned:
        out.print(f"No {rs.hand_word} counted: the {rs.session_short} is closed as abandoned and does not count as a "
                  f"{rs.session_word}.", markup=False)
        return
    if r.winners:
        out.print(f"{cap(rs.session_short)}'s winner: {and_list(r.winners)}.", markup=False)
    totals = dict(r.totals)
    table = Grid().column("player", name=True).column(rs.session_short, right=True).column("total", right=True)
    order = sorted(range(len(r.points)), key=lambda i: (-r.points[i][1], i))
    for name, pts in (r.points[i] for i in order):
        table.row(name, n(pts), n(totals.get(name)))
    table.print(out)


# -- standings ------------------------------------------------------------------------------

BAR = 20


def _n(value) -> str:
    if value is None:
        return "-"
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def _bar(progress: float | None) -> str:
    if progress is None:
        return ""
    full, percent = int(round(progress * BAR)), progress * 100
    if progress < 1:  # a full bar, and 100.0%, mean the target is reached: short of it, never shown so
        full, percent = min(full, BAR - 1), min(percent, 99.9)
    return "█" * full + "░" * (BAR - full) + f" {percent:5.1f}%"


def _percent(bar: str) -> str:
    """The progress column without its bar (``99.9%``), where 80 columns are short."""
    return bar.split(" ")[-1] if bar else bar


def level(tied: Sequence[str], totals: Mapping[str, int], target: int | None) -> str:
    """``Bill and Ben are level past the target``; once a hand after the tie has taken them
    both below it, still level: the game ends when one leads alone, whatever the totals (A7)."""
    names = and_list(tied)
    if target is not None and all(totals.get(name, 0) >= target for name in tied):
        return f"{names} are level past the target"
    return f"{names} are still level after their tie past the target"


def show_standings(st, out) -> None:
    rs = st.rules
    night = rs.session_word
    head = f"{st.game} ({st.ruleset}), target {_n(st.target)}: {rs.hands(st.hands)} over {plural(st.nights, night)}"
    out.print(head, markup=False)
    if st.over:
        out.print(f"GAME OVER{over_cited(rs)}: {st.winner} wins.", markup=False)
    elif st.tied_leaders:
        totals = {row.name: row.total for row in st.players}
        out.print(f"{level(st.tied_leaders, totals, st.target)}: play goes on{over_cited(rs)}.", markup=False)
    race = (Grid().column("#", right=True).column("player", name=True).column("total", right=True)
            .column("to go", right=True).column("progress", spare=1, short=_percent)
            .column(rs.hand_words, right=True, spare=3).column(f"avg/{rs.hand_word}", right=True, spare=2))
    for p in st.players:
        race.row(str(p.rank), p.name, _n(p.total), _n(p.to_go), _bar(p.progress), _n(p.hands), _n(p.average))
    race.print(out)
    for p in st.players:
        if p.opening:
            out.print(f"  {p.name}'s total includes an opening balance of {_n(p.opening)} (carried from paper)", markup=False)
    # in the rule set's words (500 Rum: a session); the date only where the house meets weekly (A5):
    # the projection counts one session a week, which no other table promises
    sitting, weekly = rs.session_short, rs.house.weekly
    pace = (Grid().column("player", name=True).column(f"pace/{sitting}", right=True)
            .column(f"{plural_word(sitting)} to go", right=True, spare=2))
    if weekly:
        pace.column("target date")
    pace = (pace.column("best", right=True, spare=3).column("worst", right=True, spare=4)
            .column(f"{plural_word(sitting)} won", right=True, spare=1))
    for p in st.players:
        date = (p.projected_date or "-",) if weekly else ()
        pace.row(p.name, _n(p.pace_per_night), _n(p.nights_to_go), *date, _n(p.best), _n(p.worst), _n(p.nights_won))
    pace.print(out)
    if rs.house.seating_dibs:
        out.print(f"Seating dibs{cited(rs, 'A2')}: " + "; ".join(f"{d.name} {d.seat}" for d in st.dibs), markup=False)
    if st.days_since_last_night is not None:
        flag = f"  ** over a week: {night} is overdue{cited(rs, 'A5')} **" if st.overdue and rs.house.weekly else ""
        out.print(f"Last {night}: {st.last_night} ({plural(st.days_since_last_night, 'day')} ago){flag}", markup=False)
    if st.open_night:
        deal = f": {st.next_dealer} deals the next {rs.hand_word}{cited(rs, 'A3')}" if st.next_dealer else ""
        out.print(f"{cap(night)} {st.open_night} is open{deal}.", markup=False)
    elif st.next_dealer:
        out.print(f"Next {night}: {st.next_dealer} deals first{cited(rs, 'A3')}.", markup=False)
    if st.over and st.new_game:  # what comes next, as the hand that ended the game said it (A7)
        if st.open_night:
            out.print(f"The {rs.session_short} may end now: ref end-session.", markup=False)
        out.print(f"A new game: {st.new_game}.", markup=False)
    if st.recent_nights:
        out.print(f"Recent {rs.session_short}s:", markup=False)
        night_ = rs.session_short
        for n_ in st.recent_nights:
            who = and_list(map(shown, n_.winners)) if n_.winners else (f"({night_} in progress)" if not n_.closed else "-")
            pts = ", ".join(f"{shown(p)} {_n(v)}" for p, v in n_.points)
            echo(out, f"{night_} {n_.number} ({n_.date}, {rs.hands(n_.hands)}): winner {who}; {pts}",
                 indent="  ", hang="    ")




# -- history -------------------------------------------------------------------------------


def history_lines(facts: Mapping[str, Any], results: Sequence[tuple[str, int]], roster: Sequence[str], out,
                  rs: RuleSet, arranged: bool = True) -> None:
    """One hand of a long game in ``ref history``: the arrangement credited when the hand was
    written (who laid each card, card by card: :func:`show_arrangement`), else (or with
    ``arranged`` false: a hand to correct) each player's melds and held cards as typed; then
    the scores. ``rs``: the game's rule set (B5 is cited only where its rulebook has it)."""
    cards = facts.get("form") == "cards"
    kept = facts.get("score") or {}
    if arranged and cards and any(m.get("laid") for m in kept.get("arrangement", ())):
        from rummyref.games.long.scoring import score_from_json

        held = {name: p.get("held", ()) for name, p in facts["players"].items()}
        show_arrangement(score_from_json(kept, held), out, rs, margin="    ")
        if facts.get("out"):
            out.print(f"    {facts['out']} went out", markup=False)
    elif cards:
        for name in roster:
            p = facts["players"].get(name)
            if p is None:
                continue
            melded = " / ".join(" ".join(m) for m in p["melded"]) or "-"
            if p.get("designated") and len(p["melded"]) == 1:  # one group stated: laid off (QC KC /)
                melded += " /"
            held_ = " ".join(p["held"]) or "-"
            echo(out, f"{name}: melded {melded}; held {held_}", indent="    ", hang="      ")
        extra = []
        if facts.get("out"):
            extra.append(f"{facts['out']} went out")
        extra += [f"{who} claimed {c} (Rummy!)" for who, c in facts.get("claims", [])]
        if extra:
            echo(out, "; ".join(extra), indent="    ", hang="      ")
    if results:  # a long line goes on under its first word, as every wrapped line of the history does
        echo(out, "scores: " + ", ".join(f"{who} {_n(v)}" for who, v in results), indent="    ",
             hang="      ")


def session_totals(rs: RuleSet, number: int, hands: int, points, out) -> None:
    """A session's totals under its history: the hands that count, each player's points."""
    best = max((v for _, v in points), default=0)
    top = and_list(p for p, v in points if v == best) if hands else ""
    pts = ", ".join(f"{p} {_n(v)}" for p, v in points)
    out.print(f"{cap(rs.session_word)} {number}: {rs.hands(hands)}; {pts}"
              + (f" (best: {top})" if top else "") + ".", markup=False)


def short_standings(st, out) -> None:
    """The short standings ``ref night`` shows after each hand: rank, total, to go, progress, tonight."""
    tonight = dict(next((s.points for s in st.recent_nights if s.number == st.open_night), ()))
    grid = (Grid().column("#", right=True).column("player", name=True).column("total", right=True)
            .column("to go", right=True).column("progress", spare=1, short=_percent).column("tonight", right=True))
    for p in st.players:
        grid.row(str(p.rank), p.name, _n(p.total), _n(p.to_go), _bar(p.progress), _n(tonight.get(p.name)))
    out.print("Standings:", markup=False)
    grid.print(out)
