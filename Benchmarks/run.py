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
GROUP_ORDER = ["JSON", "Kernel", "C ABI", "Python", "Bindings", "Memory", "Scale"]
# The C send row that the Bindings rows' targets are measured against (issue 20: each language's
# send within its FFI floor plus 1.2x the C send).
C_SEND_WORKLOAD = 'tca_store_send "incrementButtonTapped" (counter)'


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

def resolve_targets(rows: list[dict[str, Any]]) -> None:
    """A target {"floor_plus_c_send": k} becomes {"ours_max": floor + k * the C send} of this run."""
    c_send = next((r["ours"].get("median") for r in rows
                   if r["group"] == "C ABI" and r["workload"] == C_SEND_WORKLOAD), None)
    for row in rows:
        factor = (row.get("target") or {}).get("floor_plus_c_send")
        if factor is None:
            continue
        if c_send is None or "median" not in row["alt"]:
            row.pop("target")
            continue
        row["target"] = {"ours_max": row["alt"]["median"] + factor * c_send}
        row["note"] = (row.get("note", "") + f"; target: floor + {factor:g} x C send "
                       f"({figure(c_send, row['unit'])})").lstrip("; ")


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
        return f"{number(1 / ratio)}x faster" if ratio < 1 else f"{number(ratio)}x slower"
    if kind == "floor":
        extra = row["ours"]["median"] - row["alt"]["median"]
        sign = "+" if extra >= 0 else "-"
        return f"{number(ratio)}x the floor ({sign}{figure(abs(extra), row['unit'])})"
    if kind == "baseline":
        change = (ratio - 1) * 100
        return "stable (within 5%)" if abs(change) < 5 else f"{change:+.0f}%"
    return f"{number(ratio)}x the reference"


def target_of(row: dict[str, Any]) -> str:
    """The issue's target for this row, if it states one, and whether this run meets it."""
    target = row.get("target")
    if not target:
        return ""
    if "speedup" in target:
        wanted, text = target["speedup"], f">={target['speedup']:g}x faster"
        met = row["ratio"] is not None and row["ratio"] <= 1 / wanted
    elif "ratio_max" in target:
        side = "the floor" if row["alt"].get("kind") == "floor" else "the alt"
        text = f"<={target['ratio_max']:g}x {side}"
        met = row["ratio"] is not None and row["ratio"] <= target["ratio_max"]
    elif "ours_max" in target:
        text = f"<={figure(target['ours_max'], row['unit'])}"
        met = "median" in row["ours"] and row["ours"]["median"] <= target["ours_max"]
    else:
        return ""
    if "median" not in row["ours"]:
        return f"{text}: n/a"
    return f"{text}: {'met' if met else 'not yet'}"


