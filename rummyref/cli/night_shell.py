"""The loop of ``ref night``: the terminal (line reading, ``?`` rulings and ``!`` disputes at
any prompt), the night as it stands in the record, one hand from questions to the write.

Every write is its own transaction through the store's ``writing``; between writes the
record is consistent, so Ctrl-C or the end of input loses at most the hand being typed.
"""

from __future__ import annotations

import re
import shlex
import sys
from typing import Any

from rummyref.cli.app import committed_kinds, written_mark
from rummyref.cli.common import err, out, say, show_error
from rummyref.cli.night_forms import Settle
from rummyref.cli.prompts import NONE_WORD, PUT_BACK, end_unechoed, fitted, kept
from rummyref.errors import IntegrityError, NotFound, RummyrefError, StorageError, UnreadableInput
from rummyref.games.base import Recorded, SessionRequest, ask_until, over_refusal
from rummyref.record import Context


def _dispute_example(ctx: Context | None) -> tuple[str, str]:
    """The dispute the game's rules settle first, short and in full (with the table's names)."""
    from rummyref.disputes.engine import Dispute, disputes_of

    if ctx is None or Dispute.CLAIM in disputes_of(ctx.ruleset):
        a, b = (ctx.game.roster[:2] if ctx is not None and len(ctx.game.roster) >= 2 else ("Bill", "Ben"))
        return "! claim ... settles a dispute", f"! claim --called {a}={b} --touched {b},{a}"
    session = ctx.ruleset.session_short
    return f"! end-night asks whether the {session} may end", f"! end-night (may the {session} end now?)"


def help_text(ctx: Context) -> str:
    """The shell's commands, in the words of the game being played: how its hands are told, and
    when its session may end (A4 and A7 are Rummy 2,000,000's)."""
    from rummyref.wrap import fill

    rs, word, session = ctx.ruleset, ctx.ruleset.hand_word, ctx.ruleset.session_short

    def row(command: str, text: str) -> list[str]:
        return fill(text, 80, f"  {command}".ljust(19), " " * 19).split("\n")

    if "points" in ctx.kind.tellings(rs):
        telling = row("cards (or c)", f"record the next {word} by cards")
        telling += row("points (or p)", f"record the next {word} as each player's points")
    else:
        telling = row("cards (or c)", f"record the next {word} by the players' cards (or type {word})")
    ending = (f"end the {session} (only after full rounds, A4, or when the game is over, A7)"
              if ctx.kind.full_rounds(rs) else f"end the {session} (after any {word})")
    return "\n".join([
        "At any prompt:",
        *row("? TEXT", "a ruling from the rulebook, e.g. ? pizza's here"),
        # kept as ref dispute keeps it (rummyref.cli.settle): a ruling that settled something at the
        # table, by its rule set; a question answered or a tie waiting for its judge only with --record
        *row("! DISPUTE ARGS", f"settle a dispute, as ref dispute does (kept as a precedent of the {session} "
                               f"when it settled something; --record keeps any), "
                               f"e.g. {_dispute_example(ctx)[1]} (! help lists the disputes)"),
        f"Between {word}s:",
        *telling,
        *row("undo", f"void the last {word} still counting"
                     + (" (its dealer deals again)" if ctx.kind.full_rounds(rs) else "")),
        *row("amend N", f"correct {word} N: its answers as recorded, fix what was wrong"),
        *row("void N", f"{word} N no longer counts (both stay in the history"
                     + (f", {rs.game_rule('B7')})" if rs.game_rule("B7") else ")")),
        *row("standings", "the standings"),
        *row("history [all]", f"this {session}'s {word}s (all: the whole game)"),
        *row("end", ending),
        *row("quit", f"leave the shell; the {session} stays open (ref night resumes it)"),
        *row("help", "this text"),
        *row("Enter", f"says {'who deals' if ctx.kind.full_rounds(rs) else 'what comes'} next; it never starts a "
                      f"{word}"),
        *fill(f"While a {word} is typed: a bad answer comes back on the line to edit (Ctrl-U clears it; "
                       f"the same bad answer twice clears it); Ctrl-C discards only that {word}. Before it is "
                       f"written: Enter records it, {_fix_words(ctx)} asks those answers "
                       "again, 'drop' discards it.", 80).split("\n"),
    ])


