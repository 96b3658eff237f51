"""The inspector without a browser: the token, hostile store connections, the library's side of
the protocol (TCA_DEVTOOLS: a Python store connects, obeys, survives a hostile inspector, drops
what a slow one does not read, reconnects), offline journals and the written tests (python -m
tca devtools; docs/devtools.md)."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

import tca
from tca.devtools import protocol
from tca.devtools.redrive import redrive, replay, state_at
from tca.devtools.server import Inspector
from tca.devtools.session import Session, diff
from tca.devtools.testgen import write_test


@pytest.fixture
def inspector() -> Iterator[Inspector]:
    server = Inspector("127.0.0.1", 0, budget=64 * 1024)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def port(server: Inspector) -> int:
    return server.server_address[1]


def get(server: Inspector, path: str, token: Any = True) -> Any:
    given = server.token if token is True else token
    sep = "&" if "?" in path else "?"
    url = f"http://127.0.0.1:{port(server)}{path}" + (f"{sep}token={given}" if given else "")
    with urllib.request.urlopen(url, timeout=5) as response:
        body = response.read()
        return json.loads(body) if response.headers["Content-Type"] == "application/json" else (
            response.headers, body.decode())


def connect(server: Inspector, token: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port(server)), timeout=5)
    sock.sendall(f"GET /store?token={token} HTTP/1.1\r\nUpgrade: tca-store/1\r\n\r\n".encode())
    return sock


def until(condition: Any, timeout: float = 5) -> None:
    deadline = time.time() + timeout
    while True:
        try:
            if condition():
                return
        except IndexError:  # NB: the store is not there yet
            pass
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


def counter_journal() -> str:
    store = tca.Store("counter", clock="manual", seed=7, record=True, requests="queued")
    store.send("numberFactButtonTapped")
    store.send("incrementButtonTapped")
    store.send("numberFactButtonTapped")
    taken = [r for r in store.take_requests() if "id" in r]
    store.respond(taken[-1]["id"], "late")
    store.advance(10)
    return store.journal()


def test_first_line_is_the_url_and_it_binds_the_loopback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tca", "devtools", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("http://127.0.0.1:") and "/?token=" in line
        assert len(line.split("token=")[1]) >= 32
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize("path", ["/", "/api/stores", "/api/stores/x/log", "/nothing"])
@pytest.mark.parametrize("token", [None, "wrong", "ü"])
def test_without_the_token_everything_is_refused(inspector: Inspector, path: str,
                                                 token: Any) -> None:
    with pytest.raises(urllib.error.HTTPError) as raised:
        get(inspector, path, token=urllib.request.quote(token) if token else None)
    assert raised.value.code == 403


# A host in a process of its own (TCA_DEVTOOLS is read once a process): a counter store whose
# subscriber prints each state; it runs the JSON commands of its standard input, one a line, and
# polls the store every 10 ms in between (so that the inspector's commands are applied).
HOST = r"""
import json, os, select, sys
import tca
store = tca.Store("counter", clock="manual", seed=1)
store.subscribe(lambda version: print("state", json.dumps(store.state), flush=True))
while True:
    ready, _, _ = select.select([sys.stdin], [], [], 0.01)
    store.poll()
    if not ready:
        continue
    line = sys.stdin.readline()
    if not line:
        break
    command = json.loads(line)
    if command[0] == "send":
        for _ in range(command[2] if len(command) > 2 else 1):
            store.send(command[1])
    elif command[0] == "journal":
        print("journal", json.dumps(store.journal()), flush=True)
    elif command[0] == "threads":
        print("threads", len(os.listdir("/proc/self/task")), flush=True)
    print("done", flush=True)
