"""The pool's benchmark (`perftscope bench --pool`), in one run beside Stockfish:
scaling from 1 to 2 workers without a table, the table at work with 2 workers,
the depth below which probing stops paying, and how fast a cancel lands.

Each timing is also given in process CPU seconds: on a shared machine the wall
clock says how busy the neighbours were, the CPU time what the work cost."""
from __future__ import annotations

import os
import time

from ..counting.pool import perft, start_perft
from ..board.position import START_FEN, Position
from ..engines.stockfish import bench_perft, find_stockfish


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _timed(pos, depth, **kw) -> dict:
    cpu = _cpu()
    r = perft(pos, depth, **kw)
    row = {"workers": r.workers, "nodes": r.nodes, "seconds": r.seconds, "cpu_seconds": _cpu() - cpu,
           "nps": r.nps, "worker_cpu": list(r.worker_cpu)}
    if r.hash is not None:
        row["hash"] = r.hash.as_dict()
        row["hit_rate"] = r.hash.hit_rate
    return row


def _median(rows, key):
    return sorted(rows, key=lambda r: r[key])[len(rows) // 2]


def run_pool_bench(fen: str = START_FEN, depth: int = 7, hash_exp: int = 24, repeat: int = 3,
                   stockfish: bool = True) -> dict:
    pos = Position.from_fen(fen)
    perft(pos, 3, workers=2, hash_exp=4, divide=True)           # compile/load before any clock
    perft(pos, 3, workers=1)
    out = {"fen": fen, "depth": depth, "hash_exp": hash_exp, "repeat": repeat,
           "load_before": os.getloadavg()}

    one, two = [], []
    for _ in range(max(1, repeat)):                         # alternate, so drift hits both alike
        one.append(_timed(pos, depth, workers=1))
        two.append(_timed(pos, depth, workers=2))
    m1, m2 = _median(one, "seconds"), _median(two, "seconds")
    c1, c2 = _median(one, "cpu_seconds")["cpu_seconds"], _median(two, "cpu_seconds")["cpu_seconds"]
    # what 2 workers would take with a core each: the busier worker's CPU time
    busiest = [max(r["worker_cpu"]) for r in two]
    solo = [r["worker_cpu"][0] for r in one]
    out["no_table"] = {"one": one, "two": two, "scaling": m1["seconds"] / m2["seconds"],
                       "cpu_ratio": c2 / c1 if c1 > 0 else None,    # os.times ticks are 10 ms
                       "cpu_scaling": sorted(solo)[len(solo) // 2] / sorted(busiest)[len(busiest) // 2]}

    hashed = [_timed(pos, depth, workers=2, hash_exp=hash_exp) for _ in range(max(1, repeat))]
    out["table"] = {"runs": hashed, "median": _median(hashed, "seconds")}

    sweep = []
    for min_depth in (2, 3, 4):
        cpu = _cpu()
        r = start_perft(pos, depth, workers=1, hash_exp=hash_exp, min_depth=min_depth).result()
        sweep.append({"min_depth": min_depth, "seconds": r.seconds, "cpu_seconds": _cpu() - cpu,
                      "nps": r.nps, "probes": r.hash.probes, "hit_rate": r.hash.hit_rate})
    out["min_depth"] = sweep

    latencies = []
    for i in range(5):
        run = start_perft(pos, 40, workers=2, hash_exp=20 if i % 2 else -1)
        time.sleep(0.3)
        start = time.perf_counter()
        run.cancel()
        cancelled = run.result(timeout=10).cancelled
        latencies.append({"seconds": time.perf_counter() - start, "cancelled": cancelled,
                          "table": bool(i % 2)})
    out["cancel"] = latencies

    binary = find_stockfish() if stockfish else None
    if binary:
        sf = bench_perft(fen, depth, binary)
        out["stockfish"] = sf
        out["table"]["vs_stockfish"] = out["table"]["median"]["nps"] / sf["nps"] if sf["nps"] else None
    out["load_after"] = os.getloadavg()
    return out


def format_pool_report(r: dict) -> str:
    lines = [f"perft {r['depth']} of {r['fen']}  (load average before {r['load_before'][0]:.1f}, "
             f"after {r['load_after'][0]:.1f})"]
    nt = r["no_table"]
    for label, rows in (("1 worker, no table", nt["one"]), ("2 workers, no table", nt["two"])):
        m = _median(rows, "seconds")
        lines.append(f"{label:<28}{m['seconds']:>8.3f} s  {m['nps'] / 1e6:>8.0f} Mnps  "
                     f"cpu {_median(rows, 'cpu_seconds')['cpu_seconds']:.3f} s")
    cpu = f"{nt['cpu_ratio']:.2f}" if nt["cpu_ratio"] is not None else "-"
    lines.append(f"{'scaling 1 -> 2 (wall)':<28}{nt['scaling']:>8.2f} x   cpu 2/1 {cpu}")
    lines.append(f"{'scaling 1 -> 2 (thread CPU)':<28}{nt['cpu_scaling']:>8.2f} x   (1 worker's CPU time / "
                 f"the busier of 2 workers')")
    m = r["table"]["median"]
    lines.append(f"{'2 workers, 2^%d table' % r['hash_exp']:<28}{m['seconds']:>8.3f} s  "
                 f"{m['nps'] / 1e6:>8.0f} Mnps  hits {100 * m['hit_rate']:.1f}% of {m['hash']['probes']:,} "
                 f"probes, fill {100 * m['hash']['fill']:.1f}%")
    if "stockfish" in r:
        sf = r["stockfish"]
        lines.append(f"{'stockfish (1 thread)':<28}{sf['ms'] / 1000:>8.3f} s  {sf['nps'] / 1e6:>8.0f} Mnps  "
                     f"-> table run is {r['table']['vs_stockfish']:.1f}x Stockfish's NPS")
    for s in r["min_depth"]:
        lines.append(f"probe from depth {s['min_depth']} (1 worker) {s['seconds']:>6.3f} s  "
                     f"cpu {s['cpu_seconds']:.3f} s  hits {100 * s['hit_rate']:.1f}% of {s['probes']:,}")
    worst = max(c["seconds"] for c in r["cancel"])
    lines.append(f"cancel -> result            worst {worst * 1000:.1f} ms of {len(r['cancel'])}")
    return "\n".join(lines)