def _fix_words(ctx: Context) -> str:
    """``'fix NAME' (or fix out / claims)``: what 'fix' takes in this game's form (by cards)."""
    form = ctx.kind.form(ctx).pick({}, None)  # nothing given: the form by cards
    whats = list(dict.fromkeys(what for what, who in form.keys() if not who))
    return "'fix NAME'" + (f" (or fix {' / '.join(whats)})" if whats else "")


# -- the terminal -----------------------------------------------------------------------------


def _readline():
    """GNU readline when ``input()`` uses it, stdin and stdout both the terminal (line editing,
    history, answers offered back); with stdout piped (``ref night | tee night.log``) nothing
    can be put back on the line, so the offered answer is what a blank keeps."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        import readline
    except ImportError:  # pragma: no cover - platform without readline
        return None
    readline.parse_and_bind("set enable-bracketed-paste off")
    return readline


class Terminal:
    """Reads answers; ``? TEXT`` and ``! DISPUTE`` are answered here and the question asked again."""

    def __init__(self, game: str, db: str | None) -> None:
        self.game, self.db = game, db
        self.readline = _readline()
        self.put_back_told = False  #: the Ctrl-U hint is given once, the first time it applies
        #: what the command under way would write, for the end of input to name ("the void of hand 2")
        self.under_way: str | None = None

    def line(self, prompt: str, offered: str = "", none: bool = True) -> str:
        lead, prompt = fitted(prompt)  # a long question on lines of its own, asked again after a ruling
        while True:
            if lead:
                err.print(lead, end="", markup=False, highlight=False)
            answer = self._read(prompt, offered, none)
            text = answer.strip()
            if text.startswith("?"):
                self.ruling(text[1:].strip())
            elif text.startswith("!"):
                self.dispute(text[1:].strip())
            else:
                return answer

    def ask(self, question: str, offered: str = "", *, none: bool = True) -> str:
        """The :class:`~rummyref.games.base.Asker` of the night's questions (``none`` False:
        ``-`` answers nothing here, so it is not offered)."""
        return self.line(question + ": ", offered, none)

    def tell(self, message: str) -> None:
        say(message)

    def _read(self, prompt: str, offered: str, none: bool = True) -> str:
        rl = self.readline
        if offered and rl is not None:
            if not self.put_back_told:
                self.put_back_told = True
                say(PUT_BACK)
            rl.set_pre_input_hook(lambda: (rl.insert_text(offered), rl.redisplay()))
        elif offered:  # no line to edit (a pipe): Enter keeps the offered answer, as score-hand's prompts
            say(f"  (offered: {offered}; Enter keeps it" + (f", {NONE_WORD} for none)" if none else ")"))
        if rl is not None and sys.stdout.isatty():  # one screen: readline draws the question with the line
            ask = prompt
        else:  # every question on stderr, whatever its length, as score-hand's: stdout is for the record
            ask = ""
            try:  # what was printed before the question (a preview) comes before it, even through a pipe
                sys.stdout.flush()
            except (OSError, ValueError):
                pass
            sys.stderr.write(prompt)
            sys.stderr.flush()
        try:
            answer = input(ask)
            if not ask:
                end_unechoed()
            return kept(answer, offered, edited=rl is not None)
        finally:
            if rl is not None:
                rl.set_pre_input_hook(None)

    def ruling(self, text: str) -> None:
        from rummyref.cli.ruling import Scope, answer, choose_scope

        if not text:
            say("ask it as: ? TEXT (e.g. ? pizza's here, or ? B7)")
            return
        def scope() -> Scope:  # as ref ruling reads it: the game's rulebook, and its variations in play
            return choose_scope(None, self.game, self.db)

        guarded(lambda: answer(text, scope()))

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
        # the shell's own commands only: installing shell completion is for the command line
        command.params = [p for p in command.params if p.name not in ("install_completion", "show_completion")]
        guarded(lambda: command.main(words, prog_name="!", standalone_mode=False))


#: the message of the last error the shell showed: a read between hands that fails the same way
#: right after (the server still down) is not said a second time
_SHOWN: list[str | None] = [None]


def shown_error(exc: RummyrefError) -> None:
    """An error as ``ref`` shows it, noted as the last one shown."""
    _SHOWN[0] = exc.message
    show_error(exc)


def guarded(action) -> Any:
    """Run a command inside the loop: its errors are shown as ``ref`` shows them, never fatal."""
    try:
        return action()
    except RummyrefError as exc:
        shown_error(exc)
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


def where(db: str | None, name: str) -> Context | None:
    """The game with its open session, read afresh after every write (None: the session is closed)."""
    from rummyref import play

    ctx = play.context(db, name, "score-hand")
    return ctx if ctx.open_session is not None else None


def start(request: SessionRequest, db: str | None) -> str:
    """Open the session (creating the game on first use) or resume the open one; show it."""
    from rummyref import play

    resumed = _resumable(db, request)
    if resumed is not None:
        note = play.ruleset_kept(resumed.game.name, resumed.ruleset, request.ruleset)
        strangers = [n for n in request.players or () if n.casefold() not in
                     {p.casefold() for p in resumed.game.roster}]
        if strangers:  # not a table of this game: never resume it for them (nor ignore them)
            from rummyref.errors import RuleRefusal
            from rummyref.names import shown

            word = resumed.kind.session_word(resumed.ruleset)
            number = resumed.open_session.number if resumed.open_session else ""
            # a game whose roster is open (Simple Rummy, S1) seats a newcomer at its next session
            seats = getattr(resumed.kind, "newcomer_hint", None)
            hint = seats(resumed, request.players or ()) if seats is not None else None
            raise play.noted(RuleRefusal(
                f"{word} {number} of {shown(resumed.game.name)} is open, and "
                f"{', '.join(shown(n) for n in strangers)} {'is' if len(strangers) == 1 else 'are'} not among its "
                f"players ({', '.join(shown(n) for n in resumed.game.roster)})",
                hint=hint or f"--game NEW-NAME{resumed.ruleset.again} starts a new game with its own players; ref night "
                     "without --players resumes this one",
            ), note)
        from rummyref.store.record import must_write

        must_write(db)  # a record this user cannot write: said now, not after a hand is typed
        resumed.kind.show_resumed(resumed, out)
        creating = [flag for flag, v in (("--players", request.players), ("--opening", request.openings),
                                         ("--wildcards", request.wildcards), ("--cards", request.cards),
                                         ("--variation", request.variations),
                                         ("--first-dealer", request.first_dealer)) if v]
        if creating:
            say(f"({', '.join(creating)} ignored: the session was already open)")
        if note:
            say(f"({note})")
        return resumed.game.name
    done = play.open_session(db, request)
    if done.note:
        say(f"({done.note})")
    done.kind.show_opened(done.shown, out)
    return done.kind.opened_json(done.shown)["game"]


def _resumable(db: str | None, request: SessionRequest) -> Context | None:
    """The game ``ref night`` would open, if its session is already open. No record yet (a new
    file, a 0-byte one, a SQLite database with no schema object): nothing to resume, and the
    night starts the record as ``new-session`` does."""
    from rummyref import play
    from rummyref.errors import NotFound

    try:
        ctx = play.context(db, request.game, "night", request.players or ())
    except NotFound:
        return None
    except StorageError:
        from rummyref.store.engine import starts_afresh

        if starts_afresh(db):
            return None
        raise
    if request.ruleset and request.game is None:
        from rummyref.rules.ruleset import load_ruleset

        if load_ruleset(request.ruleset).name != ctx.ruleset.name:
            return None
    return ctx if ctx.open_session is not None else None


# -- one hand ------------------------------------------------------------------------------------


def play_hand(term: Terminal, ctx: Context, form, db: str | None) -> None:
    """Ask the hand's facts, show the result, write when confirmed. Ctrl-C discards only this hand."""
    kind = ctx.kind

    def judge(facts: Any) -> Recorded:
        return kind.adjudicate(ctx, facts)

    def preview(result: Recorded) -> None:
        kind.preview(ctx, result.shown, out)

    def written(shown: Any) -> None:
        kind.show_written(shown, out)
        guarded(lambda: show_standings(db, ctx.game.name))  # written: a read that fails now only says so

    def reread() -> Context:
        nonlocal ctx
        ctx = where(db, ctx.game.name) or ctx  # another terminal may have written meanwhile
        return ctx

    _settle_and_write(term, ctx, form, judge, preview, written, reread, db, lambda: form.ask_all(term))


