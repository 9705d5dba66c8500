"""A native engine rebuilt for a mutant by recompiling only what the mutated file is part of.

The user's build command (a compiler line, a shell line of several, `make`) is run in the shadow
copy, its C and C++ files made newer first (a Makefile then runs every rule), with wrappers first on PATH for the C and C++ compilers (cc, gcc, g++, clang, ...): each
records its arguments and working folder. The first time the wrappers compile nothing (the plan
compiles everything next, so the engine is not built twice); where that build or its plan fails
(a build that runs what it compiled), the command runs again with the wrappers calling the real
compiler. From what was recorded comes a plan:

- a `-c` compile is kept as it was (its object is the one the build's link reads);
- a line that compiles and links at once (`gcc -o driver a.c b.c -lm`) is split: each source
  compiled into an object of its own, then the link with those objects where the sources were;
- every compile also writes its dependencies (`-MMD`): a header's mutant recompiles the
  translation units that include it;
- coverage flags are left out of the compiles: a mutant's runs need no coverage, and the
  instrumented code is slower to build and to run.

    plan = Plan.record("make", cwd=copy, folder=scratch)     # None: not understood, rebuild it all
    plan.rebuild({copy_of_movegen_c})                        # the units holding it, then the links

Where the build cannot be read so (no compiler run through PATH, a language of another kind, an
option chosen per file with -x, an archive or object the recorded compiles did not make), there
is no plan and the caller runs the user's build command for each mutant, as before.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

COMPILERS = re.compile(r"^(cc|c\+\+|gcc|g\+\+|clang|clang\+\+)(-\d+(\.\d+)*)?$")
SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".cp", ".C", ".CPP", ".s", ".S")
HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl", ".ipp", ".tpp")
# options whose value is the next argument
_VALUED = {"-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-L", "-l",
           "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-T", "-u", "-e", "--param",
           "-aux-info", "-isysroot", "-target", "--sysroot", "-arch"}
_COVERAGE = {"--coverage", "-fprofile-arcs", "-ftest-coverage", "-fprofile-instr-generate", "-fcoverage-mapping"}
_DEPENDENCY = {"-MD", "-MMD", "-MP"}
_LINK_ONLY = re.compile(r"^(-l|-L|-Wl,|-static$|-shared$|-rdynamic$|-pie$|-no-pie$)")
_NOT_UNDERSTOOD = {"-x", "-E", "-S", "-M", "-MM", "-save-temps"}
STEP_SECONDS = 300.0


@dataclass
class Step:
    """One compiler run: `argv` in `cwd`; for a compile, the sources it reads (`deps`, from its
    dependency file after it ran)."""
    argv: list[str]
    cwd: str
    depfile: str = ""
    deps: set[str] = field(default_factory=set)

    @property
    def compiles(self) -> bool:
        return bool(self.depfile)

    def run(self) -> bool:
        try:
            done = subprocess.run(self.argv, cwd=self.cwd, capture_output=True, timeout=STEP_SECONDS,
                                  stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return False
        if done.returncode == 0 and self.depfile:
            self.deps = read_depfile(self.depfile, self.cwd)
        return done.returncode == 0


class Plan:
    """The compiles and links of a recorded build; `rebuild(changed)` the compiles reading any of
    the `changed` files (absolute, real paths), then every link."""

    def __init__(self, compiles: list[Step], links: list[Step]):
        self.compiles, self.links = compiles, links

    @classmethod
    def record(cls, command: str, cwd: str, folder: str, timeout: float = STEP_SECONDS) -> tuple[Plan | None, bool]:
        """(the plan of `command` run in `cwd`, whether the copy is built): the command runs as the
        user wrote it through recording wrappers, first compiling nothing, then, where that fails,
        compiling; the plan's objects go under `folder`. No plan where the build is not understood
        or a first compile of the plan fails (the copy is then built by the command itself)."""
        wrappers = os.path.join(folder, "wrappers")
        compilers = _wrap(wrappers)
        _touch_sources(cwd)
        for dry in (True, False):
            log = os.path.join(folder, "dry" if dry else "recorded")
            os.makedirs(log, exist_ok=True)
            env = dict(os.environ, PATH=wrappers + os.pathsep + os.environ.get("PATH", ""),
                       PERFTSCOPE_BUILD_LOG=log, PERFTSCOPE_BUILD_DRY="1" if dry else "")
            try:
                done = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, timeout=timeout,
                                      stdin=subprocess.DEVNULL, env=env)
            except (OSError, subprocess.TimeoutExpired):
                done = None
            if done is None or done.returncode != 0:
                if dry:
                    continue
                return None, False
            plan = planned(_recorded(log), compilers, os.path.join(folder, "objects"))
            if plan is not None and plan.rebuild_all():
                return plan, True
            if not dry:
                return None, True
        return None, False

    def rebuild_all(self) -> bool:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            if not all(pool.map(Step.run, self.compiles)):
                return False
        return all(step.run() for step in self.links)

    def rebuild(self, changed: set[str]) -> bool:
        for step in self.compiles:
            if step.deps & changed and not step.run():
                return False
        return all(step.run() for step in self.links)


def planned(recorded: list[tuple[str, list[str]]], compilers: dict[str, str], objects: str) -> Plan | None:
    """The plan of the recorded compiler runs ([(cwd, argv)] in order), or None."""
    os.makedirs(objects, exist_ok=True)
    if not recorded:
        return None
    compiles: list[Step] = []
    links: list[Step] = []
    made: set[str] = set()                  # the objects the compiles write
    for cwd, argv in recorded:
        compiler = compilers.get(os.path.basename(argv[0]))
        if compiler is None:
            return None
        args = argv[1:]
        if any(a in _NOT_UNDERSTOOD for a in args):
            return None
        words = _words(args)
        sources = [i for i, (a, valued) in enumerate(words) if not valued and a.endswith(SOURCES)]
        output = next((words[i + 1][0] for i, (a, _) in enumerate(words) if a == "-o" and i + 1 < len(words)), None)
        flags = [a for i, (a, valued) in enumerate(words) if i not in sources]
        if "-c" in args:
            if len(sources) != 1 and output is not None:
                return None
            for i in sources:
                source = words[i][0]
                target = output or os.path.splitext(os.path.basename(source))[0] + ".o"
                step = _compile(compiler, cwd, _without(flags, {"-c"}, output_too=True), source,
                                os.path.join(cwd, target), objects, len(compiles))
                compiles.append(step)
                made.add(os.path.realpath(os.path.join(cwd, target)))
            continue
        if not sources and not any(a.endswith((".o", ".a", ".so")) for a, valued in words if not valued):
            return None                     # neither a compile nor a link: --version, a probe
        link = []
        inputs = {a for i, (a, valued) in enumerate(words) if not valued and not a.startswith("-")}
        compile_flags = [a for a in _without(flags, set(), output_too=True)
                         if not _LINK_ONLY.match(a) and a not in inputs]
        compile_flags = _unpair(compile_flags)
        for i, (a, valued) in enumerate(words):
            if i in sources:
                target = os.path.join(objects, f"{len(compiles)}.o")
                compiles.append(_compile(compiler, cwd, compile_flags, a, target, objects, len(compiles)))
                link.append(target)
                made.add(target)
            else:
                link.append(a)
        for a, valued in words:
            if not valued and a.endswith((".o", ".a", ".so")):
                path = os.path.realpath(os.path.join(cwd, a))
                if path not in made and not path.startswith(("/usr/", "/lib")):
                    return None             # an object or archive made by something else (ar, a script)
        links.append(Step([compiler, *link], cwd))
    if not compiles or not links:
        return None
    return Plan(compiles, links)


def _compile(compiler, cwd, flags, source, target, objects, n) -> Step:
    depfile = os.path.join(objects, f"{n}.d")
    flags = [a for a in flags if a not in _COVERAGE]
    return Step([compiler, *flags, "-c", source, "-o", target, "-MMD", "-MF", depfile], cwd, depfile)


def _words(args: list[str]) -> list[tuple[str, bool]]:
    """Each argument with whether it is the value of the option before it."""
    out, valued = [], False
    for a in args:
        out.append((a, valued))
        valued = not valued and a in _VALUED
    return out


def _without(flags: list[str], drop: set[str], output_too: bool) -> list[str]:
    """`flags` without `drop`, the dependency options (ours replace them) and, `output_too`, `-o X`."""
    out, skip = [], False
    for a in flags:
        if skip:
            skip = False
            continue
        if a in drop or a in _DEPENDENCY:
            continue
        if a in ("-MF", "-MT", "-MQ") or (output_too and a == "-o"):
            skip = True
            continue
        out.append(a)
    return out


def _unpair(flags: list[str]) -> list[str]:
    """Link-only options given apart from their value (`-l m`, `-L dir`, `-Xlinker x`) left out."""
    out, skip = [], False
    for a in flags:
        if skip:
            skip = False
            continue
        if a in ("-l", "-L", "-Xlinker", "-T", "-u", "-e"):
            skip = True
            continue
        out.append(a)
    return out


def read_depfile(path: str, cwd: str) -> set[str]:
    """The real paths a `-MMD` dependency file names (the target's own name left out)."""
    try:
        with open(path) as f:
            text = f.read().replace("\\\n", " ")
    except OSError:
        return set()
    _, _, deps = text.partition(": ")
    names = re.split(r"(?<!\\)\s+", deps.split("\n", 1)[0].strip())
    return {os.path.realpath(os.path.join(cwd, n.replace("\\ ", " "))) for n in names if n}


def _touch_sources(folder: str):
    """Every C and C++ source and header under `folder` (a copy) made newer than what was built
    from it, so that a Makefile's rules all run and are recorded, none skipped as up to date."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in names:
            if name.endswith(SOURCES + HEADERS):
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    os.utime(path)


def _wrap(folder: str) -> dict[str, str]:
    """Recording wrappers in `folder` for every C/C++ compiler on PATH: {name: the real compiler}."""
    os.makedirs(folder, exist_ok=True)
    found: dict[str, str] = {}
    for directory in os.get_exec_path():
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            if name in found or not COMPILERS.match(name):
                continue
            real = shutil.which(name, path=directory)
            if real is None:
                continue
            found[name] = real
            wrapper = os.path.join(folder, name)
            with open(wrapper, "w") as f:
                # one file per run (a parallel make writes several at once): the folder, the count, the arguments
                f.write('#!/bin/sh\n{ printf \'%s\\0\' "$PWD" "$#" "$0" "$@"; } > "$(mktemp "$PERFTSCOPE_BUILD_LOG/'
                        '$(date +%s%N).XXXXXX")"\n[ -n "$PERFTSCOPE_BUILD_DRY" ] && exit 0\n' f'exec "{real}" "$@"\n')
            os.chmod(wrapper, 0o755)
    return found


def _recorded(log: str) -> list[tuple[str, list[str]]]:
    """[(cwd, argv)] of the recorded compiler runs, in the order they started."""
    runs = []
    for name in os.listdir(log):
        path = os.path.join(log, name)
        with open(path, "rb") as f:
            fields = f.read().decode("utf-8", errors="surrogateescape").split("\0")[:-1]
        if len(fields) < 3:
            continue
        started = int(name.split(".")[0]) if name.split(".")[0].isdigit() else 0
        runs.append((started, name, fields[0], fields[2:]))
    runs.sort()
    return [(cwd, argv) for _, _, cwd, argv in runs]
