"""Per-process line coverage of an engine that was not changed for it: the variables one run's
process is started with, and the lines read back from the data it leaves in its run folder.

    env = run_environment(folder, sources)       # given to the engine's process (and its children)
    ... the engine runs and exits ...
    lines = collect(folder, sources)             # {absolute file: {line numbers that ran}}

Every kind is asked for at once, so a launcher of any shape (a shell script that execs a venv's
Python, `node` on a script, a native program) is covered without being told what it is:

- Python: core/locate/pyhook/sitecustomize.py first on PYTHONPATH (any Python that reads it,
  also one other than perftscope's) records the lines of files under the source folders.
- Node: NODE_V8_COVERAGE, V8's block coverage, each line counted by the innermost block range
  holding its first character.
- gcc/clang `--coverage`: GCOV_PREFIX puts the run's .gcda files under the folder; gcov reads
  them beside the objects' .gcno (`gcov -b --json-format --stdout`), with each line's branch
  outcomes: which ways its conditions went in the run (`branches`, finer than the line).
- clang `-fprofile-instr-generate -fcoverage-mapping` and Rust `-C instrument-coverage`:
  LLVM_PROFILE_FILE, merged by llvm-profdata and read by llvm-cov against the program, with its
  branch outcomes where it has them (the lcov export's BRDA lines).
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
from urllib.parse import unquote, urlparse

PYHOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyhook")
TOOL_SECONDS = 30.0


# what every process of a locate's runs starts without: Node reads and parses the whole CA bundle
# NODE_EXTRA_CA_CERTS names (Debian's is 200 kB) before the script's first line, two fifths of a
# perftree script's run, and an engine counting moves opens no TLS connection
LEANER_START: dict[str, str | None] = {"NODE_EXTRA_CA_CERTS": None}


def run_environment(folder: str, sources) -> dict[str, str]:
    """The variables that make one engine process (and its children) leave coverage in `folder`."""
    pythonpath = os.environ.get("PYTHONPATH", "")
    return {"PYTHONPATH": PYHOOK + (os.pathsep + pythonpath if pythonpath else ""),
            "PERFTSCOPE_LOCATE_OUT": folder,
            "PERFTSCOPE_LOCATE_SOURCES": os.pathsep.join(sources),
            "NODE_V8_COVERAGE": os.path.join(folder, "v8"),
            "GCOV_PREFIX": os.path.join(folder, "gcov"), "GCOV_PREFIX_STRIP": "0",
            "LLVM_PROFILE_FILE": os.path.join(folder, "llvm", "%p.profraw")}


def scratch_environment(folder: str) -> dict[str, str]:
    """For the engine's calls outside every run (the finder's deeper divides): a native program's
    coverage data goes to a folder thrown away, not into its build folder's .gcda files."""
    return {"GCOV_PREFIX": os.path.join(folder, "gcov"), "GCOV_PREFIX_STRIP": "0",
            "LLVM_PROFILE_FILE": os.path.join(folder, "llvm", "%p.profraw")}


def under(path: str, roots) -> bool:
    return any(path.startswith(os.path.join(root, "")) for root in roots)


def collect(folder: str, sources, programs=(), branches: dict | None = None) -> tuple[dict[str, set[int]], set[str]]:
    """({file: lines that ran} for files under `sources`, the kinds of data found: 'python',
    'node', 'gcov', 'llvm'). `programs`: native programs llvm-cov reads the mapping from.
    `branches`, when given, is filled with {file: {line: the branch outcomes taken}} where the
    data has them (gcov: the outcomes by their index in the line's branch list)."""
    roots = [os.path.realpath(s) for s in sources]
    lines: dict[str, set[int]] = {}
    kinds: set[str] = set()
    for reader, kind in ((_python, "python"), (_node, "node"), (_gcov, "gcov")):
        found = reader(folder, roots, branches) if reader is _gcov else reader(folder, roots)
        if found is not None:
            kinds.add(kind)
            for path, numbers in found.items():
                lines.setdefault(path, set()).update(numbers)
    found = _llvm(folder, roots, programs, branches)
    if found is not None:
        kinds.add("llvm")
        for path, numbers in found.items():
            lines.setdefault(path, set()).update(numbers)
    return lines, kinds


def _json_files(pattern):
    """The JSON documents of the files matching `pattern` (a run's own coverage data), None when
    there are none; a file cut short by a killed run is skipped."""
    names = glob.glob(pattern)
    if not names:
        return None
    documents = []
    for name in names:
        try:
            with open(name) as f:
                documents.append(json.load(f))
        except (OSError, ValueError):
            continue
    return documents


def _python(folder, roots):
    documents = _json_files(os.path.join(folder, "py-*.json"))
    if documents is None:
        return None
    out: dict[str, set[int]] = {}
    for data in documents:
        for path, numbers in data.items():
            if under(path, roots):
                out.setdefault(path, set()).update(numbers)
    return out


