"""The driver of `make bench`: runs every benchmark program, prints one table, writes JSON.

    build/venv/bin/python Benchmarks/run.py --bench-dir build/bench --lib build/lib/libtca.so.0 \\
        --out build/bench.json

Each program prints one JSON line per row (progress goes to stderr):
    {"group", "workload", "unit", "note"?, "ours": side, "alt": side}
    side = {"label", "kind", "median", "min", "max", "samples", "iterations"} or {"label", "kind", "na"}
The driver adds the ratio (ours / alternative, by medians) and a reading of it. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GROUP_ORDER = ["JSON", "Kernel", "C ABI", "Python", "Memory"]


def run_program(name: str, command: list[str], env: dict[str, str]) -> list[dict[str, Any]]:
    print(f"== {name}: {' '.join(command)}", file=sys.stderr, flush=True)
    started = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, env=env, cwd=ROOT, text=True)
    if result.returncode != 0:
        sys.exit(f"run.py: {name} failed with exit code {result.returncode}")
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    if not rows:
        sys.exit(f"run.py: {name} printed no rows")
    print(f"   {len(rows)} rows in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    return rows


# -- reading a row ---------------------------------------------------------------------------------

def ratio_of(row: dict[str, Any]) -> float | None:
    ours, alt = row["ours"], row["alt"]
    if "median" not in ours or "median" not in alt or not alt["median"]:
        return None
    return ours["median"] / alt["median"]


def reading_of(row: dict[str, Any], ratio: float | None) -> str:
    if ratio is None:
        return ""
    kind = row["alt"]["kind"]
    if kind == "competitor":
        return f"{1 / ratio:.1f}x faster" if ratio < 1 else f"{ratio:.1f}x slower"
    if kind == "floor":
        return f"{ratio:.1f}x the floor" if ratio >= 1 else f"{1 / ratio:.1f}x under the floor"
    if kind == "baseline":
        change = (ratio - 1) * 100
        return "stable" if abs(change) < 5 else f"{change:+.0f}%"
    return f"{ratio:.1f}x the reference"


def figure(value: float, unit: str) -> str:
    if unit == "ns/op":
        for scale, suffix in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
            if value >= scale:
                return f"{value / scale:.3g} {suffix}"
        return f"{value:.3g} ns"
    if unit == "bytes":
        return f"{value:.0f} B"
    if unit == "KiB":
        return f"{value / 1024:.1f} MiB" if value >= 10240 else f"{value:.0f} KiB"
    return f"{value:.3g} {unit}"


def side_text(side: dict[str, Any], unit: str) -> str:
    if "na" in side:
        return f"n/a ({side['na']})"
    text = figure(side["median"], unit)
    if side["samples"] > 1:
        text += f" [{figure(side['min'], unit)}-{figure(side['max'], unit)}]"
    return text


def print_table(rows: list[dict[str, Any]], settings: dict[str, Any]) -> None:
    headers = ["workload", "ours", "", "alternative", "", "ours/alt", "reading"]
    table: list[list[str]] = []
    notes: list[str] = []
    groups: list[tuple[str, list[list[str]]]] = []
    for group in GROUP_ORDER + sorted({r["group"] for r in rows} - set(GROUP_ORDER)):
        lines = []
        for row in (r for r in rows if r["group"] == group):
            workload = row["workload"]
            if row.get("note"):
                notes.append(row["note"])
                workload += f" [{len(notes)}]"
            ratio = row["ratio"]
            line = [
                workload,
                row["ours"]["label"], side_text(row["ours"], row["unit"]),
                row["alt"]["label"], side_text(row["alt"], row["unit"]),
                "-" if ratio is None else f"{ratio:.3g}",
                row["reading"],
            ]
            lines.append(line)
            table.append(line)
        if lines:
            groups.append((group, lines))
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, h in enumerate(headers)]
    # NB: an n/a side can be long; let it overflow its column rather than widen every row.
    widths[2] = min(widths[2], 30)
    widths[4] = min(widths[4], 30)

    def render(cells: list[str]) -> str:
        out = ""
        for i, cell in enumerate(cells):
            out += cell.ljust(widths[i]) + ("  " if i < len(cells) - 1 else "")
        return out.rstrip()

    print()
    print(f"libtca benchmarks: median of {settings['samples']} samples [min-max] per figure; "
          f"ratio = ours / alternative (medians, same run)")
    print(render(headers))
    for group, lines in groups:
        print(f"-- {group}")
        for line in lines:
            print(render(line))
    if notes:
        print()
        for i, note in enumerate(notes, 1):
            print(f"[{i}] {note}")


# -- metadata ------------------------------------------------------------------------------------

def command_output(command: list[str]) -> str | None:
    try:
        return subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                              timeout=30).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def metadata(settings: dict[str, Any], seconds: float, load_before: list[float]) -> dict[str, Any]:
    dirty = command_output(["git", "status", "--porcelain", "--untracked-files=no"])
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": command_output(["git", "rev-parse", "HEAD"]),
        "dirty": bool(dirty),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "cpu": next((line.split(":", 1)[1].strip() for line in
                     Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name")), None) if Path("/proc/cpuinfo").exists() else None,
        "load_average_before": load_before,
        "load_average_after": list(os.getloadavg()),
        "python": platform.python_version(),
        "swift": (command_output(["swift", "--version"]) or "").splitlines()[0:1],
        "settings": settings,
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-dir", default="build/bench")
    parser.add_argument("--lib", default="build/lib/libtca.so.0")
    parser.add_argument("--out", default="build/bench.json")
    parser.add_argument("--only", nargs="*", choices=["swift", "c", "python", "memory"],
                        help="run only these programs")
    args = parser.parse_args()

    bench = (ROOT / args.bench_dir).resolve()
    lib = (ROOT / args.lib).resolve()
    env = dict(os.environ, TCA_LIBRARY=str(lib))
    settings = {"samples": max(3, int(os.environ.get("BENCH_SAMPLES", "15"))),
                "sample_ms": max(1, int(os.environ.get("BENCH_SAMPLE_MS", "40")))}
    programs = {
        "swift": [str(bench / "SwiftBench")],
        "c": [str(bench / "cbench")],
        "python": [sys.executable, str(ROOT / "Benchmarks/python/bench.py"),
                   "--noop", str(bench / "libbenchnoop.so")],
        "memory": [str(bench / "cbench"), "mem"],
    }
    load_before = list(os.getloadavg())
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    for name, command in programs.items():
        if args.only and name not in args.only:
            continue
        rows += run_program(name, command, env)
    seconds = time.monotonic() - started

    for row in rows:
        row["ratio"] = ratio_of(row)
        row["reading"] = reading_of(row, row["ratio"])
    rows.sort(key=lambda r: GROUP_ORDER.index(r["group"]) if r["group"] in GROUP_ORDER else 99)

    print_table(rows, settings)
    meta = metadata(settings, seconds, load_before)
    print(f"\n{len(rows)} rows in {seconds:.0f} s; load average {meta['load_average_before'][0]:.2f} "
          f"before, {meta['load_average_after'][0]:.2f} after ({meta['cpus']} CPUs); "
          f"written to {args.out}")
    out = ROOT / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
