"""The inspector's server: one page, a JSON API, and store connections, on one port.

    $ python -m tca devtools [--port 7700] [--host 127.0.0.1] [FILE.jsonl]
    http://127.0.0.1:7700/?token=6f1c…

Safe by default (docs/devtools.md, "Safety"): it binds 127.0.0.1 unless `--host` says
otherwise; every request and every store connection must carry the token it prints (compared in
constant time), else it gets 403; what a store sends is parsed as JSON and shown as text, never
evaluated; lines, request bodies, the number of stores and each store's memory are bounded; and
the page runs under a Content-Security-Policy that allows its own inline script and style only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import re
import secrets
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, quote, urlsplit

from . import protocol
from .session import DEFAULT_BUDGET, Session, from_journal

__all__ = ["Inspector", "main"]

MAX_BODY = 1024 * 1024
MAX_STORES = 256
MAX_PENDING = 64
ACK_TIMEOUT = 5.0
_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _page() -> Tuple[bytes, str]:
    """The page, and its Content-Security-Policy (hashes of its inline script and style)."""
    text = (Path(__file__).parent / "page.html").read_text(encoding="utf-8")
    hashes = {}
    for tag in ("script", "style"):
        body = text.split(f"<{tag}>", 1)[1].split(f"</{tag}>", 1)[0]
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        hashes[tag] = f"'sha256-{digest}'"
    policy = (
        "default-src 'none'; "
        f"script-src {hashes['script']}; style-src {hashes['style']}; "
        "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    return text.encode(), policy


class _Store:
    """A live store's connection: its socket, for commands, and the acks awaited."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.write_lock = threading.Lock()
        self.pending: Dict[int, Tuple[threading.Event, List[Dict[str, Any]]]] = {}
        self.next_id = 1

    def command(self, message: Dict[str, Any]) -> Dict[str, Any]:
        """Sends a command and waits for its ack (ACK_TIMEOUT at most)."""
        with self.write_lock:
            if len(self.pending) >= MAX_PENDING:
                return {"ok": False, "error": "too many commands wait for the store"}
            cid = self.next_id
            self.next_id += 1
            event: threading.Event = threading.Event()
            answer: List[Dict[str, Any]] = []
            self.pending[cid] = (event, answer)
            try:
                self.sock.sendall(protocol.encode(dict(message, id=cid)))
            except OSError as error:
                self.pending.pop(cid, None)
                return {"ok": False, "error": f"the store's connection failed: {error}"}
        event.wait(ACK_TIMEOUT)
        with self.write_lock:
            self.pending.pop(cid, None)
        if not answer:
            return {"ok": False, "error": "the store did not answer"}
        ack = answer[0]
        out: Dict[str, Any] = {"ok": ack.get("ok") is True, "id": cid}
        if not out["ok"]:
            out["error"] = str(ack.get("error", "refused"))[:500]
        return out

    def acked(self, message: Dict[str, Any]) -> None:
        cid = message.get("id")
        with self.write_lock:
            waiting = self.pending.get(cid) if isinstance(cid, int) else None
        if waiting is not None:
            waiting[1].append(message)
            waiting[0].set()