store.close()
"""


class Host:
    """A host process (HOST) with TCA_DEVTOOLS=`address` (None: without the variable)."""

    def __init__(self, address: Optional[str]) -> None:
        env = dict(os.environ)
        env.pop("TCA_DEVTOOLS", None)
        if address is not None:
            env["TCA_DEVTOOLS"] = address
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOST], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )
        self.lines: List[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def run(self, *command: Any) -> str:
        """Runs a command; returns the last line it printed before "done"."""
        assert self.process.stdin is not None
        count = self.lines.count("done")
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        until(lambda: self.lines.count("done") > count, timeout=60)
        before = [line for line in self.lines if line != "done"]
        return before[-1] if before else ""

    def states(self) -> List[Dict[str, Any]]:
        return [json.loads(line[6:]) for line in self.lines if line.startswith("state ")]

    def journal(self) -> str:
        return json.loads(self.run("journal")[len("journal "):])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(20) == 0


@pytest.fixture
def hosts() -> Iterator[List[Host]]:
    made: List[Host] = []
    yield made
    for host in made:
        if host.process.poll() is None:
            host.process.kill()


def test_a_store_without_the_token_is_refused(inspector: Inspector, hosts: List[Host]) -> None:
    sock = connect(inspector, "wrong")
    assert sock.recv(4096).startswith(b"HTTP/1.1 403")
    host = Host(f"127.0.0.1:{port(inspector)}/wrong")
    hosts.append(host)
    host.run("send", "incrementButtonTapped")
    time.sleep(0.5)
    assert get(inspector, "/api/stores") == []
    assert host.states() == [{"count": 1, "isNumberFactLoading": False}]


def test_the_page_has_a_content_security_policy_and_no_external_assets(
    inspector: Inspector,
) -> None:
    headers, page = get(inspector, "/")
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy
    assert "unsafe-eval" not in policy
    for forbidden in ("http://", "https://", "innerHTML", "eval(", "new Function", "src="):
        assert forbidden not in page.replace('src=x', '')
    for element in ("state", "log", "slider", "jump", "dispatch-input", "dispatch", "export",
                    "test", "stores"):
        assert f'id="{element}"' in page


def test_malformed_and_hostile_lines_never_crash_the_server(inspector: Inspector) -> None:
    sock = connect(inspector, inspector.token)
    assert sock.recv(4096).startswith(b"HTTP/1.1 101")
    header = {"tcaJournal": 1, "feature": "counter", "version": 0, "state": {"count": 0}}
    junk = [b"\xff\xfe", b"{", b"[]", b'{"type":1}', b"[" * 200000, b'{"type":"version",'
            b'"version":"1","patch":5}', b'{"type":"reduction","version":-1}',
            b'{"type":"dropped","count":-5}', b'{"type":"version","version":1,"patch":'
            b'[{"op":"move","from":"/zz","path":"/a"}]}']
    sock.sendall(protocol.encode({"type": "hello", "store": "a/b", "header": header})
                 + b"\n".join(junk) + b"\n")
    until(lambda: get(inspector, "/api/stores") and get(inspector, "/api/stores")[0]["ignored"] >= 5)
    described = get(inspector, "/api/stores")[0]
    assert described["store"] == "s1" and described["connected"] is True
    state = get(inspector, "/api/stores/s1/state?version=1")
    assert "does not apply" in state["error"]
    assert get(inspector, "/api/stores/s1/state?version=0")["state"] == {"count": 0}
    # A line past the limit closes the connection; the session stays, disconnected.
    sock.sendall(b"x" * (protocol.MAX_LINE + 10))
    until(lambda: not get(inspector, "/api/stores")[0]["connected"], timeout=20)
    sock.close()


def test_a_store_past_its_budget_is_counted_not_kept(inspector: Inspector) -> None:
    sock = connect(inspector, inspector.token)
    sock.recv(4096)
    header = {"tcaJournal": 1, "feature": "counter", "version": 0, "state": {}}
    big = protocol.encode({"type": "entry", "line": {"send": "x" * 10000, "version": 1}})
    sock.sendall(protocol.encode({"type": "hello", "header": header}) + big * 20)
    until(lambda: get(inspector, "/api/stores")[0]["dropped"] >= 14)
    _, journal = get(inspector, "/api/stores/s1/journal")
    assert len(journal) < 64 * 1024
    sock.close()


def test_requests_are_bounded(inspector: Inspector) -> None:
    url = f"http://127.0.0.1:{port(inspector)}/api/stores/s1/dispatch?token={inspector.token}"
    request = urllib.request.Request(url, data=b"{" * 100, method="POST")
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=5)
    assert raised.value.code == 400
    request = urllib.request.Request(url, data=b"0" * (2 << 20), method="POST")
    # NB: the inspector answers 413 from the Content-Length and closes; whether the client sees
    # the answer or a broken pipe first depends on how far it got sending the body.
    with pytest.raises((urllib.error.URLError, ConnectionError)) as refused:
        urllib.request.urlopen(request, timeout=5)
    if isinstance(refused.value, urllib.error.HTTPError):
        assert refused.value.code == 413
    elif isinstance(refused.value, urllib.error.URLError):
        assert isinstance(refused.value.reason, ConnectionError), refused.value


def test_a_python_store_connects_and_obeys(inspector: Inspector, hosts: List[Host]) -> None:
    host = Host(f"127.0.0.1:{port(inspector)}/{inspector.token}")
    hosts.append(host)
    host.run("send", "incrementButtonTapped")
    host.run("send", "incrementButtonTapped")
    until(lambda: get(inspector, "/api/stores") and get(inspector, "/api/stores")[0]["rows"] == 2)
    sid = get(inspector, "/api/stores")[0]["store"]
    answers = {}

    def post(what: str, body: Any) -> None:
        url = f"http://127.0.0.1:{port(inspector)}/api/stores/{sid}/{what}?token={inspector.token}"
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            answers[what] = json.loads(response.read())

    for what, body in (("jump", {"version": 1}), ("dispatch", {"action": "decrementButtonTapped"}),
                       ("dispatch", {"action": "nope"})):
        answers.pop(what, None)
        thread = threading.Thread(target=post, args=(what, body))
        thread.start()
        until(lambda: what in answers, timeout=10)
        thread.join()
    assert answers["jump"]["ok"] is True
    assert answers["dispatch"]["ok"] is False and "nope" in answers["dispatch"]["error"]
    assert host.states() == [{"count": 1, "isNumberFactLoading": False},
                             {"count": 2, "isNumberFactLoading": False},
                             {"count": 1, "isNumberFactLoading": False},
                             {"count": 0, "isNumberFactLoading": False}]
    journal = host.journal()
    assert '{"jump":1,"state":{"count":1,"isNumberFactLoading":false},"version":3}' in journal
    assert replay(journal) == {"count": 0, "isNumberFactLoading": False}
    assert replay(journal, 2) == {"count": 2, "isNumberFactLoading": False}
    # The library replays jumps too.
    assert tca.Store.replay(journal).state == {"count": 0, "isNumberFactLoading": False}
    assert tca.Store.replay(journal, 3).state == {"count": 1, "isNumberFactLoading": False}
    until(lambda: get(inspector, f"/api/stores/{sid}/journal")[1] == journal)
    log = get(inspector, f"/api/stores/{sid}/log")
    assert [(r["version"], r["origin"]) for r in log] == [(1, "host"), (2, "host"), (3, "jump"),
                                                          (4, "host")]
    assert get(inspector, f"/api/stores/{sid}/state?version=3")["state"]["count"] == 1
    host.close()
    until(lambda: not get(inspector, "/api/stores")[0]["connected"])


def test_an_offline_journal_is_driven_again(tmp_path: Path) -> None:
    journal = counter_journal()
    _, segments = redrive(journal)
    steps = segments[0].steps
    assert [s.line.get("send", s.line.get("respond")) for s in steps][:4] == [
        "numberFactButtonTapped", "incrementButtonTapped", "numberFactButtonTapped", 2]
    assert steps[3].reductions[0].origin == "effect"
    assert state_at(journal, 99) == replay(journal)
    server = Inspector("127.0.0.1", 0)
    try:
        path = tmp_path / "saved.jsonl"
        path.write_text(journal)
        session = server.open_file(str(path))
        assert session.id == "file-saved" and not session.connected
        assert [r["origin"] for r in session.log()] == ["host", "host", "host", "effect"]
        assert session.journal() == journal
        assert session.state_at(4)["state"]["numberFact"] == "late"
        assert session.state_at(4)["patch"] == [
            {"op": "replace", "path": "/isNumberFactLoading", "value": False},
            {"op": "add", "path": "/numberFact", "value": "late"}]
    finally:
        server.server_close()


def test_the_written_test_passes_and_writes_no_code_from_the_session(tmp_path: Path) -> None:
    journal = counter_journal()
    evil = '"""\nimport os; os.system("false")  # \n'
    store = tca.Store("counter", clock="manual", seed=3, record=True, requests="queued")
    store.send("numberFactButtonTapped")
    store.respond(store.take_requests()[0]["id"], evil)
    for name, text in (("plain", journal), ("evil", store.journal())):
        written = write_test(text, name)
        assert "os.system" not in written.replace(repr(evil), "")
        path = tmp_path / f"test_{name}.py"
        path.write_text(written)
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              str(path)], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout


