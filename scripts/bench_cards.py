#!/usr/bin/env python3
"""Benchmarks of the card-data layer and the exporters (prints figures; not a test).

(a) MTGJSON AllPrintings (.json.xz) -> a complete Cockatrice cards.xml: wall time and peak RSS.
(b) Loading that cards.xml with the card layer's XML reader: wall time and peak RSS.
(c) ``cockatrice-ext export auction-sample --to cod`` as a subprocess, interpreter start
    included: median (and min/max) of N runs.
(d) ``cockatrice-ext cards lookup NAME --card-source cards.xml --card-source tokens.xml``, whole
    process: first load (parsed-file cache emptied before each run) and repeated load (cache warm);
    with ``--cockatrice-bench PATH``, Cockatrice's own ``load_benchmark`` (built from its
    ``tests/carddatabase``) on the same two files, a run after each of ours: its cold (XML, writes
    its cache) and warm (binary cache) loads as it prints them, its whole-process wall time, and
    that time less its cached load (a whole-process cold load) beside ours.

Each step runs in a fresh interpreter so peak RSS and import costs are its own. Usage::

    python scripts/bench_cards.py [--mtgjson PATH] [--tokens PATH] [--runs 15] [--workdir DIR]
        [--cockatrice-bench BUILD/tests/carddatabase/load_benchmark]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEFAULT_MTGJSON = SHARED / "carddata" / "AllPrintings.json.xz"
DEFAULT_TOKENS = SHARED / "cockatrice" / "tokens-magic-token.xml"


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
    command = _cli_command()
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


def _cli_command() -> list[str]:
    exe = shutil.which("cockatrice-ext")
    return [exe] if exe else [sys.executable, "-m", "cockatrice_ext"]


def bench_side_by_side(
    runs: int, xml: Path, tokens: Path, cache: Path, cockatrice: Path | None
) -> tuple[list[float], list[float], list[tuple[float, float, float]]]:
    """(d), run after run: our first load (cache emptied) and repeated load in wall seconds, then one run of
    Cockatrice's load_benchmark when given (cold ms, warm ms, whole-process s), so that other jobs on
    the machine weigh on both alike."""
    command = [*_cli_command(), "cards", "lookup", "Lightning Bolt", "--card-source", str(xml)]
    command += ["--card-source", str(tokens)]
    env = {**os.environ, "COCKATRICE_EXT_CACHE": str(cache)}
    first: list[float] = []
    again: list[float] = []
    theirs: list[tuple[float, float, float]] = []
    for _ in range(runs):
        shutil.rmtree(cache, ignore_errors=True)
        for times in (first, again):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - start)
        if cockatrice is not None:
            theirs.append(run_cockatrice(cockatrice, xml, tokens))
    return first, again, theirs


def run_cockatrice(binary: Path, xml: Path, tokens: Path) -> tuple[float, float, float]:
    """One run of Cockatrice's load_benchmark: (cold ms, warm ms, whole-process s)."""
    command = [str(binary), "--carddb", str(xml), "--tokens", str(tokens)]
    command += ["--spoilers", "/nonexistent", "--custom", "/nonexistent"]
    start = time.perf_counter()
    proc = subprocess.run(command, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    loads = [
        float(ms) for ms in re.findall(r"Load wall-clock time\s*:\s*(\d+) ms", proc.stdout + proc.stderr)
    ]
    return loads[0], loads[-1], wall


def steps_abc(args: argparse.Namespace, workdir: Path, xml: Path) -> None:
    """(a) writes ``xml`` from MTGJSON, (b) loads it whole, (c) times the sample export."""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mtgjson", type=Path, default=DEFAULT_MTGJSON)
    parser.add_argument("--tokens", type=Path, default=DEFAULT_TOKENS)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--cockatrice-bench", type=Path, help="Cockatrice's tests/carddatabase/load_benchmark"
    )
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument(
        "--cards-xml", type=Path, default=None, help="a cards.xml made earlier by (a): run only (d)"
    )
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
    xml = args.cards_xml or workdir / "cards.xml"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, workdir {workdir}")

    print(f"load average {os.getloadavg()[0]:.2f} (figures are wall time unless marked CPU)")
    if args.cards_xml is None:
        steps_abc(args, workdir, xml)
    tokens = workdir / "tokens.xml"
    shutil.copyfile(args.tokens, tokens)
    first, again, runs = bench_side_by_side(
        max(3, args.runs // 3), xml, tokens, workdir / "cache", args.cockatrice_bench
    )
    print(
        f"(d) cards lookup, cards.xml + tokens.xml: first load median {statistics.median(first):.3f} s "
        f"(min {min(first):.3f}), repeated load median {statistics.median(again):.3f} s "
        f"(min {min(again):.3f}), {len(first)} runs each, whole process"
    )
    if runs:
        cold, warm, walls = zip(*runs, strict=True)
        print(
            f"    Cockatrice load_benchmark, same files, a run after each of ours: cold load median "
            f"{statistics.median(cold):.0f} ms, cached load median {statistics.median(warm):.0f} ms (as it "
            f"prints them, in process); whole process (both loads) median {statistics.median(walls):.3f} s"
        )
        # One process does both loads: without its cached load, it is a whole-process cold load.
        cold_process = statistics.median(wall - cached / 1000 for _, cached, wall in runs)
        first_ratio = statistics.median(first) / cold_process
        again_ratio = statistics.median(again) * 1000 / statistics.median(warm)
        print(
            f"    Cockatrice whole process minus its cached load (a whole-process cold load): median "
            f"{cold_process:.3f} s; our first load is {first_ratio:.2f}x of it (aim <= 0.5x), "
            f"our repeated load {again_ratio:.2f}x of its cached load (aim <= 1x)"
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