SCALES = {"ns/op": ((1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")),
          "bytes": ((1, "B"),),
          "KiB": ((1024, "MiB"), (1, "KiB"))}


def scale_for(value: float, unit: str) -> tuple[float, str]:
    for scale, suffix in SCALES.get(unit, ((1, unit),)):
        if value >= scale * (10 if unit == "KiB" else 1):
            return scale, suffix
    return SCALES.get(unit, ((1, unit),))[-1]


def number(value: float) -> str:
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def figure(value: float, unit: str) -> str:
    scale, suffix = scale_for(value, unit)
    return f"{number(value / scale)} {suffix}"


def side_text(side: dict[str, Any], unit: str, footnote: int | None = None) -> str:
    if "na" in side:
        return f"n/a [{footnote}]"
    scale, suffix = scale_for(side["median"], unit)
    text = f"{number(side['median'] / scale)} {suffix}"
    if side["samples"] > 1:
        text += f" ({number(side['min'] / scale)}–{number(side['max'] / scale)})"
    return text


def print_table(rows: list[dict[str, Any]], settings: dict[str, Any]) -> None:
    headers = ["workload", "ours", "median (min–max)", "alternative", "median (min–max)",
               "ours/alt", "reading", "target"]
    table: list[list[str]] = []
    notes: list[str] = []
    groups: list[tuple[str, list[list[str]]]] = []

    def footnote(text: str) -> int:
        notes.append(text)
        return len(notes)

    for group in GROUP_ORDER + sorted({r["group"] for r in rows} - set(GROUP_ORDER)):
        lines = []
        for row in (r for r in rows if r["group"] == group):
            workload = row["workload"]
            if row.get("note"):
                workload += f" [{footnote(row['note'])}]"
            sides = []
            for side in (row["ours"], row["alt"]):
                mark = footnote(f"n/a: {side['na']}") if "na" in side else None
                sides.append(side_text(side, row["unit"], mark))
            ratio = row["ratio"]
            line = [
                workload,
                row["ours"]["label"], sides[0],
                row["alt"]["label"], sides[1],
                "-" if ratio is None else number(ratio),
                row["reading"], target_of(row),
            ]
            lines.append(line)
            table.append(line)
        if lines:
            groups.append((group, lines))
    widths = [max(len(h), *(len(line[i]) for line in table)) for i, h in enumerate(headers)]

    def render(cells: list[str]) -> str:
        return "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(cells)).rstrip()

    print()
    print(f"libtca benchmarks: each figure is the median of {settings['samples']} samples "
          f"(min–max); ours/alt compares medians measured in the same run")
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
        "swift": next(iter((command_output(["swift", "--version"]) or "").splitlines()), None),
        "settings": settings,
        "seconds": round(seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-dir", default="build/bench")
    parser.add_argument("--lib", default="build/lib/libtca.so.0")
    parser.add_argument("--out", default="build/bench.json")
    parser.add_argument("--only", nargs="*",
                        choices=["swift", "c", "inspector", "python", "cpp", "rust", "lua",
                                 "dotnet", "memory", "scale"],
                        help="run only these programs")
    args = parser.parse_args()

    bench = (ROOT / args.bench_dir).resolve()
    lib = (ROOT / args.lib).resolve()
    settings = {"samples": max(3, int(os.environ.get("BENCH_SAMPLES", "41"))),
                "sample_ms": max(1, int(os.environ.get("BENCH_SAMPLE_MS", "120")))}
    env = dict(os.environ, TCA_LIBRARY=str(lib), BENCH_SAMPLES=str(settings["samples"]),
               BENCH_JOURNAL_LOG=str(bench / "journal-soak.log"),
               BENCH_SAMPLE_MS=str(settings["sample_ms"]),
               LD_LIBRARY_PATH=os.pathsep.join(filter(None, [str(lib.parent),
                                                             os.environ.get("LD_LIBRARY_PATH")])))
    programs = {
        "swift": [str(bench / "SwiftBench")],
        "c": [str(bench / "cbench")],
        # A send with the inspector attached (TCA_DEVTOOLS): a process of its own, since the
        # variable connects every store made after it is set.
        "inspector": [str(bench / "cbench"), "inspector"],
        "python": [sys.executable, str(ROOT / "Benchmarks/python/bench.py"),
                   "--noop", str(bench / "libbenchnoop.so")],
        # The language bindings (make bench-bindings builds those whose toolchain is here).
        "cpp": [str(bench / "cppbench")],
        "rust": [str(bench / "rustbench")],
        "lua": ["luajit", str(ROOT / "Benchmarks/bindings/bench.lua")],
        "dotnet": ["mono", str(bench / "Bench.exe")],
        "memory": [str(bench / "cbench"), "mem"],
        # The scale table (issue 16): todos at 1,000, 10,000 and 100,000.
        "scale": [str(bench / "scalebench")],
    }
    bindings = {"cpp": bench / "cppbench", "rust": bench / "rustbench",
                "lua": bench / ".lua", "dotnet": bench / "Bench.exe"}
    load_before = list(os.getloadavg())
    started = time.monotonic()
    rows: list[dict[str, Any]] = []
    for name, command in programs.items():
        if args.only and name not in args.only:
            continue
        if name in bindings and not bindings[name].exists():
            print(f"== {name}: skipped ({bindings[name].name} not built: its toolchain is missing)",
                  file=sys.stderr, flush=True)
            continue
        rows += run_program(name, command, env)
    seconds = time.monotonic() - started

    resolve_targets(rows)
    for row in rows:
        row["ratio"] = ratio_of(row)
        row["reading"] = reading_of(row, row["ratio"])
        row["target_status"] = target_of(row)
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