class Inspector(ThreadingHTTPServer):
    """The server (see the module's documentation). `url` is the page's address."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self, host: str = "127.0.0.1", port: int = 7700, *, token: Optional[str] = None,
        budget: int = DEFAULT_BUDGET, verbose: bool = False,
    ) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        super().__init__((host, port), _Handler)
        self.token = token or secrets.token_hex(24)
        self.budget = budget
        self.verbose = verbose
        self.page, self.policy = _page()
        self.sessions: Dict[str, Session] = {}
        self.stores: Dict[str, _Store] = {}
        self.lock = threading.Lock()
        self.count = 0
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        self.url = f"http://{shown}:{self.server_address[1]}/?token={self.token}"

    def authorized(self, given: Optional[str]) -> bool:
        return given is not None and hmac.compare_digest(
            given.encode("utf-8", "replace"), self.token.encode()
        )

    def add(self, wanted: Any, make: Any) -> Optional[Session]:
        """A new session under the id `wanted` (when it is a free, plain id) or a fresh one;
        None when MAX_STORES are connected."""
        with self.lock:
            if len(self.sessions) >= MAX_STORES:
                gone = [sid for sid, s in self.sessions.items() if not s.connected]
                if not gone:
                    return None
                del self.sessions[gone[0]]
            self.count += 1
            sid = wanted if isinstance(wanted, str) and _ID.fullmatch(wanted) else ""
            if not sid or sid in self.sessions:
                sid = f"s{self.count}"
            session: Session = make(sid)
            self.sessions[sid] = session
            return session

    def open_file(self, path: str) -> Session:
        text = Path(path).read_text(encoding="utf-8")
        name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(path).stem)[:40] or "journal"
        session = self.add(f"file-{name}", lambda sid: from_journal(sid, text, self.budget))
        assert session is not None
        return session


class _Handler(BaseHTTPRequestHandler):
    server: Inspector
    protocol_version = "HTTP/1.1"
    # NB: unbuffered, so that nothing a store sends after its upgrade request sits in a buffer.
    rbufsize = 0
    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    # ---- responses ---------------------------------------------------------------------------

    def _send(
        self, status: int, body: bytes, content_type: str, extra: Optional[Dict[str, str]] = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", self.server.policy)
        self.send_header("Connection", "close")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"ok": False, "error": message})

    def _query(self) -> Tuple[str, Dict[str, List[str]]]:
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query, max_num_fields=20)

    def _allowed(self, query: Dict[str, List[str]]) -> bool:
        token = query.get("token", [None])[0] or self.headers.get("X-TCA-Token")
        if self.server.authorized(token):
            return True
        self._error(403, "a token is needed: the one the inspector printed")
        return False

    def _session(self, sid: str) -> Optional[Session]:
        with self.server.lock:
            session = self.server.sessions.get(sid)
        if session is None:
            self._error(404, "no such store")
        return session

    # ---- requests ----------------------------------------------------------------------------

    def do_GET(self) -> None:
        try:
            path, query = self._query()
        except ValueError:
            self._error(400, "a malformed query")
            return
        if not self._allowed(query):
            return
        if path == "/":
            self._send(200, self.server.page, "text/html; charset=utf-8")
        elif path == "/store":
            self._store()
        elif path == "/api/stores":
            with self.server.lock:
                sessions = list(self.server.sessions.values())
            self._json(200, [s.describe() for s in sessions])
        elif path.startswith("/api/stores/"):
            self._store_get(path, query)
        else:
            self._error(404, "no such page")

    def _store_get(self, path: str, query: Dict[str, List[str]]) -> None:
        parts = path.split("/")
        if len(parts) != 5:
            self._error(404, "no such page")
            return
        session = self._session(parts[3])
        if session is None:
            return
        what = parts[4]
        if what == "log":
            since = query.get("since", ["0"])[0]
            self._json(200, session.log(int(since) if since.isdigit() else 0))
        elif what == "state":
            version = query.get("version", [""])[0]
            if not version.isdigit() or len(version) > 20:
                self._error(400, "version: a count, 0 or more")
                return
            self._json(200, session.state_at(int(version)))
        elif what == "journal":
            name = f"{session.id}.jsonl"
            self._send(200, session.journal().encode(), "application/x-ndjson",
                       {"Content-Disposition": f'attachment; filename="{name}"'})
        elif what == "test":
            from .testgen import write_test

            try:
                text = write_test(session.journal(), session.feature or "session")
            except Exception as error:  # NB: a stranger's journal: any failure is reported
                self._error(422, f"no test for this session: {error}"[:1000])
                return
            name = "test_" + re.sub(r"[^A-Za-z0-9_]", "_", session.id) + ".py"
            self._send(200, text.encode(), "text/x-python; charset=utf-8",
                       {"Content-Disposition": f'attachment; filename="{name}"'})
        else:
            self._error(404, "no such page")

    def do_POST(self) -> None:
        try:
            path, query = self._query()
        except ValueError:
            self._error(400, "a malformed query")
            return
        if not self._allowed(query):
            return
        parts = path.split("/")
        if len(parts) != 5 or parts[:3] != ["", "api", "stores"]:
            self._error(404, "no such page")
            return
        length = self.headers.get("Content-Length", "")
        if not length.isdigit() or int(length) > MAX_BODY:
            self._error(413, f"a body of at most {MAX_BODY} bytes, with its Content-Length")
            return
        body = self._read(int(length))
        try:
            request = json.loads(body)
        except (ValueError, RecursionError):
            self._error(400, "the body is not JSON")
            return
        if not isinstance(request, dict):
            self._error(400, "the body is not a JSON object")
            return
        session = self._session(parts[3])
        if session is None:
            return
        with self.server.lock:
            store = self.server.stores.get(session.id)
        if store is None or not session.connected:
            self._error(409, "this store is not connected (a saved journal, or gone)")
            return
        if parts[4] == "dispatch" and "action" in request:
            self._json(200, store.command({"type": "dispatch", "action": request["action"]}))
        elif parts[4] == "jump" and isinstance(request.get("version"), int):
            self._json(200, store.command({"type": "jump", "version": request["version"]}))
        else:
            self._error(400, "dispatch takes {\"action\": A}, jump {\"version\": V}")

    def _read(self, length: int) -> bytes:
        data = bytearray()
        while len(data) < length:
            chunk = self.rfile.read(length - len(data))
            if not chunk:
                break
            data += chunk
        return bytes(data)

    # ---- a store's connection ----------------------------------------------------------------

    def _store(self) -> None:
        upgrade = self.headers.get("Upgrade", "")
        if upgrade.strip().lower() != protocol.UPGRADE:
            self._error(426, f"a store connects with Upgrade: {protocol.UPGRADE}")
            return
        self.send_response(101)
        self.send_header("Upgrade", protocol.UPGRADE)
        self.send_header("Connection", "Upgrade")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        sock: socket.socket = self.connection
        sock.settimeout(1.0)
        session: Optional[Session] = None
        store = _Store(sock)
        waited = 0
        try:
            for line in protocol.lines(sock):
                if line is None:
                    waited += 1
                    if session is None and waited > self.timeout:
                        return  # NB: no hello in time
                    continue
                try:
                    message = protocol.parse(line)
                except ValueError:
                    if session is not None:
                        session.ignored += 1
                    continue
                if session is None:
                    if message.get("type") != "hello" or not isinstance(
                        message.get("header"), dict
                    ):
                        return
                    session = self.server.add(
                        message.get("store"),
                        lambda sid: Session(sid, connected=True, budget=self.server.budget),
                    )
                    if session is None:
                        return
                    with self.server.lock:
                        self.server.stores[session.id] = store
                if message.get("type") == "ack":
                    store.acked(message)
                    continue
                session.handle(message, len(line))
        except (protocol.LineTooLong, OSError):
            pass
        finally:
            if session is not None:
                with session.lock:
                    session.connected = False
                with self.server.lock:
                    self.server.stores.pop(session.id, None)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tca devtools",
        description="The inspector: a page showing libtca stores, live (TCA_DEVTOOLS) or saved.",
    )
    parser.add_argument("journal", nargs="?", metavar="FILE.jsonl", help="a saved journal")
    parser.add_argument("--port", type=int, default=7700, help="default 7700; 0: any free port")
    parser.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine)")
    parser.add_argument("--max-store-bytes", type=int, default=DEFAULT_BUDGET,
                        help="the memory kept for each store (default 64 MiB)")
    parser.add_argument("--verbose", action="store_true", help="log each request to stderr")
    arguments = parser.parse_args(argv)
    try:
        server = Inspector(arguments.host, arguments.port,
                           budget=arguments.max_store_bytes, verbose=arguments.verbose)
    except OSError as error:
        print(f"python -m tca devtools: {arguments.host}:{arguments.port}: {error}",
              file=sys.stderr)
        return 1
    print(server.url, flush=True)
    if arguments.journal:
        try:
            session = server.open_file(arguments.journal)
        except Exception as error:  # NB: the file is read as data: any failure is reported
            print(f"python -m tca devtools: {arguments.journal}: {error}", file=sys.stderr)
            server.server_close()
            return 1
        print(f"{arguments.journal}: store {quote(session.id)}, {len(session.rows)} actions",
              file=sys.stderr)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