def _settle_and_write(term: Terminal, ctx: Context, form, judge, preview, written, reread, db: str | None,
                      first=None, correcting: bool = False) -> None:
    """The shared end of a hand and of a correction: (``first``: ask what is open,) judge, show,
    "Record it?", write. A write refused (another terminal wrote meanwhile, or the record cannot
    be reached) keeps the answers: the record is read again (if it can be) and the table fixes,
    drops, or tries again. Ctrl-C discards only this one. What is dropped is said by name: the
    hand, or (``correcting``) the correction."""
    from rummyref import play

    what = "correction" if correcting else ctx.ruleset.hand_word
    start, at_write = written_mark(), None
    try:
        if first is not None:
            first()
        settle = Settle(term, what)
        while True:
            result = settle(form, judge, preview)
            if result is None:
                return
            try:
                at_write = written_mark()
                shown = play.append(db, ctx, result)
            except RummyrefError as exc:
                shown_error(exc)
                say(f"Nothing was written; the {what}'s answers are kept (fix them, or drop the {what}).")
                try:
                    ctx = reread()
                except IntegrityError:
                    raise
                except StorageError:  # the record cannot be read either (a server down): as read before
                    pass
                continue
            written(shown)
            return
    except KeyboardInterrupt:
        print(file=sys.stderr)
        say(interrupted_words(what, start, at_write))


