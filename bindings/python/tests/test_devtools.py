"""The inspector without a browser: the token, hostile store connections, the protocol client,
offline journals and the written tests (python -m tca devtools; docs/devtools.md)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

import tca
from tca.devtools import protocol
from tca.devtools.client import DevtoolsStore, parse_address
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


def test_a_store_without_the_token_is_refused(inspector: Inspector) -> None:
    sock = connect(inspector, "wrong")
    assert sock.recv(4096).startswith(b"HTTP/1.1 403")
    with pytest.raises(ConnectionError):
        DevtoolsStore("counter", address=f"127.0.0.1:{port(inspector)}")
    assert get(inspector, "/api/stores") == []


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


def test_the_client_dispatches_and_jumps(inspector: Inspector) -> None:
    store = DevtoolsStore("counter", clock="manual",
                          address=f"127.0.0.1:{port(inspector)}/{inspector.token}")
    seen = []
    store.subscribe(seen.append)
    store.send("incrementButtonTapped")
    store.send("incrementButtonTapped")
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
        until(lambda: (store.pump(), what in answers)[1])
        thread.join()
    assert answers["jump"]["ok"] is True
    assert answers["dispatch"]["ok"] is False and "nope" in answers["dispatch"]["error"]
    assert seen == [{"count": 1, "isNumberFactLoading": False},
                    {"count": 2, "isNumberFactLoading": False},
                    {"count": 1, "isNumberFactLoading": False},
                    {"count": 0, "isNumberFactLoading": False}]
    assert store.version == 4
    journal = store.journal()
    assert '{"jump":1,"state":{"count":1,"isNumberFactLoading":false},"version":3}' in journal
    assert replay(journal) == {"count": 0, "isNumberFactLoading": False}
    assert replay(journal, 2) == {"count": 2, "isNumberFactLoading": False}
    until(lambda: get(inspector, f"/api/stores/{sid}/journal")[1] == journal)
    log = get(inspector, f"/api/stores/{sid}/log")
    assert [(r["version"], r["origin"]) for r in log] == [(1, "host"), (2, "host"), (3, "jump"),
                                                          (4, "host")]
    assert get(inspector, f"/api/stores/{sid}/state?version=3")["state"]["count"] == 1
    store.close()
    until(lambda: not get(inspector, "/api/stores")[0]["connected"])


def test_an_offline_journal_is_driven_again(tmp_path: Path) -> None:
    journal = counter_journal()
    _, segments = redrive(journal)
    steps = segments[0].steps
    assert [s.line.get("send", s.line.get("respond")) for s in steps][:4] == [
        {"numberFactButtonTapped": {}}, {"incrementButtonTapped": {}},
        {"numberFactButtonTapped": {}}, 2]
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
    assert parse_address("[::1]:7700/abc") == ("::1", 7700, "abc")
    assert parse_address("localhost:1") == ("localhost", 1, "")
    with pytest.raises(ValueError):
        parse_address("nohost")
    assert list(diff({"a": [1, 2], "b/c": 1}, {"a": [1, 3]})) == [
        {"op": "replace", "path": "/a/1", "value": 3}, {"op": "remove", "path": "/b~1c"}]
    session = Session("x", connected=True)
    session.handle({"type": "entry", "line": {}}, 10)  # before hello: ignored
    assert session.ignored == 1 and session.journal() == ""
