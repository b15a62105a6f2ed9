"""Journal throughput: what one PostgreSQL journal takes from several bot processes, and the cost of one
action on PostgreSQL against SQLite.

What is measured (each process opens its own journal and appends to tables of its own, as the bots of
a fleet do: one owner per game; every append is one committed transaction with a fresh action id):

1. **Cost per action, one process.** Mean and percentiles of ``Journal.append`` on an SQLite file
   (WAL, ``synchronous=NORMAL``, the bot's settings) and on PostgreSQL over loopback TCP, durable
   (``postgres``: each commit waits for its WAL on disk) and ``pg_async`` (``synchronous_commit=off``
   for the session, the same trade SQLite's WAL with ``synchronous=NORMAL`` makes).
2. **Four processes, one journal.** Total actions per second that one PostgreSQL database takes from
   ``--processes`` processes appending at full speed, with the latency each append saw; the same on
   one SQLite file for comparison (SQLite serialises writers).

3. **Paced, SQLite, ``--paced MS``** (only this, no PostgreSQL): one process appends one action every
   ``MS`` milliseconds, as a bot's games do, with the journal's background checkpointer and without it
   (SQLite's own checkpoint inside the commit that fills the log, flush and all), interleaved, each in a
   fresh process. Reports the percentiles up to the maximum and how many appends took over 1 ms.

The PostgreSQL server is a private one started from the OS package (``tests/postgres_server.py``) with
its default, durable settings (``fsync=on``, ``synchronous_commit=on``) on a temporary folder, unless
``--url`` names another. The payload is a bid-sized action with three effects.

Usage::

    python scripts/bench_journal.py                  # 5 s per measurement, 4 processes
    python scripts/bench_journal.py --seconds 10 --processes 4 --json figures.json
    python scripts/bench_journal.py --url postgresql://me@db.example:5432/journal_bench
    python scripts/bench_journal.py --paced 10 --seconds 30      # SQLite's checkpoints off the write path

Needs psycopg (``pip install '.[postgres]'``) and PostgreSQL's programs (``initdb``, ``postgres``).
This is a measurement, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cockatrice_ext import journal as journal_module
from cockatrice_ext.formats.base import Action, Effect, Engine
from cockatrice_ext.fsutil import atomic_write_text
from cockatrice_ext.journal import Journal

REPO = Path(__file__).resolve().parent.parent
FORK = multiprocessing.get_context("fork")
TABLES_PER_PROCESS = 10


@dataclass(frozen=True)
class BenchConfig:
    players: tuple[str, ...] = ("alice", "bob", "carol", "dave")


@dataclass(frozen=True)
class Bid(Action):
    amount: int = 1
    lot: int = 1


@dataclass(frozen=True)
class GoldShown(Effect):
    player: int | str | None
    gold: int
    note: str


class BenchEngine(Engine[BenchConfig]):
    """A stand-in engine: the journal only needs its name, config and seed."""

    name = "bench-journal"
    config_type = BenchConfig
    action_types = (Bid,)

    def apply(self, action: Action) -> list[Effect]:
        raise NotImplementedError("the benchmark journals actions without applying them")

    def snapshot(self) -> dict[str, Any]:
        return {}


def effects_for(amount: int) -> list[Effect]:
    """Three effects, about what a bid in an auction produces."""
    note = f"High bid: {amount} by alice. To bid: bob. Gold: alice 40, bob 37, carol 12, dave 3"
    return [GoldShown(player, amount, note) for player in ("alice", "bob", "carol")]


def appender(spec: str, worker: int, seconds: float, start: Any, out: Any) -> None:
    """Append as fast as one process can for ``seconds``; report the count and each latency."""
    journal = Journal(spec)
    keys = [f"bench:{uuid.uuid4().hex[:8]}:{worker}:{n}" for n in range(TABLES_PER_PROCESS)]
    for key in keys:
        journal.create_table(key, BenchEngine(BenchConfig(), seed=worker))
    start.wait()
    latencies: list[float] = []
    began = time.perf_counter()
    deadline = began + seconds
    count = 0
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        journal.append(keys[count % len(keys)], Bid(player=worker, amount=count), effects_for(count))
        latencies.append(time.perf_counter() - t0)
        count += 1
    out.put((count, time.perf_counter() - began, latencies))
    journal.close()


def measure(spec: str, processes: int, seconds: float) -> dict[str, float]:
    """``processes`` processes appending to ``spec`` at once: total rate and latency figures."""
    Journal(spec).close()  # migrate before the clock starts
    start, out = FORK.Barrier(processes), FORK.Queue()
    workers = [FORK.Process(target=appender, args=(spec, n, seconds, start, out)) for n in range(processes)]
    for worker in workers:
        worker.start()
    results = [out.get(timeout=seconds + 120) for _ in workers]
    for worker in workers:
        worker.join(30)
    count = sum(r[0] for r in results)
    elapsed = max(r[1] for r in results)
    latencies = sorted(x for r in results for x in r[2])
    return {
        "processes": processes,
        "actions": count,
        "actions_per_s": count / elapsed,
        "mean_ms": statistics.fmean(latencies) * 1000,
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
    }


def paced_appender(spec: str, pace: float, seconds: float, background: bool, out: Any) -> None:
    """One action every ``pace`` seconds for ``seconds``; ``background=False``: SQLite checkpoints inline."""
    if not background:  # this process only: the checkpointer is never woken, SQLite's own one runs
        journal_module.WalCheckpointer.wrote = lambda self: None  # type: ignore[method-assign]
    journal = Journal(spec)
    key = f"bench:{uuid.uuid4().hex[:8]}"
    journal.create_table(key, BenchEngine(BenchConfig(), seed=1))
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        journal.append(key, Bid(player="alice", amount=len(latencies)), effects_for(len(latencies)))
        latencies.append(time.perf_counter() - t0)
        time.sleep(max(0.0, pace - (time.perf_counter() - t0)))
    journal.close()
    out.put(latencies)


def paced_figures(folder: Path, pace_ms: float, seconds: float) -> None:
    """Interleaved runs with and without the background checkpointer, each on a fresh file and process."""
    print(f"SQLite, one action every {pace_ms:g} ms for {seconds:g} s per run (ms):")
    print(f"{'checkpoints':26} {'actions':>7} {'p50':>7} {'p99':>7} {'p99.9':>7} {'max':>7} {'> 1 ms':>7}")
    for run, background in enumerate((True, False, True, False)):
        out = FORK.Queue()
        spec = str(folder / f"paced-{run}.sqlite3")
        worker = FORK.Process(target=paced_appender, args=(spec, pace_ms / 1000, seconds, background, out))
        worker.start()
        latencies = sorted(out.get(timeout=seconds + 120))
        worker.join(30)

        def at(fraction: float, ordered: list[float] = latencies) -> float:
            return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1000

        slow = sum(1 for x in latencies if x > 0.001)
        label = "background thread" if background else "inside the commit (SQLite)"
        print(
            f"{label:26} {len(latencies):7} {at(0.5):7.3f} {at(0.99):7.3f} {at(0.999):7.3f}"
            f" {latencies[-1] * 1000:7.3f} {slow:7}"
        )


def without_commit_wait(url: str) -> str:
    """``url`` with ``synchronous_commit=off``: a commit returns before its WAL reaches the disk.

    A bot process killed after the commit loses nothing (the server has it); a crash of the database
    server itself may lose the last fraction of a second, never consistency. SQLite's WAL mode with
    ``synchronous=NORMAL`` (the bot's setting) makes the same trade, so this is the like-for-like figure.
    """
    return url + ("&" if "?" in url else "?") + "options=-csynchronous_commit%3Doff"


def start_postgres() -> Any:
    sys.path.insert(0, str(REPO / "tests"))
    from postgres_server import PostgreSQL

    server = PostgreSQL()  # default settings: fsync and synchronous commit on
    server.start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--processes", type=int, default=4, help="processes sharing one journal")
    parser.add_argument("--url", help="an existing PostgreSQL database (default: a private server)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--paced", type=float, metavar="MS", help="only the paced SQLite runs: one action every MS ms"
    )
    args = parser.parse_args()
    if args.paced is not None:
        with tempfile.TemporaryDirectory(prefix="bench-journal-") as folder:
            paced_figures(Path(folder), args.paced, args.seconds)
        return

    server = None if args.url else start_postgres()
    figures: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "seconds": args.seconds,
    }
    try:
        with tempfile.TemporaryDirectory(prefix="bench-journal-") as folder:
            many = args.processes
            runs = {
                "sqlite_1": (str(Path(folder) / "one.sqlite3"), 1),
                "postgres_1": (args.url or server.database(), 1),
                "pg_async_1": (without_commit_wait(args.url or server.database()), 1),
                f"sqlite_{many}": (str(Path(folder) / "many.sqlite3"), many),
                f"postgres_{many}": (args.url or server.database(), many),
                f"pg_async_{many}": (without_commit_wait(args.url or server.database()), many),
            }
            for name, (spec, processes) in runs.items():
                result = measure(spec, processes, args.seconds)
                figures[name] = result
                print(
                    f"{name:12} {processes} process(es): {result['actions_per_s']:8.0f} actions/s,"
                    f" append mean {result['mean_ms']:.3f} ms, p50 {result['p50_ms']:.3f} ms,"
                    f" p99 {result['p99_ms']:.3f} ms ({result['actions']} actions)"
                )
    finally:
        if server is not None:
            server.stop()
    for name in ("postgres_1", "pg_async_1"):
        ratio = figures[name]["mean_ms"] / figures["sqlite_1"]["mean_ms"]
        figures[f"{name}_over_sqlite_per_action"] = ratio
        print(f"cost per action, one process: {name} {ratio:.1f}x sqlite_1")
    if args.json:
        atomic_write_text(args.json, json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