def interrupted_words(what: str | None, start: int, at_write: int | None = None) -> str:
    """What a Ctrl-C inside a hand (``what``: "hand") or a correction (None) says: the write
    committed (from the ``at_write``-th write on: it stands, as ``history`` shows, and is not to
    be typed again), or nothing of it was written (a ruling kept meanwhile, from ``start``, said
    too)."""
    from rummyref.cli.app import what_stands

    written = what_stands(at_write, shell=True) if at_write is not None else None
    if written is not None:
        return f"Interrupted: {written[0]}; {written[1]}. The night goes on."
    lost = f"this {what} is discarded, " if what else ""
    kept_ = what_stands(start, shell=True)
    if kept_ is not None:
        return f"Interrupted: {lost or 'the correction is discarded, '}nothing of it was written; {kept_[0]}. " \
               "The night goes on."
    return f"Interrupted: {lost}nothing was written. The night goes on."


# -- corrections ---------------------------------------------------------------------------------

def reason_q(rs) -> str:
    """The question for a correction's reason, citing B7 only where the rule set's rulebook has it."""
    b7 = rs.game_rule("B7")
    return f"Why? (the reason is kept in the history{f', {b7}' if b7 else ''})"


def read_reason(answer: str) -> str:
    from rummyref.names import check_reason

    return check_reason(answer, example="Bill counted short")


