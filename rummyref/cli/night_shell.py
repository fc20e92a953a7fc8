"""The loop of ``ref night``: the terminal (line reading, ``?`` rulings and ``!`` disputes at
any prompt), the night as it stands in the record, one hand from questions to the write.

Every write is its own transaction through the store's ``writing``; between writes the
record is consistent, so Ctrl-C or the end of input loses at most the hand being typed.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from typing import Any

from rummyref.cli import render_record as r
from rummyref.cli import simple_record as sr
from rummyref.cli.common import err, out, say, show_error
from rummyref.cli.night_forms import CardsForm, Form, PointsForm, SimpleForm, read_confirm, read_fix
from rummyref.cli.record import SessionOptions, open_session
from rummyref.errors import RummyrefError, UnreadableInput

HELP = """At any prompt:
  ? TEXT                 a ruling from the rulebook, e.g. ? pizza's here
  ! DISPUTE ARGS         settle a dispute, as ref dispute does (kept as a precedent of the night),
                         e.g. ! claim --called Bill=Ben --touched Ben,Bill   (! help lists them)
Between hands:
  Enter (or cards)       record the next hand by cards (Simple Rummy: the next game)
  points                 record the next hand as each player's points
  standings              the standings
  history [all]          tonight's hands (all: the whole game)
  end                    end the night (only after full rounds, A4, or when the game is over, A7)
  quit                   leave the shell; the night stays open (ref night resumes it)
  help                   this text
While a hand is typed: a bad answer is asked again with what you typed; Ctrl-C discards only
that hand. Before it is written: Enter records it, 'fix NAME' (or fix out / claims / ending)
asks those answers again, 'drop' discards it."""


# -- the terminal -----------------------------------------------------------------------------


def _readline():
    """GNU readline when stdin is a terminal (line editing, history, answers offered back)."""
    if not sys.stdin.isatty():
        return None
    try:
        import readline
    except ImportError:  # pragma: no cover - platform without readline
        return None
    readline.parse_and_bind("set enable-bracketed-paste off")
    return readline


class Terminal:
    """Reads answers; ``? TEXT`` and ``! DISPUTE`` are answered here and the question asked again."""

    def __init__(self, game: str, db: str | None, book: str | None) -> None:
        self.game, self.db, self.book = game, db, book
        self.readline = _readline()

    def line(self, prompt: str, offered: str = "") -> str:
        while True:
            answer = self._read(prompt, offered)
            text = answer.strip()
            if text.startswith("?"):
                self.ruling(text[1:].strip())
            elif text.startswith("!"):
                self.dispute(text[1:].strip())
            else:
                return answer

    def ask(self, question: str, offered: str = "") -> str:
        """The :data:`rummyref.cli.facts.Ask` of the night's questions."""
        return self.line(question + ": ", offered)

    def _read(self, prompt: str, offered: str) -> str:
        rl = self.readline
        if offered and rl is not None:
            rl.set_pre_input_hook(lambda: (rl.insert_text(offered), rl.redisplay()))
        elif offered:
            say(f"  (you typed: {offered})")
        try:
            return input(prompt)
        finally:
            if rl is not None:
                rl.set_pre_input_hook(None)

    def ruling(self, text: str) -> None:
        from rummyref.cli.ruling import ruling

        if not text:
            say("ask it as: ? TEXT (e.g. ? pizza's here, or ? B7)")
            return
        guarded(lambda: ruling(text, ruleset=self.book, as_json=False))

    def dispute(self, text: str) -> None:
        import typer

        from rummyref.cli.dispute import dispute_app

        try:
            words = shlex.split(text)
        except ValueError as exc:
            say(f"error: cannot read the dispute: {exc}")
            return
        if not words or words[0] in ("help", "-h", "--help"):
            words = ["--help"]
        else:
            words = words[:1] + ["--game", self.game] + (["--db", self.db] if self.db else []) + words[1:]
        command = typer.main.get_command(dispute_app)
        guarded(lambda: command.main(words, prog_name="!", standalone_mode=False))


def guarded(action) -> Any:
    """Run a command inside the loop: its errors are shown as ``ref`` shows them, never fatal."""
    try:
        return action()
    except RummyrefError as exc:
        show_error(exc)
    except (KeyboardInterrupt, EOFError):
        raise
    except Exception as exc:  # noqa: BLE001 - the shell must survive a bad command line
        if hasattr(exc, "show") and "click" in type(exc).__module__:
            exc.show()
        else:
            from rummyref.cli.app import _is_click_exception

            if _is_click_exception(exc) and hasattr(exc, "show"):
                exc.show()
            else:
                err.print(f"internal error: {type(exc).__name__}: {exc}", markup=False, style="bold red")
    return None


