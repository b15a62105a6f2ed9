#!/usr/bin/env python3
"""Benchmarks of the card-data layer and the exporters (prints figures; not a test).

(a) MTGJSON AllPrintings (.json.xz) -> a complete Cockatrice cards.xml: wall time and peak RSS.
(b) Loading that cards.xml with the card layer's XML reader: wall time and peak RSS.
(c) ``cockatrice-ext export auction-sample --to cod`` as a subprocess, interpreter start
    included: median (and min/max) of N runs.

Each step runs in a fresh interpreter so peak RSS and import costs are its own. Usage::

    python scripts/bench_cards.py [--mtgjson PATH] [--runs 15] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_MTGJSON = Path(__file__).resolve().parents[2] / "shared" / "carddata" / "AllPrintings.json.xz"


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def step_a(mtgjson: Path, out: Path) -> dict[str, float]:
    """Child process: read MTGJSON, write cards.xml atomically."""
    start = time.perf_counter()
    from cockatrice_ext.cards.mtgjson import read_mtgjson
    from cockatrice_ext.exporters import write_card_database
    from cockatrice_ext.fsutil import atomic_write_bytes

    db = read_mtgjson(mtgjson)
    loaded = time.perf_counter()
    info = {"author": "cockatrice-ext bench", "sourceVersion": mtgjson.name}
    data = write_card_database(db.cards.values(), db.sets, info=info)
    atomic_write_bytes(out, data)
    done = time.perf_counter()
    return {
        "cards": len(db),
        "sets": len(db.sets),
        "bytes": len(data),
        "read_s": loaded - start,
        "write_s": done - loaded,
        "total_s": done - start,
        "peak_rss_mb": _peak_rss_mb(),
    }


def step_b(xml: Path) -> dict[str, float]:
    """Child process: load cards.xml with the card layer's reader."""
    start = time.perf_counter()
    from cockatrice_ext.cards.cockatrice_xml import read_cockatrice_xml

    db = read_cockatrice_xml(xml)
    done = time.perf_counter()
    return {"cards": len(db), "sets": len(db.sets), "total_s": done - start, "peak_rss_mb": _peak_rss_mb()}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _child(args: list[str]) -> tuple[dict[str, float], float, float]:
    """Run a step in a fresh interpreter: (its report, wall seconds, CPU seconds)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall, _children_cpu() - cpu


def bench_cli(runs: int, workdir: Path) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``runs`` CLI invocations (after one warm-up run)."""
    exe = shutil.which("cockatrice-ext")
    command = [exe] if exe else [sys.executable, "-m", "cockatrice_ext"]
    out = workdir / "auction-sample.cod"
    times: list[float] = []
    cpus: list[float] = []
    for _ in range(runs + 1):  # the first run warms the OS cache (and bytecode cache when enabled)
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run(
            [*command, "export", "auction-sample", "--to", "cod", "-o", str(out)],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
    return times[1:], cpus[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mtgjson", type=Path, default=DEFAULT_MTGJSON)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--step", choices=["a", "b"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.step == "a":
        print(json.dumps(step_a(args.mtgjson, args.out)))
        return
    if args.step == "b":
        print(json.dumps(step_b(args.out)))
        return

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-cards-"))
    workdir.mkdir(parents=True, exist_ok=True)
    xml = workdir / "cards.xml"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, workdir {workdir}")

    print(f"load average {os.getloadavg()[0]:.2f} (figures are wall time unless marked CPU)")
    a, wall_a, cpu_a = _child(["--step", "a", "--mtgjson", str(args.mtgjson), "--out", str(xml)])
    figures = f"read {a['read_s']:.2f} s + write {a['write_s']:.2f} s in process"
    size = f"{a['cards']:.0f} cards, {a['sets']:.0f} sets, {a['bytes'] / 1e6:.1f} MB"
    rss = f"peak RSS {a['peak_rss_mb']:.0f} MB"
    print(f"(a) MTGJSON -> cards.xml: {wall_a:.2f} s wall, {cpu_a:.2f} s CPU ({figures}), {rss}; {size}")
    b, wall_b, cpu_b = _child(["--step", "b", "--out", str(xml)])
    print(
        f"(b) load cards.xml: {wall_b:.2f} s wall, {cpu_b:.2f} s CPU ({b['total_s']:.2f} s in process), "
        f"peak RSS {b['peak_rss_mb']:.0f} MB; {b['cards']:.0f} cards, {b['sets']:.0f} sets"
    )
    times, cpus = bench_cli(args.runs, workdir)
    print(
        f"(c) cockatrice-ext export auction-sample --to cod: median {statistics.median(times):.3f} s wall, "
        f"{statistics.median(cpus):.3f} s CPU "
        f"(wall min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)"
    )
    baseline: list[float] = []
    baseline_cpu: list[float] = []
    for _ in range(args.runs):
        cpu = _children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        baseline.append(time.perf_counter() - start)
        baseline_cpu.append(_children_cpu() - cpu)
    print(
        f"    bare interpreter (python -c pass): median {statistics.median(baseline):.3f} s wall, "
        f"{statistics.median(baseline_cpu):.3f} s CPU"
    )


if __name__ == "__main__":
    main()
