"""How well `perftscope locate` names a real bug's line: run it on each bug of a corpus file and
score where the line the real fix changed is ranked.

    python -m core.bench.locate_bench resources/locate_real_bugs.toml --root DIR [--mutants N]   # 0: spectra alone

The corpus file (TOML) holds one [[bug]] per bug: `folder` (under --root) with the engine at the
buggy version, `fixed` the same files with the real fix applied, `engine` (a spec run from the
folder), `fen`, `depth`, `faulty` (file:line of the lines the fix changed), optional `extra`
arguments for locate. A native engine's rebuild command for each mutant is read from
ROOT/FOLDER.build (one line, `{root}` standing for --root), not from the corpus file. Nothing of
the engines is in this repository: the folders are laid out by the reader
(docs/notebook/locate-real-bugs.md says how).

The score of a bug: the faulty line's rank and the size of its tie, and the lines an author
reads before reaching it: every suspect ranked above it and its whole tie, each block by its
length. A confirmed fix offered is compared with the real one: its removed and added lines
among the real fix's (whitespace aside). Each bug's folder is hashed before and after its locate:
the row says whether it came back byte-identical."""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass

from perftscope.core.folder_digest import tree_digest

try:
    import tomllib
except ImportError:             # Python 3.10
    tomllib = None


@dataclass(frozen=True)
class Placement:
    rank: int          # 1 + the suspects ranked strictly above it
    tie: int           # suspects sharing its rank, itself included
    read: int          # lines read before reaching it, its whole tie included
    listed: int        # its place in locate's listing


def faulty_lines(bug: dict) -> list[tuple[str, int]]:
    out = []
    for spec in bug["faulty"]:
        file, line = spec.rsplit(":", 1)
        out.append((file, int(line)))
    return out


def _length(suspect: dict) -> int:
    return suspect["last"] - suspect["line"] + 1


def placement(suspects: list[dict], faulty: list[tuple[str, int]]) -> Placement | None:
    """Where the best placed of the faulty lines is, or None when no suspect holds one."""
    best = None
    for listed, s in enumerate(suspects, 1):
        holds = any(s["file"].endswith(file) and s["line"] <= line <= s["last"] for file, line in faulty)
        if holds and (best is None or s["rank"] < best[0]["rank"]):
            best = (s, listed)
    if best is None:
        return None
    s, listed = best
    tie = [t for t in suspects if t["rank"] == s["rank"]]
    above = [t for t in suspects if t["rank"] < s["rank"]]
    return Placement(s["rank"], len(tie), sum(map(_length, above)) + sum(map(_length, tie)), listed)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def real_change(buggy: str, fixed: str) -> tuple[set[str], set[str]]:
    """(removed, added): the lines, whitespace aside, that the real fix took out of a file and
    put in, from the file's text before and after it."""
    removed, added = set(), set()
    for line in difflib.ndiff(buggy.splitlines(), fixed.splitlines()):
        if line.startswith("- "):
            removed.add(_squash(line[2:]))
        elif line.startswith("+ "):
            added.add(_squash(line[2:]))
    return removed, added


def is_real_fix(diff: str, real: tuple[set[str], set[str]]) -> bool:
    lines = diff.splitlines()
    minus = {_squash(x[1:]) for x in lines if x.startswith("-") and not x.startswith("---")}
    plus = {_squash(x[1:]) for x in lines if x.startswith("+") and not x.startswith("+++")}
    return bool(plus) and minus <= real[0] and plus <= real[1]


def fix_verdict(result: dict, bug: dict, root: str) -> tuple[str, bool | None]:
    """("yes" | "for this bug" | "candidate only" | "no", whether a confirmed fix (else a fix for
    this bug, the engine having another) is the real one)."""
    fixes = result.get("fixes") or []
    confirmed = [f for f in fixes if f.get("confirmed")]
    offered = "yes"
    if not confirmed:
        confirmed, offered = [f for f in fixes if f.get("fixes_this_bug")], "for this bug"
    if not confirmed:
        return ("candidate only" if fixes else "no"), None
    for f in confirmed:
        try:
            with open(os.path.join(root, bug["folder"], f["file"]), errors="replace") as before, \
                    open(os.path.join(root, bug["fixed"], f["file"]), errors="replace") as after:
                real = real_change(before.read(), after.read())
        except (KeyError, OSError):
            continue
        if is_real_fix(f.get("diff", ""), real):
            return offered, True
    return offered, False


def build_command(bug: dict, root: str) -> str | None:
    try:
        with open(os.path.join(root, bug["folder"] + ".build")) as f:
            return f.read().strip().replace("{root}", os.path.abspath(root)) or None
    except OSError:
        return None


def command_path(command: str) -> str:
    """The perftscope command as each bug's locate can run it: from the bug's folder, so a path
    given relative to here is made absolute (a bare name is left to PATH)."""
    return os.path.abspath(command) if os.sep in command else command