# -- the night as it stands -------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """The open session, read afresh after every write."""

    name: str
    simple: bool
    night: int
    dealt: int  #: hands (games) dealt tonight
    next_hand: int  #: the next hand's number in the game
    dealer: str
    over: bool  #: the game is over (A7): no more hands
    game: Any = None  #: rummy-2m: the domain Game
    ruleset: Any = None
    totals: tuple = ()
    table: Any = None  #: Simple Rummy: the session's table
    first: str = ""  #: Simple Rummy: who plays first


def where(db: str | None, name: str) -> Where | None:
    """The open session of game ``name`` (None: it has been closed)."""
    from rummyref.games.long.nights import dealer_of
    from rummyref.store.record import reading
    from rummyref.store.simple import SimpleRecord, is_simple_row

    with reading(db) as rec:
        g = rec.game_row(name)
        s = rec.open_night_row(g.id)  # type: ignore[arg-type]
        if s is None:
            return None
        dealt = rec.hands_dealt(s.id)  # type: ignore[arg-type]
        nxt = int(rec.sql("SELECT COALESCE(MAX(hand), 0) FROM entry WHERE game_id = :g", g=g.id).scalar()) + 1
        if is_simple_row(g):
            simple = SimpleRecord(rec)
            table, first = simple.table_of(g, s), simple.fold(g).state.first_player  # type: ignore[union-attr]
            return Where(g.name, True, s.number, dealt, nxt, table.dealer_for(first), False, table=table, first=first)
        game = rec.game(g)
        return Where(g.name, False, s.number, dealt, nxt, dealer_of(dealt + 1, game.roster), game.over, game,
                     rec.ruleset(g), rec.totals(g.id))  # type: ignore[arg-type]


def start(o: SessionOptions, db: str | None) -> str:
    """Open the session (creating the game on first use) or resume the open one; show it."""
    from rummyref.store.record import writing
    from rummyref.store.simple import SimpleRecord, is_simple_row, latest_game, simple_target

    with writing(db, create=True) as rec:
        _, name = simple_target(rec, o.game, o.ruleset)
        row = rec.game_row(name) if name and _exists(rec, name) else (latest_game(rec) if name is None else None)
        s = rec.open_night_row(row.id) if row is not None else None  # type: ignore[arg-type]
        if s is None:
            simple, opened = open_session(rec, o)
            shown = None
        else:
            simple, opened = is_simple_row(row), None
            hands = rec.hands_dealt(s.id)  # type: ignore[arg-type]
            if simple:
                sx = SimpleRecord(rec)
                shown = ("simple", row.name, s.number, hands, sx.table_of(row, s), sx.fold(row).state)
            else:
                night_pts = dict(rec.night_points(s.id))  # type: ignore[arg-type]
                began = tuple((n, v - night_pts.get(n, 0)) for n, v in rec.totals(row.id))  # type: ignore[arg-type]
                shown = ("rummy", row.name, s.number, hands, rec.game(row), began)
    if opened is not None:
        sr.show_opened(opened, False) if simple else r.show_opened(opened)
        return opened.game if simple else opened.game.name
    _show_resumed(shown, o)
    return shown[1]


def _exists(rec, name: str) -> bool:
    return rec.sql("SELECT 1 FROM game WHERE name = :n", n=name).first() is not None


def _show_resumed(shown, o: SessionOptions) -> None:
    kind, name, number, hands, *rest = shown
    creating = [flag for flag, v in (("--players", o.players), ("--opening", o.opening), ("--wildcards", o.wildcards),
                                     ("--cards", o.cards), ("--variation", o.variation),
                                     ("--first-dealer", o.first_dealer)) if v]
    if kind == "simple":
        table, state = rest
        out.print(f"Session {number} of {name} resumed: {hands} game{'s' if hands != 1 else ''} so far.", markup=False)
        out.print("Table: " + table.describe(), markup=False, soft_wrap=True)
        sr.render_match(state)
    else:
        game, began = rest
        out.print(f"Rummy Night {number} of {name} resumed: {hands} hand{'s' if hands != 1 else ''} recorded tonight.",
                  markup=False)
        out.print("Seating dibs (A2), from the standings when the night began:", markup=False)
        for line in r._dibs_lines(began):
            out.print(line, markup=False)
        out.print(f"Deal order (A3): {', '.join(game.roster)}.", markup=False)
    if creating:
        say(f"({', '.join(creating)} ignored: the session was already open)")


