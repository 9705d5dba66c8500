"""`perftscope bench`: the core's perft speed on the five standard positions, side by side with
Stockfish's own `go perft` benchmark in the same run (one thread, no hash table)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from perftscope.core.engines.stockfish import bench_perft, find_stockfish

from . import add_parser
from .common import print_json

# (name in resources/standard.epd, depth): the five positions engine authors quote
POSITIONS = (("initial", 6), ("kiwipete", 5), ("pos3", 6), ("pos4", 5), ("pos5", 5))


def register(sub):
    p = add_parser(sub, "bench",
                       description="Time the core's single-threaded perft (no hash) on the five standard "
                                   "positions and Stockfish's `bench 16 1 D FILE perft` on the same ones.")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--repeat", type=int, default=3, metavar="N",
                   help="runs per position and side; the fastest counts (default 3)")
    p.add_argument("--no-stockfish", action="store_true", help="time the core alone")
    p.add_argument("--sliders", choices=("pext", "magic", "both"), default=None,
                   help="slider attack tables to use (default: pext where the CPU has BMI2); "
                        "'both' runs each in its own process and compares")
    p.add_argument("--startup", action="store_true",
                   help="also time the start-up: `perftscope divide -d 1` cold (empty compile cache) and "
                        "warm, `perftree 3` warm, every kernel compiled, and the GUI's time to a usable "
                        "window (on an X display with xdotool)")
    p.add_argument("--threats", action="store_true",
                   help="king-threat micro-benchmarks (ns per square test and per bulk king-zone pass) "
                        "instead of the bench")
    p.add_argument("--pool", action="store_true",
                   help="the worker pool and hash table instead: 1 vs 2 workers, start position "
                        "depth -d (default 7) with a 2^24 table, beside Stockfish")
    p.add_argument("--profile", action="store_true",
                   help="where perft's time goes for one position (-f, -d) instead of the bench")
    p.add_argument("-f", "--fen", default=None, metavar="FEN", help="position for --profile (default: start)")
    p.add_argument("-d", "--depth", type=int, default=None, metavar="DEPTH",
                   help="depth for --profile (default 6) or --pool (default 7)")
    p.set_defaults(run=run_bench)


def standard_positions():
    from perftscope import resources
    from perftscope.core.counting.suites import load
    by_name = {e.name: e for e in load(resources.path("standard.epd"))}
    return [(name, by_name[name].full_fen, depth, by_name[name].expected[depth]) for name, depth in POSITIONS]


def measure_core(repeat: int) -> list[dict]:
    from perftscope.core.counting.perft import perft
    from perftscope.core.board.position import Position
    rows = []
    for name, fen, depth, expected in standard_positions():
        pos = Position.from_fen(fen)
        perft(pos, 2)                                   # compile/load before the clock
        best, best_cpu, nodes = float("inf"), float("inf"), 0
        for _ in range(max(1, repeat)):
            start, start_cpu = time.perf_counter(), time.thread_time()
            nodes = perft(pos, depth)
            best_cpu = min(best_cpu, time.thread_time() - start_cpu)
            best = min(best, time.perf_counter() - start)
        # the thread's CPU time too: on a shared machine the wall clock also counts the neighbours
        best_cpu = max(best_cpu, 1e-9)
        rows.append({"name": name, "fen": fen, "depth": depth, "nodes": nodes, "expected": expected,
                     "seconds": best, "nps": nodes / best, "cpu_seconds": best_cpu,
                     "cpu_nps": nodes / best_cpu})
    return rows


def measure_stockfish(rows: list[dict], repeat: int, binary: str) -> None:
    for row in rows:
        best = None
        for _ in range(max(1, repeat)):
            r = bench_perft(row["fen"], row["depth"], binary)
            if best is None or r["ms"] < best["ms"]:
                best = r
        row["stockfish"] = {"nodes": best["nodes"], "ms": best["ms"], "nps": best["nps"]}


def startup_times(rounds: int) -> dict:
    """Every row of the start-up table (app.launch_bench): cold and warm `divide -d 1`, warm
    `perftree 3`, every kernel compiled, and the GUI's time to a usable window."""
    from perftscope.app.launch_bench import measure
    return measure(rounds)


