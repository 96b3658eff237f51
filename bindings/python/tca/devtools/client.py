"""A store that an inspector sees, from a Python host: the store side of the protocol.

    from tca.devtools.client import DevtoolsStore

    store = DevtoolsStore("counter")   # connects to $TCA_DEVTOOLS=HOST:PORT/TOKEN
    store.subscribe(lambda state: redraw(state))
    store.send("incrementButtonTapped")
    ...
    store.pump()                       # now and then (each frame): applies the inspector's
                                       # dispatches and jumps, sends what happened

A `DevtoolsStore` holds a recording `tca.Store` (`.store`) and speaks the inspector protocol
(docs/devtools.md) for it: the hello with the journal's header, each journal line, each action
reduced with its origin, each new version with its patch. It applies the inspector's commands on
the host's thread, in `pump()` (which every call that changes the store also runs): a dispatch
is a `send`; a jump makes a new store from the state the session replays to at that version
(`redrive.state_at`), keeps the effect handlers and subscribers, and counts versions on from the
old store's, so the session's versions only grow; the session's journal records the jump as a
`{"jump":V,"state":S,"version":N}` line.

This is the bridge for Python hosts until the library connects its stores itself (issue 39).
Its costs: each `pump()` reads the store's journal (`store.journal()`, the whole of it), and
lines are written by a thread of its own through a bounded queue: when the inspector is slow or
gone, lines past the queue are dropped and counted (a `dropped` message, then a full state), and
the host never waits. It does not reconnect.
"""

from __future__ import annotations

import ctypes
import json
import os
import queue
import socket
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import _native
from ..errors import TCAError, error_for
from ..store import Action, Store
from . import protocol
from .redrive import state_at
from .session import diff

__all__ = ["DevtoolsStore", "parse_address"]

QUEUE = 10000


def parse_address(value: str) -> Tuple[str, int, str]:
    """`HOST:PORT` or `HOST:PORT/TOKEN` (HOST a name, IPv4, or `[IPv6]`) as its parts."""
    address, _, token = value.partition("/")
    if address.startswith("["):
        host, _, rest = address[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"TCA_DEVTOOLS={value!r}: HOST:PORT or HOST:PORT/TOKEN")
    return host, int(port), token