# -- one hand ------------------------------------------------------------------------------------


def preview(w: Where, form: Form) -> None:
    """The scores the hand would make (raises what the record would refuse)."""
    if w.simple:
        from rummyref.cli.simple import render_game
        from rummyref.games.low_count.adjudicate import adjudicate

        hands, ending = form.facts()
        result = adjudicate(w.table, w.first, hands, ending)
        out.print(f"Game {w.next_hand}: {w.dealer} dealt, {w.first} played first. If recorded:", markup=False)
        render_game(result)
        return
    from rummyref.games.long.scoring import score_hand

    score = score_hand(form.facts(), w.ruleset, w.game.wildcards, w.game.roster)
    totals = {n: v + score.points().get(n, 0) for n, v in w.totals}
    out.print(f"Hand {w.next_hand} ({w.dealer} dealt), if recorded:", markup=False)
    r.show_score(score, w.game.roster, totals)


def write(w: Where, form: Form, db: str | None) -> None:
    """One transaction; the hand number shown is checked again (another terminal may have written)."""
    from rummyref.store.guard import Position, expect
    from rummyref.store.record import writing
    from rummyref.store.simple import SimpleRecord

    with writing(db) as rec:
        g = rec.game_row(w.name)
        expect(rec, g, Position(w.name, w.next_hand, w.night))  # another terminal may have written (exit 7)
        if w.simple:
            hands, ending = form.facts()
            done = SimpleRecord(rec).record_game(g, hands, ending, w.dealer)
        else:
            done = rec.record_hand(g, form.facts(), w.dealer)
    if w.simple:
        out.print(f"Recorded: game {done.number} of {done.game}, game {done.game_in_session} of the session "
                  f"(entry {done.seq}).", markup=False)
        sr.render_match(done.match)
        sr.standings(db, w.name, False)
        return
    out.print(f"Recorded: hand {done.hand} of {done.game.name}, hand {done.hand_in_night} of the night "
              f"(entry {done.seq}).", markup=False)
    if done.game.over or done.outcome.tied or (done.round and not done.round.mid_round):
        r.footer(done, end="type end")  # mid-round, the next prompt says who deals
    show_standings(db, w.name)


def show_standings(db: str | None, name: str) -> None:
    """The short standings shown after each hand: rank, total, to go, progress, tonight."""
    from rich.table import Table

    from rummyref.cli.standings import _bar, _n
    from rummyref.store.standings import read_standings

    st = read_standings(db, name)
    tonight = dict(next((n.points for n in st.recent_nights if n.number == st.open_night), ()))
    grid = Table(box=None, pad_edge=False, header_style="bold", title=None)
    for c in ("#", "player", "total", "to go", "progress", "tonight"):
        grid.add_column(c, justify="left" if c in ("player", "progress") else "right")
    for p in st.players:
        grid.add_row(str(p.rank), p.name, _n(p.total), _n(p.to_go), _bar(p.progress), _n(tonight.get(p.name)))
    out.print("Standings:", markup=False)
    out.print(grid)


def play_hand(term: Terminal, w: Where, form: Form, db: str | None) -> None:
    """Ask the hand's facts, show the scores, write when confirmed. Ctrl-C discards only this hand."""
    what = "game" if w.simple else "hand"
    try:
        form.fill(term.ask)
        while True:
            try:
                preview(w, form)
                question, reader = "Record it? (Enter: yes / fix NAME / drop)", read_confirm
            except RummyrefError as exc:
                show_error(exc)
                question, reader = f"Fix which answer? ({form.choices()} / drop)", read_fix
            from rummyref.cli.facts import _ask_until

            kind, word = _ask_until(term.ask, question, lambda a: reader(a, form))  # type: ignore[misc]
            if kind == "drop":
                say(f"The {what} was dropped: nothing was written.")
                return
            if kind == "fix":
                form.fix(term.ask, word)
                continue
            try:
                write(w, form, db)
                return
            except RummyrefError as exc:
                show_error(exc)
                say(f"Nothing was written; the {what}'s answers are kept (fix them, or drop the {what}).")
                w = where(db, w.name) or w  # another terminal may have written meanwhile
    except KeyboardInterrupt:
        print(file=sys.stderr)
        say(f"Interrupted: this {what} is discarded, nothing was written. The night goes on.")


