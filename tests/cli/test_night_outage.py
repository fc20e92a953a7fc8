"""``ref night`` when the record cannot be read between hands (audit pg47 #1): the shell stays
at ``night>``, says the error once, answers the commands that need the record with it, and
goes on once the record is back; ``quit`` and the end of input still end it with 0.

Driven through a pseudo-terminal, as at the table. On SQLite the record file is put aside and
a text file stands in its place between hands; on PostgreSQL (``needs_pg``) the server goes
away for real: ``ref night`` talks to it through a small TCP relay that the test closes (every
connection refused, as with a server down) and opens again on the same port.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pexpect
import pytest
from cli_helpers import as_at_a_terminal, ref, ref_json

TIMEOUT = 20
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = "night> "
POINTS = "{}'s points this hand: "
CONFIRM = "Record it? (Enter: yes / fix NAME / drop): "
AWAY = "The record cannot be read just now; the night goes on."
STILL = "(the record still cannot be read; Enter tries again, quit leaves: the night stays open)"
BACK = "The record can be read again."


class Relay:
    """A TCP relay to the PostgreSQL server: ``down()`` closes it and every connection through it
    (a connection is then refused, as by a server that is not running), ``up()`` opens it again
    on the same port."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.up()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        listener.settimeout(0.05)
        self.port = listener.getsockname()[1]
        self.listener = listener
        self.accepting = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self.accepting.start()

    def down(self) -> None:
        """Closed once this returns: the port refuses, and every connection made through it is cut."""
        self.listener = None
        self.accepting.join()  # the listening socket is closed by its own thread, between two waits
        with self.lock:
            links, self.links = self.links, []
        for s in links:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def _accept(self, listener: socket.socket) -> None:
        try:
            while self.listener is listener:
                try:
                    client, _ = listener.accept()
                except TimeoutError:
                    continue
                try:
                    server = socket.create_connection(self.target)
                except OSError:
                    client.close()
                    continue
                with self.lock:
                    self.links += [client, server]
                for a, b in ((client, server), (server, client)):
                    threading.Thread(target=self._pump, args=(a, b), daemon=True).start()
        finally:
            listener.close()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Night:
    def __init__(self, db: str) -> None:
        env = dict(os.environ, COLUMNS="100", TERM="dumb", NO_COLOR="1", RUMMYREF_NOW="2026-11-12T19:30",
                   RUMMYREF_DB=db)
        self.child = pexpect.spawn(sys.executable, ["-m", "rummyref", "night"], env=env, encoding="utf-8",
                                   timeout=TIMEOUT, dimensions=(50, 100), preexec_fn=as_at_a_terminal)
        self.said = ""

    def expect(self, text: str) -> str:
        self.child.expect_exact(text)
        chunk = ANSI.sub("", self.child.before + self.child.after).replace("\r\n", "\n")
        self.said += chunk
        return chunk

    def send(self, text: str) -> None:
        self.child.sendline(text)

    def points(self, *values: int) -> None:
        for name, value in zip(("Bill", "Ben", "Larry"), values):
            self.expect(POINTS.format(name))
            self.send(str(value))

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.said += ANSI.sub("", self.child.before).replace("\r\n", "\n")
        self.child.close()
        return self.child.exitstatus


def flat(text: str) -> str:
    return " ".join(text.split())


def _a_night_through_an_outage(night: Night, down, up, error: str) -> None:
    """The table's evening: a hand typed while the record is away is kept, then dropped; help,
    standings, history, end, amend, void and undo answer at ``night>`` (those needing the record
    with its error); Enter once it is back reads it again, a hand is recorded, quit ends it."""
    night.expect(PROMPT)
    down()
    night.send("points")
    night.points(1, 2, 3)
    night.expect(CONFIRM)
    night.send("")  # the write fails: said, answers kept, asked again
    chunk = night.expect(CONFIRM)
    assert error in flat(chunk) and "the hand's answers are kept" in chunk
    night.send("drop")
    chunk = night.expect(PROMPT)
    assert "The hand was dropped: nothing was written." in chunk
    assert AWAY in flat(chunk) and "error:" not in chunk  # the write's error was said: not a second time
    night.send("help")
    chunk = night.expect(PROMPT)
    assert "Between hands:" in chunk and STILL in flat(chunk) and "error:" not in chunk
    for command in ("standings", "history", "end", "amend 1", "void 1", "undo"):
        night.send(command)
        chunk = night.expect(PROMPT)
        assert flat(chunk).count(error) == 1 and STILL in flat(chunk), (command, chunk)
    night.send("")  # Enter while it is away: read again, still away
    chunk = night.expect(PROMPT)
    assert STILL in flat(chunk) and "error:" not in chunk and "(type cards" not in chunk
    up()
    night.send("")
    chunk = night.expect(PROMPT)
    assert BACK in chunk and "Next: hand 1" in chunk
    night.send("points")
    night.points(4, 5, 6)
    night.expect(CONFIRM)
    night.send("")
    assert "Recorded: hand 1" in night.expect(PROMPT)
    down()
    night.send("history")
    chunk = night.expect(PROMPT)
    assert flat(chunk).count(error) == 1 and AWAY in flat(chunk)  # said by history, not again after it
    night.send("quit")
    assert night.finish() == 0, night.said
    assert "Leaving: Rummy Night 1 of rummy-2m is still open (ref night resumes it)" in flat(night.said)
    assert "Traceback" not in night.said and "internal error" not in night.said
    up()


def test_sqlite_a_record_that_cannot_be_read_between_hands_keeps_the_shell_open(record, tmp_path):
    if record.on_pg:
        pytest.skip("the SQLite file is put aside (the PostgreSQL pass stops the server instead)")
    assert ref("new-session").exit_code == 0
    path: Path = record.path
    aside = tmp_path / "aside"
    aside.mkdir()

    def down() -> None:  # the record's file (and any -wal, -shm) away, a text file in its place
        for p in path.parent.glob(path.name + "*"):
            shutil.move(str(p), aside / p.name)
        path.write_text("not a record\n")

    def up() -> None:
        path.unlink()
        for p in aside.iterdir():
            shutil.move(str(p), path.parent / p.name)

    night = Night(record.spec)
    _a_night_through_an_outage(night, down, up, f"{path.name} is not a SQLite database, not a ref record")
    st = ref_json("standings")
    assert st["hands"] == 1 and {p["name"]: p["total"] for p in st["players"]} == {"Bill": 4, "Ben": 5, "Larry": 6}


@pytest.mark.needs_pg
def test_pg_a_server_down_between_hands_keeps_the_shell_open(record):
    assert ref("new-session").exit_code == 0
    url = urlsplit(record.spec)
    relay = Relay(url.hostname or "127.0.0.1", url.port or 5432)
    via = urlunsplit(url._replace(netloc=url.netloc.replace(f"{url.hostname}:{url.port}", f"127.0.0.1:{relay.port}")))
    try:
        night = Night(via)
        _a_night_through_an_outage(night, relay.down, relay.up, "cannot connect to the record at postgresql://")
        assert "Connection refused" in night.said and "\n        Is the server" not in night.said
    finally:
        relay.down()
    st = ref_json("standings")
    assert st["hands"] == 1 and {p["name"]: p["total"] for p in st["players"]} == {"Bill": 4, "Ben": 5, "Larry": 6}