def correction(term: Terminal, name: str, db: str | None, hand: int | None, amend: bool) -> None:
    """``undo`` (hand None: the last hand counting), ``void N`` or ``amend N``: the hand as
    recorded, the reason, (amend) the answers to fix, before -> after, "Record it?"."""
    from rummyref import play

    command = "amend" if amend else "void"
    start = written_mark()
    ctx = play.context(db, name, command)
    kind = ctx.kind
    what = kind.hand_word(ctx.ruleset)
    if hand is None:
        hand = kind.last_in_force(ctx)
        if hand is None:
            say(f"No {what} of this {ctx.ruleset.session_short} counts yet: nothing to undo "
                f"(void N corrects an earlier {what}).")
            return
    term.under_way = f"the {'amendment' if amend else 'void'} of {what} {hand}"
    try:
        kind.show_as_recorded(ctx, hand, out)
        reason = ask_until(term, reason_q(ctx.ruleset), read_reason)
        form = play.prepare(ctx, hand, {}, term, command) if amend else None
    except KeyboardInterrupt:
        print(file=sys.stderr)
        say(interrupted_words(None, start))
        return
    number = hand

    def judge(facts: Any) -> Recorded:
        try:
            return kind.correct(ctx, number, facts, reason)
        except RummyrefError as exc:  # the hint in the shell's words: void N, not ref void N
            exc.hint = exc.hint and re.sub(r"\bref (void|amend) ", r"\1 ", exc.hint)
            raise

    def preview(result: Recorded) -> None:
        kind.show_change(ctx, number, result.shown, out)

    def written(shown: Any) -> None:
        out.print(f"Recorded: {what} {number} {'amended' if amend else 'voided'} (entry {shown.seq}).",
                  markup=False)
        kind.show_corrected(shown, out)  # a game (or match) whose end it undid, as ref void says
        guarded(lambda: show_standings(db, name))

    def reread() -> Context:
        nonlocal ctx
        ctx = play.context(db, name, command)
        return ctx

    _settle_and_write(term, ctx, form, judge, preview, written, reread, db, correcting=True)


def show_standings(db: str | None, name: str) -> None:
    """The short standings shown after each hand."""
    from rummyref.games.registry import kind_for
    from rummyref.store.standings import read_summary

    summary = read_summary(db, name, lambda rs: kind_for(rs).wants_history("standings"))
    kind_for(summary.ruleset).show_short_standings(summary, out)


# -- the loop ------------------------------------------------------------------------------------

INTERRUPTED = 130  #: Ctrl-C between hands (the README's exit code table)
CARDS = ("c", "cards", "card", "hand", "h", "game", "g")
POINTS = ("p", "points", "point")


def run(request: SessionRequest, db: str | None) -> int:
    """The whole night; returns the exit code."""
    name = start(request, db)
    first = where(db, name)
    term = Terminal(name, db)
    say(f"Type help for the commands; ? TEXT asks for a ruling, {_dispute_example(first)[0]}.")
    ctx = first
    away: str | None = None  #: why the record could not be read at the last look (a server down)
    while True:
        mark = written_mark()
        try:
            try:
                now = where(db, name)
            except IntegrityError:  # the record was changed outside ref: the night cannot go on
                raise
            except (StorageError, NotFound) as exc:
                if ctx is None:
                    raise
                _cannot_read(exc, ctx, away)
                away = exc.message
            else:
                _SHOWN[0] = None
                if away is not None:
                    say("The record can be read again.")
                    away = None
                if now is None:
                    word = ctx.ruleset.session_word if ctx is not None else "session"
                    number = f" {ctx.open_session.number}" if ctx is not None and ctx.open_session else ""
                    say(f"{word[0].upper() + word[1:]}{number} of {name} is closed.")
                    return 0
                ctx = now
                ctx.kind.announce(ctx, out)
            assert ctx is not None
            try:
                command = term.line("night> ").strip()
            except EOFError:
                print(file=sys.stderr)
                say(_still_open(ctx, "End of input"))
                return 0
            term.under_way = None
            if away is not None and not command:
                continue  # Enter reads the record again
            try:
                done = dispatch(term, ctx, command, db)
            except EOFError:  # inside a hand, or a correction (named: it is not a hand being typed)
                print(file=sys.stderr)
                doing = term.under_way or f"the {ctx.ruleset.hand_word} being typed"
                say(_still_open(ctx, f"End of input ({doing} was discarded, nothing of it written)"))
                return 0
        except KeyboardInterrupt:  # at the prompt, or in a command between hands (standings, end ...)
            print(file=sys.stderr)
            return _interrupted(ctx, mark)
        if done:
            return 0


