"""Where an engine's source is, and what to tell its author when no coverage comes back.

A spec names a program (core.engines.spec): for a script (a `#!` line, or `.py`/`.js`) the
source is the script's folder; for an interpreter run on a script (`cmd:node engine.js ...`)
the script's; for a native program built with `--coverage`, the folder holding it and the
objects whose .gcda paths it carries (for one built with llvm's profiles, its own folder); an engine file may say `source` itself. `--source DIR`
(repeatable) overrides all of them.
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

from ..engines.engine_file import load_engine_file
from ..engines.spec import IN_PROCESS, WITH_TARGET, Spec, parse_spec
from ..errors import EngineError

_INTERPRETERS = re.compile(r"^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|bash|sh|dash|env)$")
_GCDA = re.compile(rb"[\x21-\x7e]{2,4096}\.gcda")


@dataclass(frozen=True)
class Program:
    """What runs: `path` the program (or script) named, `kind` what it looks like ('python',
    'node', 'shell', 'native', 'other'), `sources` the folders found for it, `coverage` what an
    engine file says to expect ('' when not said), `objects` the .gcda paths a native program
    carries (built with --coverage)."""
    path: str
    kind: str
    sources: tuple[str, ...]
    coverage: str = ""
    objects: tuple[str, ...] = ()
    build: str = ""               # an engine file's `build`: how it is rebuilt in a copy of its source


def _words(spec: Spec) -> tuple[list[str], tuple[str, ...], str, str]:
    """(the command's words, the folders an engine file names, what coverage it says, its build)"""
    if spec.kind == "cmd":
        return shlex.split(spec.target), (), "", ""
    if spec.kind == "file":
        described = load_engine_file(spec.target)
        return list(described.dialogue.command), described.source, described.coverage, described.build
    return [spec.target], (), "", ""


def program_of(spec) -> Program:
    """The program a spec runs and where its source is; EngineError for an engine that is not a
    program of the user's (core, python-chess, stockfish)."""
    spec = parse_spec(spec)
    if spec.kind in IN_PROCESS:
        programs = [f"{kind}:" for kind in WITH_TARGET]
        raise EngineError(f"locate ranks the lines of an engine's own program: {spec.text} runs inside "
                          f"perftscope (give the engine under test as {', '.join(programs[:-1])} or {programs[-1]})")
    if spec.kind == "stockfish":
        return Program("stockfish", "native", ())
    words, named, coverage, build = _words(spec)
    path = os.path.realpath(os.path.expanduser(words[0]))
    if os.sep not in words[0]:
        import shutil
        path = os.path.realpath(shutil.which(words[0]) or words[0])
    if _INTERPRETERS.match(os.path.basename(path)):
        # an interpreter: the first argument that is a file is the program
        for word in words[1:]:
            if not word.startswith("-") and os.path.isfile(word):
                path = os.path.realpath(word)
                break
    kind = kind_of(path)
    objects: tuple[str, ...] = ()
    profiled = False
    if kind == "native":
        objects = gcda_paths(path)
        profiled = llvm_profiled(path)
    if named:
        sources = named
    elif kind == "native" and objects:
        sources = _build_folders(os.path.dirname(path), [os.path.dirname(o) for o in objects])
    elif kind in ("python", "node", "shell", "other") or profiled:
        sources = (os.path.dirname(path),)
    else:
        sources = ()
    return Program(path, kind, tuple(os.path.realpath(s) for s in sources), coverage, objects, build)


def _build_folders(program: str, objects: list[str]) -> tuple[str, ...]:
    """The folder holding a native program and the objects it was built from: the one folder
    holding them all, unless that is a folder of the whole system (a program copied away from its
    build, whose objects' paths name the build: their common folder is `/`, which locate would copy
    for each mutant), when the program's folder and the objects' are each a source."""
    together = os.path.commonpath([program] + objects)
    if not too_wide(together):
        return (together,)
    built = os.path.commonpath(objects)
    return tuple(dict.fromkeys(folder for folder in (built, program) if not too_wide(folder)))


def too_wide(folder: str) -> bool:
    """A folder that is no project's own: the root, one just below it (/tmp, /home, /usr), or
    the user's home."""
    folder = os.path.realpath(folder)
    return (len([p for p in folder.split(os.sep) if p]) < 2
            or folder == os.path.realpath(os.path.expanduser("~")))


def kind_of(path: str) -> str:
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return "other"
    if head.startswith(b"\x7fELF") or head[:4] in (b"\xcf\xfa\xed\xfe", b"MZ\x90\x00"):
        return "native"
    first = head.split(b"\n", 1)[0]
    if path.endswith(".py") or (first.startswith(b"#!") and b"python" in first):
        return "python"
    if path.endswith((".js", ".mjs", ".cjs")) or (first.startswith(b"#!") and b"node" in first):
        return "node"
    if first.startswith(b"#!"):
        return "shell"
    return "other"


def gcda_paths(path: str) -> tuple[str, ...]:
    """The .gcda files a program built with --coverage writes (their paths are in it)."""
    try:
        with open(path, "rb") as f:
            data = f.read(64 * 1024 * 1024)
    except OSError:
        return ()
    return tuple(sorted({m.group().decode() for m in _GCDA.finditer(data) if m.group().startswith(b"/")}))


def llvm_profiled(path: str) -> bool:
    """Built with clang's -fprofile-instr-generate or Rust's -C instrument-coverage."""
    try:
        with open(path, "rb") as f:
            return b"__llvm_profile_runtime" in f.read(64 * 1024 * 1024)
    except OSError:
        return False


def _python_flags(path: str) -> list[str]:
    """The flags of a script's `#!` line that keep sitecustomize from running: -S (no site),
    -I and -E (PYTHONPATH ignored); also when combined, as in `-IS`."""
    try:
        with open(path, "rb") as f:
            first = f.readline(256).decode("utf-8", "replace")
    except OSError:
        return []
    if not first.startswith("#!"):
        return []
    words = first[2:].split()
    python = next((i for i, w in enumerate(words) if os.path.basename(w).startswith("python")), None)
    if python is None:
        return []
    flags = "".join(w[1:] for w in words[python + 1:] if w.startswith("-") and not w.startswith("--"))
    return [f"-{c}" for c in "SIE" if c in flags]     # env's own -S before the interpreter aside


def no_coverage_hint(program: Program, name: str) -> str:
    """One line: how to build or run the engine so that its runs leave coverage."""
    kind = program.coverage or program.kind
    if kind == "python":
        flags = _python_flags(program.path)
        if flags:
            return (f"no line coverage came back from {name}: its first line runs Python with {' '.join(flags)}, "
                    f"which skips the start-up hook the coverage comes from (a sitecustomize on PYTHONPATH): "
                    f"run it without -S, -I or -E")
        return (f"no line coverage came back from {name}: its Python must read PYTHONPATH and import site "
                f"(do not run it with -S, -I or -E) and exit normally, or its lines are not under the "
                f"source folder")
    if kind == "node":
        return (f"no line coverage came back from {name}: Node must keep NODE_V8_COVERAGE in its "
                f"environment and exit normally (process.exit is fine, a kill is not)")
    if kind in ("native", "gcov", "llvm"):
        if program.objects or kind == "gcov":
            return (f"no line coverage came back from {name}: it is built with --coverage but wrote no "
                    f".gcda: it must exit normally (an interactive engine is sent its quit command; "
                    f"give the engine file a `quit` line it obeys)")
        return (f"no line coverage came back from {name}: build it with coverage, e.g. gcc or clang with "
                f"CFLAGS=--coverage LDFLAGS=--coverage (gcov), clang -fprofile-instr-generate "
                f"-fcoverage-mapping, or Rust with RUSTFLAGS='-C instrument-coverage' (llvm-cov), then "
                f"give --source DIR")
    return (f"no line coverage came back from {name}: run it as a Python or Node script, or build it "
            f"with --coverage (gcc/clang), and give --source DIR")