# a line holding no code: blank, a comment, braces, `else` (not counted, and no break in a run of lines)
NOT_CODE = re.compile(r"^\s*(?:[{}()\[\];,]*|(?:#|//|/\*|\*).*|else\s*:?\{?|\}\s*else\s*\{?)\s*$")


def _node(folder, roots):
    documents = _json_files(os.path.join(folder, "v8", "*.json"))
    if documents is None:
        return None
    out: dict[str, set[int]] = {}
    for document in documents:
        for script in document.get("result", []):
            url = urlparse(script.get("url", ""))
            if url.scheme != "file":
                continue
            path = os.path.realpath(unquote(url.path))
            if not under(path, roots):
                continue
            ranges = [(r["startOffset"], r["endOffset"], r["count"])
                      for fn in script.get("functions", []) for r in fn.get("ranges", [])]
            out.setdefault(path, set()).update(_node_lines(path, ranges))
    return out


def _node_lines(path: str, ranges) -> set[int]:
    """The lines whose first character lies in a range that ran, the innermost range deciding."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return set()
    ran, offset = set(), 0
    for number, line in enumerate(text.split("\n"), 1):
        start = offset + len(line) - len(line.lstrip())
        offset += len(line) + 1
        if number == 1 and line.startswith("#!") or NOT_CODE.match(line):
            continue
        inner = None
        for lo, hi, count in ranges:
            if lo <= start < hi and (inner is None or hi - lo < inner[1] - inner[0]):
                inner = (lo, hi, count)
        if inner is not None and inner[2] > 0:
            ran.add(number)
    return ran


def _gcov(folder, roots, branches: dict | None = None):
    # the .gcda lie under the object's own path: a dot-folder in it must be walked too
    data = [os.path.join(root, name) for root, _, names in os.walk(os.path.join(folder, "gcov"))
            for name in names if name.endswith(".gcda")]
    if not data:
        return None
    gcov = shutil.which("gcov")
    if gcov is None:
        return {}
    base = os.path.join(folder, "gcov")
    out: dict[str, set[int]] = {}
    for gcda in data:
        notes = gcda[len(base):][:-len(".gcda")] + ".gcno"     # the object's own path, beside it
        here = os.path.dirname(gcda)
        link = gcda[:-len(".gcda")] + ".gcno"
        if not os.path.exists(link):
            try:
                os.symlink(notes, link)
            except OSError:
                continue
        try:
            done = subprocess.run([gcov, "-b", "--json-format", "--stdout", os.path.basename(gcda)], cwd=here,
                                  capture_output=True, text=True, timeout=TOOL_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            continue
        for text in done.stdout.splitlines():
            try:
                report = json.loads(text)
            except ValueError:
                continue
            cwd = report.get("current_working_directory", "")
            for entry in report.get("files", []):
                path = os.path.realpath(os.path.join(cwd, entry["file"]))
                if not under(path, roots):
                    continue
                out.setdefault(path, set()).update(
                    line["line_number"] for line in entry.get("lines", []) if line.get("count", 0) > 0)
                if branches is None:
                    continue
                taken = branches.setdefault(path, {})
                for line in entry.get("lines", []):     # a template's line once per instance: their union
                    ways = [i for i, b in enumerate(line.get("branches") or ()) if b.get("count", 0) > 0]
                    if ways:
                        taken.setdefault(line["line_number"], set()).update(ways)
    return out


def _llvm(folder, roots, programs, branches: dict | None = None):
    raw = glob.glob(os.path.join(folder, "llvm", "*.profraw"))
    if not raw:
        return None
    profdata, cov = shutil.which("llvm-profdata"), shutil.which("llvm-cov")
    if profdata is None or cov is None or not programs:
        return {}
    merged = os.path.join(folder, "llvm", "merged.profdata")
    try:
        subprocess.run([profdata, "merge", "-sparse", *raw, "-o", merged], capture_output=True,
                       timeout=TOOL_SECONDS, check=True)
        objects = [arg for p in programs[1:] for arg in ("-object", p)]
        done = subprocess.run([cov, "export", "-format=lcov", "-instr-profile", merged, programs[0], *objects],
                              capture_output=True, text=True, timeout=TOOL_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return {}
    out: dict[str, set[int]] = {}
    path = None
    for line in done.stdout.splitlines():
        if line.startswith("SF:"):
            path = os.path.realpath(line[3:])
            path = path if under(path, roots) else None
        elif line.startswith("DA:") and path is not None:
            number, count = line[3:].split(",")[:2]
            if int(count) > 0:
                out.setdefault(path, set()).add(int(number))
        elif line.startswith("BRDA:") and path is not None and branches is not None:
            number, _, way, taken = line[5:].split(",")[:4]    # taken is '-' where the line never ran
            if taken not in ("-", "0"):
                branches.setdefault(path, {}).setdefault(int(number), set()).add(int(way))
    return out