class DevtoolsStore:
    """A recording store connected to an inspector (see the module's documentation). `address`:
    `HOST:PORT/TOKEN`, else `$TCA_DEVTOOLS`; the other arguments are `tca.Store`'s."""

    def __init__(
        self,
        feature: str,
        state: Any = None,
        *,
        address: Optional[str] = None,
        clock: str = "real",
        seed: Optional[int] = None,
        requests: str = "callback",
        answers: str = "any_thread",
        timeout: float = 5.0,
    ) -> None:
        self.feature = feature
        self._options: Dict[str, Any] = dict(
            clock=clock, seed=seed, requests=requests, answers=answers, record=True
        )
        self.store = self._new_store(state)
        self._base = 0
        self._lines = 0
        self._inner_version = self.store.version
        self._journal: List[str] = []
        self._handlers: Dict[str, Callable[..., Any]] = {}
        self._subscribers: List[Callable[[Any], Any]] = []
        self._told = self.version
        self._commands: "queue.Queue[Dict[str, Any]]" = queue.Queue(1000)
        self._out: "queue.Queue[Optional[bytes]]" = queue.Queue(QUEUE)
        self.dropped = 0
        self._sock: Optional[socket.socket] = None
        value = address if address is not None else os.environ.get("TCA_DEVTOOLS", "")
        if value:
            self._connect(value, timeout)
        self.pump()

    # ---- the store ---------------------------------------------------------------------------

    def _new_store(self, state: Any) -> Store:
        store = Store(self.feature, state, **self._options)
        status = _native.lib.tca_store_log_reductions(store._h, 1)
        if status:
            raise error_for(status)
        return store

    @property
    def version(self) -> int:
        """The session's version: the store's, counted on across jumps."""
        return self._base + self.store.version

    @property
    def state(self) -> Any:
        return self.store.state

    def send(self, action: Action) -> None:
        self.store.send(action)
        self.pump()

    def effect(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """`tca.Store.effect`, kept across jumps."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._handlers[name] = fn
            self.store.effect(name)(fn)
            return fn

        return register

    def subscribe(self, fn: Callable[[Any], Any]) -> None:
        """Calls `fn(state)` from `pump()` each time the version moved (a jump too)."""
        self._subscribers.append(fn)

    def respond(self, request_id: int, value: Any) -> None:
        self.store.respond(request_id, value)
        self.pump()

    def fail(self, request_id: int, message: str) -> None:
        self.store.fail(request_id, message)
        self.pump()

    def complete(self, request_id: int) -> None:
        self.store.complete(request_id)
        self.pump()

    def advance(self, ms: int) -> None:
        self.store.advance(ms)
        self.pump()

    def poll(self) -> int:
        ran = self.store.poll()
        self.pump()
        return ran

    def take_requests(self) -> List[Dict[str, Any]]:
        taken = self.store.take_requests()
        self.pump()
        return taken

    def journal(self) -> str:
        """The session's journal: the store's lines, and a line for each jump."""
        self._forward()
        return "".join(line + "\n" for line in self._journal)

    def close(self) -> None:
        if self._sock is not None:
            self._put(None)
        self.store.close()

    def __enter__(self) -> DevtoolsStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---- the protocol ------------------------------------------------------------------------

    def _connect(self, value: str, timeout: float) -> None:
        host, port, token = parse_address(value)
        sock = socket.create_connection((host, port), timeout)
        target = f"/store?token={token}" if token else "/store"
        sock.sendall(
            f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: {protocol.UPGRADE}\r\n"
            "Connection: Upgrade\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk or len(answer) > 65536:
                break
            answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            sock.close()
            status = head.split(b"\r\n", 1)[0].decode("latin-1")
            raise ConnectionError(f"the inspector at {host}:{port} refused the store: {status}")
        sock.settimeout(None)
        self._sock = sock
        threading.Thread(target=self._read, args=(sock, rest), daemon=True).start()
        threading.Thread(target=self._write, args=(sock,), daemon=True).start()
        header = json.loads(self.store.journal().split("\n", 1)[0])
        self._put_message({
            "type": "hello", "protocol": protocol.PROTOCOL,
            "store": f"{os.getpid()}-{id(self) & 0xFFFF:x}", "pid": os.getpid(),
            "feature": self.feature, "library": _native.lib.tca_version().decode(), "schema": None, "header": header,
        })

    def _read(self, sock: socket.socket, initial: bytes) -> None:
        try:
            for line in protocol.lines(sock, initial=initial):
                if line is None:
                    continue
                try:
                    message = protocol.parse(line)
                except ValueError:
                    continue
                try:
                    self._commands.put_nowait(message)
                except queue.Full:
                    pass
        except (OSError, protocol.LineTooLong):
            pass

    def _write(self, sock: socket.socket) -> None:
        while True:
            data = self._out.get()
            if data is None:
                break
            try:
                sock.sendall(data)
            except OSError:
                break
        try:
            # NB: shutdown first: it ends the connection even while the reader waits in recv.
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

    def _put(self, data: Optional[bytes]) -> bool:
        try:
            self._out.put_nowait(data)
            return True
        except queue.Full:
            return False

    def _put_message(self, message: Dict[str, Any]) -> None:
        if self._sock is None:
            return
        if self.dropped and self._put(protocol.encode({"type": "dropped", "count": self.dropped})):
            self.dropped = 0
            self._resync = True
        if not self._put(protocol.encode(message)):
            self.dropped += 1

    _resync = False

    def pump(self) -> None:
        """Applies the inspector's commands, then sends what happened since the last pump and
        tells the subscribers when the version moved. Call it on the host's thread."""
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                break
            self._command(command)
        self._forward()
        if self.version != self._told:
            self._told = self.version
            state = self.store.state
            for fn in list(self._subscribers):
                fn(state)

    def _command(self, command: Dict[str, Any]) -> None:
        kind = command.get("type")
        cid = command.get("id")
        try:
            if kind == "dispatch":
                self.store.send(json.dumps(command.get("action")).encode())
            elif kind == "jump":
                version = command.get("version")
                if not isinstance(version, int) or not 0 <= version <= self.version:
                    raise ValueError(f"no version {version!r} in this session")
                self._jump(version)
            else:
                raise ValueError(f"unknown command {str(kind)[:40]!r}")
        except (TCAError, ValueError, TypeError) as error:
            self._forward()
            self._put_message({"type": "ack", "id": cid, "ok": False, "error": str(error)})
            return
        self._forward()
        self._put_message({"type": "ack", "id": cid, "ok": True})

    def _jump(self, version: int) -> None:
        self._forward()
        before = self.store.state
        state = state_at(self.journal(), version)
        store = self._new_store(json.dumps(state))
        for name, fn in self._handlers.items():
            store.effect(name)(fn)
        old, self.store = self.store, store
        old.close()
        landed = self._base + self._inner_version + 1
        self._base = landed
        self._lines = 1
        self._inner_version = 0
        line = {"jump": version, "state": state, "version": landed}
        self._journal.append(json.dumps(line, separators=(",", ":")))
        self._put_message({"type": "entry", "line": line})
        self._put_message({"type": "version", "version": landed,
                           "patch": list(diff(before, state))})

    def _forward(self) -> None:
        store = self.store
        lines = store.journal().split("\n")
        if not self._journal:
            self._journal.append(lines[0])
            self._lines = 1
        for raw in lines[self._lines:]:
            if not raw:
                continue
            line = json.loads(raw)
            if self._base and isinstance(line.get("version"), int):
                line["version"] += self._base
                raw = json.dumps(line, separators=(",", ":"))
            self._journal.append(raw)
            self._put_message({"type": "entry", "line": line})
        self._lines = len(lines) - (1 if lines[-1] == "" else 0)
        out = ctypes.c_void_p()
        length = ctypes.c_size_t()
        status = _native.lib.tca_store_take_reductions(
            store._h, ctypes.byref(out), ctypes.byref(length)
        )
        if status:
            raise error_for(status)
        taken = json.loads(_native.take_string(out.value, length.value))
        before, after = self._inner_version, store.version
        sequential = after - before == len(taken)
        for i, reduction in enumerate(taken):
            self._put_message({
                "type": "reduction", "origin": reduction.get("origin"),
                "action": reduction.get("action"),
                "version": self._base + (before + i + 1 if sequential else after),
            })
        if after != before or self._resync:
            message: Dict[str, Any] = {"type": "version", "version": self._base + after}
            if self._resync:
                message["state"] = store.snapshot()
                self._resync = False
            else:
                message["patch"] = store.patch(before)
            self._put_message(message)
            self._inner_version = after