def locate_command(bug: dict, root: str, perftscope: str, mutants: int | None,
                   mutant_seconds: float | None = None) -> list[str]:
    cmd = [perftscope, "locate", "--engine", bug["engine"], "-f", bug["fen"],
           "-d", str(bug.get("depth", 1)), "--top", "10000", "--json", *bug.get("extra", [])]
    if mutants is not None:
        cmd += ["--mutants", str(mutants)]
    if mutant_seconds is not None:
        cmd += ["--mutant-seconds", f"{mutant_seconds:g}"]
    build = build_command(bug, root)
    if build and mutants != 0:       # locate mutates by default: a native program is rebuilt for each mutant
        cmd += ["--build", build]
    return cmd


def run(bug: dict, root: str, perftscope: str, mutants: int | None, mutant_seconds: float | None = None) -> dict:
    """locate's JSON for one bug, with what was run and the load average around it."""
    folder = os.path.join(root, bug["folder"])
    cmd = locate_command(bug, root, perftscope, mutants, mutant_seconds)
    load_before = os.getloadavg()[0]
    tree = tree_digest(folder)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    wall = time.monotonic() - start
    untouched = tree_digest(folder) == tree
    try:
        result = json.loads(proc.stdout)
    except json.JSONDecodeError:
        result = {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}
    result["bench"] = {"command": cmd, "exit": proc.returncode, "wall": round(wall, 1), "tree_unchanged": untouched,
                       "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
                       "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    return result


HEADER = ("| bug | language | faulty line | rank (tie) | lines read | fix | runs failed/passed "
          "| mutants tried/made | seconds job / wall | load | its tree after |\n|---|---|---|---|---|---|---|---|---|---|---|")


def row(bug: dict, result: dict, root: str) -> str:
    b = result["bench"]
    load = f"{b['load'][0]}-{b['load'][1]}"
    tree = {True: "byte-identical", False: "CHANGED", None: "not checked"}[b.get("tree_unchanged")]
    faulty = ", ".join(bug["faulty"])
    if "error" in result:
        return f"| {bug['name']} | {bug['language']} | `{faulty}` | error: {result['error']} | | | | | {b['wall']} | {load} | {tree} |"
    where = placement(result.get("suspects", []), faulty_lines(bug))
    offered, equals = fix_verdict(result, bug, root)
    fix = offered if equals is None else f"{offered}, {'the real fix' if equals else 'not the real fix'}"
    runs = result.get("runs") or {}
    mutants = result.get("mutants") or {}
    tried = f"{mutants.get('tried')}/{mutants.get('made')}" if mutants else "-"
    placed = "unranked" if where is None else f"{where.rank} (tie {where.tie})"
    read = "-" if where is None else str(where.read)
    return (f"| {bug['name']} | {bug['language']} | `{faulty}` | {placed} | {read} | {fix} | "
            f"{runs.get('failed')}/{runs.get('passed')} | {tried} | {result.get('seconds')} / {b['wall']} | {load} | {tree} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m core.bench.locate_bench", description=__doc__.splitlines()[0])
    p.add_argument("corpus", help="the corpus file (TOML, one [[bug]] per bug)")
    p.add_argument("--root", required=True, help="the folder holding the bugs' folders")
    p.add_argument("--perftscope", default="perftscope", help="the perftscope command to run")
    p.add_argument("--only", nargs="*", metavar="NAME", help="these bugs only")
    p.add_argument("--mutants", type=int, default=None,
                   help="pass --mutants N to locate (0: spectra alone; default: locate's own, mutants for as long "
                        "as its --mutant-seconds allow); each native bug's build command is passed unless N is 0")
    p.add_argument("--mutant-seconds", type=float, default=None,
                   help="pass --mutant-seconds S to locate (default: locate's own, 60 s): a native program on a busy "
                        "machine spends much of that building its copies")
    p.add_argument("--tag", default="run", help="the kept JSON is OUT/NAME.TAG.json")
    p.add_argument("--out", default=None, help="where the JSON goes (default: ROOT/out)")
    p.add_argument("--rescore", action="store_true", help="score the kept JSON again, run nothing")
    args = p.parse_args(argv)
    if tomllib is None:
        p.error("the corpus file needs Python 3.11 or later (tomllib)")
    with open(args.corpus, "rb") as f:
        corpus = tomllib.load(f)
    out = args.out or os.path.join(args.root, "out")
    perftscope = command_path(args.perftscope)
    os.makedirs(out, exist_ok=True)
    print(HEADER)
    for bug in corpus["bug"]:
        if args.only and bug["name"] not in args.only:
            continue
        path = os.path.join(out, f"{bug['name']}.{args.tag}.json")
        if args.rescore:
            if not os.path.exists(path):
                continue
            with open(path) as f:
                result = json.load(f)
        else:
            result = run(bug, args.root, perftscope, args.mutants, args.mutant_seconds)
            with open(path, "w") as f:
                json.dump(result, f, indent=1)
        print(row(bug, result, args.root), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