def _cannot_read(exc: RummyrefError, ctx: Context, away: str | None) -> None:
    """The record cannot be read between hands (a server down, a file that is not there now):
    the error is said once (not when the command that just failed said it, nor again while it
    lasts), and the shell stays at ``night>`` with the night as last read: Enter reads it again,
    a command that needs the record says why it cannot, a hand can be typed (``Record it?``
    writes it once the record answers), quit and the end of input leave."""
    if exc.message not in (away, _SHOWN[0]):
        shown_error(exc)
    session = ctx.ruleset.session_short
    if away is None:
        say(f"The record cannot be read just now; the night goes on. Enter tries again; a {ctx.ruleset.hand_word} "
            f"can still be typed (Record it? writes it once the record answers); quit leaves, and the {session} "
            "stays open.")
    else:
        say(f"(the record still cannot be read; Enter tries again, quit leaves: the {session} stays open)")


def _interrupted(ctx: Context | None, mark: int) -> int:
    """Ctrl-C between hands: what the command under way wrote, if it wrote (``end`` closed the
    session), else the session still open; exit 130."""
    from rummyref.cli.app import what_stands

    written = what_stands(mark, shell=True)
    if written is not None:
        say(f"Interrupted: {written[0]}; {written[1]}.")
    if ctx is not None and "session-close" not in committed_kinds(mark):
        say(_still_open(ctx, "Interrupted"))
    return INTERRUPTED


def _still_open(ctx: Context, why: str) -> str:
    word = ctx.ruleset.session_word
    number = ctx.open_session.number if ctx.open_session else "?"
    return (f"{why}: {word[0].upper() + word[1:]} {number} of {ctx.game.name} is still open (ref night resumes it); "
            f"every recorded {ctx.ruleset.hand_word} is kept.")


def dispatch(term: Terminal, ctx: Context, command: str, db: str | None) -> bool:
    """One between-hands command; True when the shell should stop."""
    word, _, rest = command.partition(" ")
    word, rest = word.casefold(), rest.strip()
    if not word:  # a stray Enter (the cards being dealt): nothing starts, the next line says who deals
        told = " or ".join(ctx.kind.tellings(ctx.ruleset))
        say(f"(type {told} to record the next {ctx.ruleset.hand_word}; help for the commands)")
    elif word in CARDS + POINTS and not rest:
        if ctx.game.over:
            show_error(_over(ctx))
            return False
        try:
            form = ctx.kind.form(ctx, None, "points" if word in POINTS else "cards")
        except RummyrefError as exc:
            say(exc.message + ".")
            return False
        play_hand(term, ctx, form, db)
    elif word == "standings":
        from rummyref.cli.standings import standings

        guarded(lambda: standings(ctx.game.name, db=db, json_=False))
    elif word == "history":
        from rummyref.cli.standings import history

        session = ctx.open_session.number if ctx.open_session else None
        guarded(lambda: history(ctx.game.name, session=None if rest == "all" else session, db=db, json_=False))
    elif word == "end":
        return bool(guarded(lambda: end(ctx, db)))
    elif word == "undo" and not rest:
        guarded(lambda: correction(term, ctx.game.name, db, None, amend=False))
    elif word in ("amend", "void") and rest.isdigit():
        guarded(lambda: correction(term, ctx.game.name, db, int(rest), amend=word == "amend"))
    elif word in ("amend", "void"):
        show_error(UnreadableInput(f"{command!r}: which {ctx.ruleset.hand_word}?",
                                   hint=f"{word} N, N as in history (e.g. {word} 3); undo voids the last one"))
    elif word in ("help", "h?", "commands"):
        out.print(help_text(ctx), markup=False)
    elif word in ("quit", "exit", "q", "bye"):
        say(_still_open(ctx, "Leaving"))
        return True
    else:
        show_error(UnreadableInput(f"{command!r} is not a command here", hint="type help for the commands"))
    return False


def _over(ctx: Context):
    return over_refusal(ctx.game, ctx.ruleset, ctx.kind.over_rule(ctx.ruleset),
                        first=f"type end to close the {ctx.ruleset.session_short}; ")


def end(ctx: Context, db: str | None) -> bool:
    """Close the session exactly as ``ref end-session`` does (A4 refusal included)."""
    from rummyref import play
    from rummyref.cli.verify import show_seal

    done = play.close_session(db, ctx.game.name)
    done.kind.show_closed(done.shown, out)
    if done.seal:
        show_seal(done.seal)
    return True