def test_parts() -> None:
    assert list(diff({"a": [1, 2], "b/c": 1}, {"a": [1, 3]})) == [
        {"op": "replace", "path": "/a/1", "value": 3}, {"op": "remove", "path": "/b~1c"}]
    session = Session("x", connected=True)
    session.handle({"type": "entry", "line": {}}, 10)  # before hello: ignored
    assert session.ignored == 1 and session.journal() == ""


class FakeInspector:
    """A listener that takes store connections as the inspector does, and lets a test speak
    the protocol's other side (or not read at all)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.buffer = b""

    def accept(self) -> socket.socket:
        self.listener.settimeout(20)
        sock, _ = self.listener.accept()
        sock.settimeout(20)
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(1)
        assert head.startswith(b"GET /store?token=tok HTTP/1.1\r\n"), head
        assert b"\r\nUpgrade: tca-store/1\r\n" in head
        sock.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: tca-store/1\r\n\r\n")
        self.buffer = b""
        return sock

    def message(self, sock: socket.socket) -> Dict[str, Any]:
        while b"\n" not in self.buffer:
            chunk = sock.recv(1 << 20)
            assert chunk, "the store closed the connection"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def until(self, sock: socket.socket, test: Any) -> List[Dict[str, Any]]:
        """The messages up to the first that passes `test`, included."""
        seen = []
        while not seen or not test(seen[-1]):
            seen.append(self.message(sock))
        return seen

    def drain(self, sock: socket.socket, quiet: float = 1.0) -> List[Dict[str, Any]]:
        """The messages that come until none has come for `quiet` seconds."""
        seen = []
        sock.settimeout(quiet)
        try:
            while True:
                while b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    seen.append(json.loads(line))
                chunk = sock.recv(1 << 20)
                assert chunk, "the store closed the connection"
                self.buffer += chunk
        except socket.timeout:
            return seen
        finally:
            sock.settimeout(20)

    def close(self) -> None:
        self.listener.close()


def test_a_hostile_inspector_gets_answers_and_the_store_reconnects(hosts: List[Host]) -> None:
    fake = FakeInspector()
    host = Host(f"127.0.0.1:{fake.port}/tok")
    hosts.append(host)
    try:
        sock = fake.accept()
        hello = fake.message(sock)
        assert hello["type"] == "hello" and hello["protocol"] == 1
        assert hello["feature"] == "counter" and hello["schema"]["feature"] == "counter"
        assert hello["header"]["state"] == {"count": 0, "isNumberFactLoading": False}
        assert hello["store"] == f"{hello['pid']}-1"
        hostile = [b"not json", b"[1,2]", b'{"type":5,"id":1}',
                   b'{"type":"jump","id":2,"version":"1"}', b'{"type":"jump","id":3,"version":-1}',
                   b'{"type":"jump","id":4,"version":1e400}',
                   b'{"type":"jump","id":5,"version":9}',
                   b'{"type":"dispatch","id":6}', b'{"type":"dispatch","id":7,"action":{"no":{}}}',
                   b'{"type":"evaluate","id":{"a":[1]}}', b"[" * 100000, b"\xff\xfe{",
                   b"x" * (2 << 20),
                   b'{"type":"dispatch","id":8,"action":"incrementButtonTapped"}']
        sock.sendall(b"\n".join(hostile) + b"\n")
        seen = fake.until(sock, lambda m: m["type"] == "ack" and m["id"] == 8)
        acks = [m for m in seen if m["type"] == "ack"]
        assert [a["id"] for a in acks] == [None, None, 1, 2, 3, 4, 5, 6, 7, {"a": [1]}, None,
                                           None, 8]
        assert all(a["ok"] is False and a["error"] for a in acks[:-1])
        assert acks[-1] == {"type": "ack", "id": 8, "ok": True}
        assert "no version 9" in acks[6]["error"] and "unknown command" in acks[9]["error"]
        # What the dispatch did came before its ack: the send, its reduction, the version.
        kinds = [m["type"] for m in seen[-4:]]
        assert kinds == ["entry", "reduction", "version", "ack"], seen[-4:]
        assert seen[-4]["line"] == {"send": "incrementButtonTapped", "version": 1}
        assert seen[-2]["patch"] == [{"op": "replace", "path": "/count", "value": 1}]
        until(lambda: host.states() == [{"count": 1, "isNumberFactLoading": False}])
        # The inspector goes away: the store reconnects (with back-off) and starts over.
        sock.close()
        host.run("send", "incrementButtonTapped")
        again = fake.accept()
        host.run("send", "decrementButtonTapped")
        messages = fake.until(again, lambda m: m["type"] == "version" and m["version"] == 3)
        assert any("state" in m for m in messages if m["type"] == "version")
        assert messages[0]["type"] == "hello" and messages[0]["store"] == hello["store"]
        assert [m["line"] for m in messages if m["type"] == "entry"][:2] == [
            {"send": "incrementButtonTapped", "version": 1},
            {"send": "incrementButtonTapped", "version": 2}]
        again.close()
        host.close()
    finally:
        fake.close()


def test_a_slow_inspector_costs_a_bounded_buffer(hosts: List[Host]) -> None:
    fake = FakeInspector()
    host = Host(f"127.0.0.1:{fake.port}/tok")
    hosts.append(host)
    try:
        sock = fake.accept()
        assert fake.message(sock)["type"] == "hello"
        # Nothing is read while the host sends: its sends never wait for the inspector.
        host.run("send", "incrementButtonTapped", 60000)
        host.run("send", "incrementButtonTapped")
        seen = fake.until(sock, lambda m: m["type"] == "dropped")
        assert seen[-1]["count"] > 0
        whole = fake.until(sock, lambda m: m["type"] == "version" and "state" in m)
        assert whole[-1]["state"]["count"] == whole[-1]["version"]
        # NB: the host's sends refill the buffer while the inspector reads, so more drops and
        # whole states may follow; once all is read, the next version follows the last one read.
        versions = [m for m in whole + fake.drain(sock) if m["type"] == "version"]
        caught_up = bool(versions) and versions[-1]["version"] == 60001
        host.run("send", "incrementButtonTapped")
        last = fake.until(sock, lambda m: m["type"] == "version")[-1]
        assert last["version"] == 60002
        if caught_up:
            assert "patch" in last, last
        else:  # the last version was dropped: this one goes out whole
            assert last["state"]["count"] == 60002
        # Recording only for the inspector, the store keeps its bound of lines, folded into a
        # checkpoint (a header, a checkpoint, at most 10,000 lines).
        journal = host.journal().splitlines()
        assert len(journal) <= 10_002 and '"checkpoint"' in journal[1]
        sock.close()
        host.close()
    finally:
        fake.close()


def test_without_the_variable_nothing_is_started(hosts: List[Host]) -> None:
    plain = Host(None)
    attached = Host("127.0.0.1:9/tok")
    malformed = Host("no port")
    hosts.extend([plain, attached, malformed])
    counts = [int(h.run("threads").split()[1]) for h in (plain, attached, malformed)]
    assert counts[1] == counts[0] + 1 and counts[2] == counts[0]
    for host in (plain, attached, malformed):
        host.run("send", "incrementButtonTapped")
        assert host.states() == [{"count": 1, "isNumberFactLoading": False}]
        host.close()