# -- the loop ------------------------------------------------------------------------------------

INTERRUPTED = 130  #: Ctrl-C between hands (the README's exit code table)
CARDS = ("", "c", "cards", "card", "hand", "h", "game", "g")
POINTS = ("p", "points", "point")


def run(o: SessionOptions, db: str | None) -> int:
    """The whole night; returns the exit code."""
    name = start(o, db)
    w0 = where(db, name)
    book = _book(w0)
    term = Terminal(name, db, book)
    say("Type help for the commands; ? TEXT asks for a ruling, ! claim ... settles a dispute.")
    while True:
        w = where(db, name)
        if w is None:
            say(f"The session of {name} is closed.")
            return 0
        _announce(w)
        try:
            command = term.line("night> ").strip()
        except EOFError:
            print(file=sys.stderr)
            say(_still_open(w, "End of input"))
            return 0
        except KeyboardInterrupt:
            print(file=sys.stderr)
            say(_still_open(w, "Interrupted"))
            return INTERRUPTED
        try:
            done = dispatch(term, w, command, db)
        except EOFError:
            print(file=sys.stderr)
            say(_still_open(w, f"End of input (the {'game' if w.simple else 'hand'} being typed was discarded, nothing of it written)"))
            return 0
        if done:
            return 0


def _book(w: Where | None) -> str | None:
    from rummyref.rulebook.book import BUILTIN_RULEBOOKS

    ruleset = getattr(w.ruleset, "rulebook", None) if w and w.ruleset else ("simple-rummy" if w and w.simple else None)
    return ruleset if ruleset in BUILTIN_RULEBOOKS else None


def _still_open(w: Where, why: str) -> str:
    kind = "Session" if w.simple else "Rummy Night"
    return f"{why}: {kind} {w.night} of {w.name} is still open (ref night resumes it); every recorded hand is kept."


def _announce(w: Where) -> None:
    if w.over:
        out.print(f"The game is over (A7): {w.game.winner} won. Type end to close the night.", markup=False)
        return
    if w.simple:
        out.print(f"Next: game {w.next_hand} (game {w.dealt + 1} of the session): {w.dealer} deals, "
                  f"{w.first} plays first.", markup=False)
    else:
        out.print(f"Next: hand {w.dealt + 1} of Rummy Night {w.night} (hand {w.next_hand} of {w.name}): "
                  f"{w.dealer} deals.", markup=False)


def dispatch(term: Terminal, w: Where, command: str, db: str | None) -> bool:
    """One between-hands command; True when the shell should stop."""
    word, _, rest = command.partition(" ")
    word = word.casefold()
    if word in CARDS + POINTS and not rest:
        if w.over:
            show_error(_over(w))
            return False
        form = SimpleForm(w.table, w.first) if w.simple else (PointsForm(w.game) if word in POINTS else CardsForm(w.game))
        if w.simple and word in POINTS:
            say("Simple Rummy is recorded by the final hands: no points form.")
            return False
        play_hand(term, w, form, db)
    elif word == "standings":
        from rummyref.cli.standings import standings

        guarded(lambda: standings(w.name, db, False))
    elif word == "history":
        from rummyref.cli.standings import history

        guarded(lambda: history(w.name, None if rest.strip() == "all" else w.night, db, False))
    elif word == "end":
        return bool(guarded(lambda: end(w, db)))
    elif word in ("help", "h?", "commands"):
        out.print(HELP, markup=False)
    elif word in ("quit", "exit", "q", "bye"):
        say(_still_open(w, "Leaving"))
        return True
    else:
        show_error(UnreadableInput(f"{command!r} is not a command here", hint="type help for the commands"))
    return False


def _over(w: Where):
    from rummyref.errors import RuleRefusal

    return RuleRefusal(f"game {w.name} is over ({w.game.winner} won): it takes no more hands", rule="A7",
                       hint="type end to close the night; a new game: ref night --game NEW-NAME")


def end(w: Where, db: str | None) -> bool:
    """Close the session exactly as ``ref end-session`` does (A4 refusal included)."""
    from rummyref.store.record import writing
    from rummyref.store.simple import SimpleRecord

    from rummyref.cli.verify import show_seal
    from rummyref.store import seal

    with writing(db) as rec:
        g = rec.game_row(w.name)
        closed = SimpleRecord(rec).close_session(g) if w.simple else rec.close_night(g)
        code = seal.current(rec)
    sr.show_closed(closed, False) if w.simple else r.show_closed(closed)
    show_seal(code)
    return True