def _sliders_subprocess(mode: str, repeat: int) -> dict:
    env = dict(os.environ, PERFTSCOPE_SLIDERS=mode)
    proc = subprocess.run([sys.executable, "-m", "perftscope", "bench", "--json", "--no-stockfish",
                           "--repeat", str(repeat)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"mode": mode, "error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout)


def run_profile(args) -> int:
    from perftscope.core.errors import PerftscopeError
    from perftscope.core.board.position import START_FEN, Position
    from perftscope.core.bench.profile import format_profile, profile_perft
    if args.depth is None:
        args.depth = 6
    if args.depth < 2 or args.depth > 12:
        raise PerftscopeError(f"--profile needs a depth between 2 and 12, got {args.depth}")
    result = profile_perft(Position.from_fen(args.fen or START_FEN), args.depth, max(1, args.repeat))
    if args.json:
        print_json(result)
    else:
        print(format_profile(result))
    return 0


def run_pool(args) -> int:
    from perftscope.core.errors import PerftscopeError
    from perftscope.core.bench.pool import format_pool_report, run_pool_bench
    from perftscope.core.board.position import START_FEN
    depth = 7 if args.depth is None else args.depth
    if not 1 <= depth <= 12:
        raise PerftscopeError(f"--pool needs a depth between 1 and 12, got {depth}")
    result = run_pool_bench(args.fen or START_FEN, depth, repeat=max(1, args.repeat),
                            stockfish=not args.no_stockfish)
    if args.json:
        print_json({"pool": result})
    else:
        print(format_pool_report(result))
    return 0


def run_threats(args) -> int:
    from perftscope.core.bench.threats import format_threat_table, run_threat_bench
    rows = run_threat_bench(repeat=max(1, args.repeat))
    if args.json:
        print_json({"threats": rows})
    else:
        print(format_threat_table(rows))
    return 0


def run_bench(args) -> int:
    if args.profile:
        return run_profile(args)
    if args.pool:
        return run_pool(args)
    if args.threats:
        return run_threats(args)
    if args.sliders == "both":
        return _compare_sliders(args)
    from perftscope.core import kernels
    if args.sliders and args.sliders != kernels.SLIDER_MODE:
        # the mode is fixed when the kernels are imported: measure it in a process of its own
        return _print_result(_sliders_subprocess(args.sliders, args.repeat), args)
    rows = measure_core(args.repeat)
    binary = None if args.no_stockfish else find_stockfish()
    if binary:
        measure_stockfish(rows, args.repeat, binary)
    result = summarise(rows, kernels.SLIDER_MODE)
    if args.startup:
        result["startup"] = startup_times(min(3, max(1, args.repeat)))
    return _print_result(result, args)


def summarise(rows, mode) -> dict:
    nodes = sum(r["nodes"] for r in rows)
    seconds = sum(r["seconds"] for r in rows)
    cpu = sum(r.get("cpu_seconds", 0.0) for r in rows)
    result = {"sliders": mode, "threads": 1, "hash": False, "positions": rows,
              "total": {"nodes": nodes, "seconds": seconds, "nps": nodes / seconds,
                        "cpu_nps": nodes / cpu if cpu else None},
              "exact": all(r["nodes"] == r["expected"] for r in rows)}
    if all("stockfish" in r for r in rows):
        sf_ms = sum(r["stockfish"]["ms"] for r in rows)
        sf_nodes = sum(r["stockfish"]["nodes"] for r in rows)
        result["total"]["stockfish_nps"] = sf_nodes / (sf_ms / 1000)
        result["total"]["ratio"] = result["total"]["nps"] / result["total"]["stockfish_nps"]
        for r in rows:
            sf_nps = r["stockfish"]["nodes"] / max(r["stockfish"]["ms"], 1) * 1000
            r["ratio"] = r["nps"] / sf_nps
        result["min_ratio"] = min(r["ratio"] for r in rows)
    return result


def _print_result(result: dict, args) -> int:
    if "error" in result:
        print(f"perftscope: error: bench with {result['mode']} sliders: {result['error']}", file=sys.stderr)
        return 2
    if args.json:
        print_json(result)
        return 0 if result["exact"] else 1
    have_sf = "stockfish_nps" in result["total"]
    print(f"perft, 1 thread, no hash table, {result['sliders']} slider tables"
          + (", against Stockfish's `bench 16 1 D FILE perft`" if have_sf else ""))
    head = f"{'position':<10}{'depth':>6}{'nodes':>14}{'core s':>9}{'core Mnps':>11}{'cpu Mnps':>10}"
    if have_sf:
        head += f"{'SF s':>9}{'SF Mnps':>10}{'ratio':>8}"
    print(head)
    for r in result["positions"]:
        line = f"{r['name']:<10}{r['depth']:>6}{r['nodes']:>14,}{r['seconds']:>9.3f}{r['nps'] / 1e6:>11.1f}" \
            f"{r['cpu_nps'] / 1e6:>10.1f}"
        if have_sf:
            sf = r["stockfish"]
            line += f"{sf['ms'] / 1000:>9.3f}{sf['nodes'] / max(sf['ms'], 1) / 1e3:>10.1f}{r['ratio']:>7.2f}x"
        if r["nodes"] != r["expected"]:
            line += f"  WRONG: expected {r['expected']:,}"
        print(line)
    t = result["total"]
    line = f"{'total':<10}{'':>6}{t['nodes']:>14,}{t['seconds']:>9.3f}{t['nps'] / 1e6:>11.1f}" \
        f"{t['cpu_nps'] / 1e6:>10.1f}"
    if have_sf:
        line += f"{'':>9}{t['stockfish_nps'] / 1e6:>10.1f}{t['ratio']:>7.2f}x"
    print(line)
    if have_sf:
        print(f"slowest position ratio: {result['min_ratio']:.2f}x")
    if "startup" in result:
        from perftscope.app.launch_bench import format_rows
        print(format_rows(result["startup"]))
    return 0 if result["exact"] else 1


def _compare_sliders(args) -> int:
    results = [_sliders_subprocess(mode, args.repeat) for mode in ("pext", "magic")]
    if args.json:
        print_json({"sliders": results})
        return 0
    print(f"{'position':<10}{'pext Mnps':>11}{'magic Mnps':>12}{'pext/magic':>12}")
    for i, (name, _) in enumerate(POSITIONS):
        cells = [r["positions"][i]["nps"] / 1e6 if "positions" in r else float("nan") for r in results]
        print(f"{name:<10}{cells[0]:>11.1f}{cells[1]:>12.1f}{cells[0] / cells[1]:>11.2f}x")
    for r in results:
        if "error" in r:
            print(f"{r['mode']}: {r['error']}")
    return 0
