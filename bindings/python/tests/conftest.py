"""Shared fixtures: a virtual X display (Xvfb) for the Tk tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "build" / "screenshots"


def _unavailable(reason: str) -> None:
    # NB: on CI (and under `make test-python`, which installs Xvfb) a missing X server is a
    # failure, not a skip: the GUI test must run there.
    if os.environ.get("CI") or os.environ.get("TCA_REQUIRE_XVFB"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def xdisplay():
    """Starts Xvfb on a free display number; yields ":N" and stops it afterwards."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        _unavailable("Xvfb is not installed (make test-python installs it: apt-get install xvfb)")
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", "480x320x24", "-nolisten", "tcp"],
        pass_fds=[write_end],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_end)
    with os.fdopen(read_end) as ready:
        number = ready.readline().strip()  # Xvfb writes its display number once it is ready
    if not number:
        process.kill()
        _unavailable("Xvfb did not start: " + process.stderr.read().decode(errors="replace"))
    display = f":{number}"
    try:
        yield display
    finally:
        process.terminate()
        process.wait(5)


@pytest.fixture
def tk_root(xdisplay, monkeypatch):
    try:
        import tkinter
    except ImportError as error:  # pragma: no cover - a Python built without Tk
        _unavailable(f"this Python has no tkinter ({error}); install Tk (apt-get install tk8.6)")
    monkeypatch.setenv("DISPLAY", xdisplay)
    root = tkinter.Tk()
    yield root
    root.destroy()


@pytest.fixture
def examples_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    return EXAMPLES


def screenshot(display: str, name: str) -> Path | None:
    """Saves the screen of `display` as build/screenshots/NAME.png (needs xwd); None without."""
    xwd = shutil.which("xwd")
    if xwd is None:
        return None
    raw = subprocess.run(
        [xwd, "-root", "-silent", "-display", display], capture_output=True, check=True
    ).stdout
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    path.write_bytes(xwd_to_png(raw))
    return path


def xwd_to_png(data: bytes) -> bytes:
    """Converts an XWD screen dump (24/32-bit TrueColor ZPixmap, as Xvfb's) to PNG."""
    import struct
    import zlib

    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    red_mask, green_mask, blue_mask = fields[14], fields[15], fields[16]
    ncolors = fields[19]
    if bits_per_pixel != 32:
        raise ValueError(f"xwd_to_png handles 32 bits per pixel, not {bits_per_pixel}")
    pixels = data[header_size + 12 * ncolors :]
    order = "<" if byte_order == 0 else ">"

    def shift(mask: int) -> int:
        return (mask & -mask).bit_length() - 1

    shifts = shift(red_mask), shift(green_mask), shift(blue_mask)
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        line = pixels[y * bytes_per_line : y * bytes_per_line + 4 * width]
        for (value,) in struct.iter_unpack(order + "I", line):
            rows += bytes(((value >> shifts[0]) & 255, (value >> shifts[1]) & 255, (value >> shifts[2]) & 255))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + chunk(b"IEND", b"")
    )


sys.dont_write_bytecode = True
