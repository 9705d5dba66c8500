"""What a native engine's mutant costs to build in locate's shadow copy: the build command run
whole for each mutant (as before the incremental plan) against the recorded plan recompiling
only the units holding the mutated file, alternating, one mutant at a time.

    python -m core.bench.rebuild_bench --folder DIR --build "CMD" --lines FILE:LINE [FILE:LINE ...] [--rounds N]

Each round builds, both ways, each line's first mutants (core.locate.mutants, likeliest first)
that change the file: wall clock and the CPU time of the build processes (user + sys) per
mutant, and mutants built per second, mutants that do not compile included (they cost a build
too). Nothing of the folder is written: both ways build in shadow copies."""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

from perftscope.core.locate.mutants import mutants_of
from perftscope.core.locate.shadow import Shadow


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(shadow: Shadow, mutants) -> tuple[float, float, int]:
    """(wall, cpu, built) of building each of `mutants` in `shadow`."""
    wall, cpu, built = time.monotonic(), _children_cpu(), 0
    for m in mutants:
        with shadow.applied(m):
            built += shadow.build()
    return time.monotonic() - wall, _children_cpu() - cpu, built


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m core.bench.rebuild_bench", description=__doc__.splitlines()[0])
    p.add_argument("--folder", required=True, help="the engine's source folder (its build runs in copies)")
    p.add_argument("--build", required=True, help="its build command, run in the copy")
    p.add_argument("--lines", nargs="+", required=True, metavar="FILE:LINE", help="lines to mutate (FILE under --folder)")
    p.add_argument("--per-line", type=int, default=2, help="mutants of each line (default 2)")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds (default 2)")
    args = p.parse_args(argv)
    folder = os.path.realpath(args.folder)
    mutants = []
    for spec in args.lines:
        file, line = spec.rsplit(":", 1)
        mutants += mutants_of(os.path.join(folder, file), [int(line)])[:args.per_line]
    if not mutants:
        p.error("no mutant can be made of those lines")
    print(f"{len(mutants)} mutants; load {os.getloadavg()[0]:.1f}")
    print("| round | way | wall s per mutant | CPU s per mutant | mutants per s | built |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="perftscope-rebuild-") as scratch:
        ways = {}
        for way in ("whole", "plan"):
            shadow = ways[way] = Shadow([folder], f"perftree:{folder}", os.path.join(scratch, way), args.build)
            if way == "whole":
                shadow._recorded = True          # as before the plan: the command itself for every build
            if not shadow.build():
                p.error(f"the build fails in a copy of {folder}")
        for round_ in range(1, args.rounds + 1):
            for way, shadow in ways.items():
                wall, cpu, built = timed(shadow, mutants)
                print(f"| {round_} | {way} | {wall / len(mutants):.2f} | {cpu / len(mutants):.2f} | "
                      f"{len(mutants) / wall:.2f} | {built} of {len(mutants)} |", flush=True)
        for shadow in ways.values():
            shadow.close()
    print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
