"""A shadow copy of an engine's source folders, where mutants are written, built and run: the
user's own files are never touched.

    shadow = Shadow(sources, "perftree:/src/engine.py", build="make", folder=tmp)
    with shadow.applied(mutant):             # the mutant written into the copy, the copy restored after
        if shadow.build():                   # rebuilt in the copy (native programs): what holds the mutant
            with launched_with(shadow.env):
                oracle = make_oracle(shadow.spec)    # the copy's program, the copy first on PYTHONPATH

Each source folder is copied (its files, modes and times kept) but for what is no source of the
engine's own: a virtual environment or node_modules is linked, not copied; .git, __pycache__ and
coverage data are left out. The engine's spec is rewritten so that every path under a source
folder names the copy (the script a perftree: or cmd: spec runs, a native program, an engine file
kept beside its source); the copies and their parent folders go first on PYTHONPATH, so a library
imported from a source folder is imported from the copy. Python writes no bytecode in the copy
(a mutant of the same size written within a second of the last would otherwise be read from a
stale .pyc): perftscope writes the copy's bytecode itself, as hash-checked .pyc files (PEP 552),
which an interpreter of perftscope's version reads only while the source's hash matches. The
modules the runs imported are compiled once, when the copy is made; a mutant's file once it is
run a second time (most mutants are run once): a Python engine's process compiles none of them
again (a fifth of a python-chess run's time was compiling its 4,000-line module). The user's
interpreter, arguments and environment stay as they are; another version of Python compiles as it
did.

A native engine's build command runs once in the copy, recorded (core.locate.incremental): after
that a mutant recompiles only the translation units holding the file it changed, and relinks.
Where the command cannot be read so, it runs whole for each mutant.
"""
from __future__ import annotations

import contextlib
import os
import py_compile
import shlex
import shutil
import subprocess
import sys
import threading
import warnings

from ..engines.spec import parse_spec
from ..errors import PerftscopeError
from .coverage import under
from .sources import too_wide
from .incremental import Plan

BUILD_SECONDS = 300.0
MOST_FILES = 20000        # files a source folder may hold to be copied whole (a project's, not a disk's)
_LEFT_OUT = {".git", ".hg", ".svn", "__pycache__", ".pytest_cache", ".mypy_cache"}
_LINKED = {"node_modules", ".venv", "venv", ".tox"}


class Shadow:
    def __init__(self, sources, spec, folder: str, build: str = "", ran=()):
        """`ran`: the engine's files (the user's paths) that the runs ran: the Python ones are
        compiled in the copy now."""
        self.folder = folder
        self.copies: dict[str, str] = {}
        for i, source in enumerate(sources):
            source = os.path.realpath(source)
            copy = os.path.join(folder, str(i), os.path.basename(source) or "source")
            away = _holding(source, folder)
            if too_wide(source) or _holds_more(source, MOST_FILES, away):
                # the root, /tmp or a home holding a script: its copy, twice, would be the
                # machine's (and /tmp holds the copy itself); the files the runs ran are the engine
                _copy_files(source, copy, [p for p in {*ran, *_named(spec)} if under(p, [source])])
            else:
                _copy_tree(source, copy, away)
            self.copies[source] = copy
        self.spec = shadow_spec(spec, self.copies)
        self.build_command = build
        self.plan: Plan | None = None       # how a mutant is rebuilt, once the first build recorded it
        self._recorded = False
        self._changed: set[str] = set()     # files written since the last build (real paths)
        self._bytecode: dict[str, bytes | None] = {}    # a copied .py -> its own text's .pyc (None: none written)
        self._uncompiled: str | None = None    # the mutant's .py, its .pyc not written yet
        paths = [p for copy in self.copies.values() for p in (copy, os.path.dirname(copy))]
        pythonpath = os.environ.get("PYTHONPATH", "")
        self.env = {"PYTHONPATH": os.pathsep.join(paths + ([pythonpath] if pythonpath else [])),
                    "PYTHONDONTWRITEBYTECODE": "1",
                    "GCOV_PREFIX": os.path.join(folder, "gcov"), "GCOV_PREFIX_STRIP": "0",
                    "LLVM_PROFILE_FILE": os.path.join(folder, "llvm", "%p.profraw")}
        for path in sorted(set(ran)):
            copy = self.path(path)
            if copy != path and self._compilable(copy):
                self._bytecode[copy] = _compiled(copy)

    def path(self, original: str) -> str:
        """Where the copy of `original` (a file under a source folder) is."""
        return _mapped(os.path.realpath(original), self.copies) or original

    @contextlib.contextmanager
    def applied(self, mutant):
        """The mutant written into the copy of its file, the file's own text written back after
        (a new write, so a build sees it changed again)."""
        target = self.path(mutant.path)
        if self.build_command and not self._recorded:
            self.build()                    # recorded from the copy as it is, not from a mutant that may not build
        with open(target, "rb") as f:
            original = f.read()
        text = original.decode("utf-8", errors="surrogateescape")
        python = self._compilable(target)
        if python:
            _forget_bytecode(target)            # its own text's: read only by its hash, but not left beside a mutant
        with open(target, "wb") as f:
            f.write(mutant.apply(text).encode("utf-8", errors="surrogateescape"))
        self._changed.add(os.path.realpath(target))
        self._uncompiled = target if python else None
        try:
            yield target
        finally:
            self._uncompiled = None
            if python:
                _forget_bytecode(target)
            with open(target, "wb") as f:
                f.write(original)
            self._changed.add(os.path.realpath(target))
            if python and self._bytecode.get(target) is not None:
                _write_bytecode(target, self._bytecode[target])

    def _compilable(self, copy: str) -> bool:
        """A .py file of the copy itself, its __pycache__ too: not one reached through a linked
        virtual environment or node_modules (the user's own, where nothing is written)."""
        inside = os.path.join(os.path.realpath(self.folder), "")
        return copy.endswith(".py") and os.path.realpath(os.path.dirname(copy)).startswith(inside) \
            and os.path.realpath(copy).startswith(inside)

    def compile_mutant(self):
        """The applied mutant's .py compiled in the copy (once), so that its next runs do not
        compile it each: called before a mutant's second run."""
        target, self._uncompiled = self._uncompiled, None
        if target is not None:
            _compiled(target)

    def build(self) -> bool:
        """The copy built as it is now; True when there is no build command or it succeeded. The
        first build runs the command recorded; the next ones recompile the units holding the
        files written since (the whole command where it could not be read). A mutant that does
        not build is dropped."""
        if not self.build_command:
            return True
        cwd = next(iter(self.copies.values()))
        if not self._recorded:
            self._recorded = True
            self.plan, built = Plan.record(self.build_command, cwd, os.path.join(self.folder, "build"), BUILD_SECONDS)
            self._changed.clear()
            return built
        elif self.plan is not None:
            if not self.plan.rebuild(self._changed):
                return False            # the units stay to be rebuilt: the next build compiles them again
            self._changed.clear()
            return True
        try:
            done = subprocess.run(self.build_command, shell=True, cwd=cwd, capture_output=True,
                                  timeout=BUILD_SECONDS, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0

    def close(self):
        shutil.rmtree(self.folder, ignore_errors=True)


_WARNINGS = threading.Lock()


def _compiled(path: str) -> bytes | None:
    """`path` compiled into its hash-checked .pyc (what this interpreter's import reads while the
    source's hash matches it), its bytes returned; None where it does not compile here (another
    Python's source): the engine's own interpreter compiles it as before."""
    cache = _pyc(path)
    if cache is None:
        return None
    with _WARNINGS, warnings.catch_warnings():
        warnings.simplefilter("ignore")     # a SyntaxWarning is the engine's own to print, when it compiles
        try:
            py_compile.compile(path, cfile=cache, doraise=True, optimize=0,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
            with open(cache, "rb") as f:
                return f.read()
        except (py_compile.PyCompileError, OSError, ValueError, SyntaxError):
            _forget_bytecode(path)
            return None


def _pyc(path: str) -> str | None:
    """Where this interpreter's import looks for `path`'s .pyc: its folder's __pycache__ (not under
    a PYTHONPYCACHEPREFIX of ours, outside the copy)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    name = os.path.splitext(os.path.basename(path))[0]
    return os.path.join(os.path.dirname(path), "__pycache__", f"{name}.{tag}.pyc")


def _write_bytecode(path: str, data: bytes):
    try:
        with open(_pyc(path), "wb") as f:
            f.write(data)
    except OSError:
        _forget_bytecode(path)


def _forget_bytecode(path: str):
    cache = _pyc(path)
    if cache is not None:
        with contextlib.suppress(OSError):
            os.remove(cache)


def shadow_spec(spec, copies: dict[str, str]) -> str:
    """`spec` with every path under a source folder naming its copy instead."""
    spec = parse_spec(spec)
    if spec.kind in ("perftree", "uci", "xboard", "file"):
        target = _mapped(os.path.realpath(os.path.expanduser(spec.target)), copies)
        return spec.text if target is None else spec.text[:len(spec.text) - len(spec.target)] + target
    if spec.kind == "cmd":
        words = []
        for word in shlex.split(spec.target):
            mapped = _mapped(os.path.realpath(word), copies) if os.path.exists(word) else None
            words.append(mapped or word)
        head = spec.text[:spec.text.index(":") + 1]
        return head + " ".join(shlex.quote(w) if "{" not in w else w for w in words)
    raise PerftscopeError(f"{spec.text}: no program of its own to mutate")


def _named(spec) -> list[str]:
    """The files a spec names (its program, a script it runs), as real paths."""
    spec = parse_spec(spec)
    words = shlex.split(spec.target) if spec.kind == "cmd" else [os.path.expanduser(spec.target)]
    return [os.path.realpath(w) for w in words if os.path.isfile(w)]


def _mapped(path: str, copies: dict[str, str]) -> str | None:
    for source, copy in copies.items():
        if path == source or under(path, [source]):
            return os.path.join(copy, os.path.relpath(path, source))
    return None


def _linked(full: str, name: str) -> bool:
    """A folder of what is no source of the engine's own (a virtual environment, node_modules):
    linked into the copy, not copied."""
    return name in _LINKED or os.path.exists(os.path.join(full, "pyvenv.cfg"))


def _holds_more(source: str, most: int, away: str = "") -> bool:
    """Whether `source` holds more than `most` files that would be copied (`away` left out)."""
    count = 0
    for folder, names, files in os.walk(source):
        names[:] = [n for n in names if n not in _LEFT_OUT and not _linked(os.path.join(folder, n), n)
                    and os.path.join(folder, n) != away]
        count += len(files)
        if count > most:
            return True
    return False


def _holding(source: str, folder: str) -> str:
    """The entry of `source` (a real path) that holds `folder` (the copies: left out of every
    copy), or ''. The walks of `source` meet it by that very path: no link is followed."""
    folder = os.path.realpath(folder)
    if not under(folder, [source]):
        return ""
    return os.path.join(source, os.path.relpath(folder, source).split(os.sep)[0])


def _copy_files(source: str, copy: str, files):
    """Only `files` (paths under `source`) copied to `copy`, each at its place, mode and times kept."""
    for path in files:
        target = os.path.join(copy, os.path.relpath(path, source))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(path, target)


def _copy_tree(source: str, copy: str, away: str = ""):
    """`source` copied to `copy`: files with their modes and times (so a build copied along stays
    up to date), what is no source linked or left out, and `away` (the copies' own folder, where
    it is inside the source) never."""
    def ignore(folder, names):
        left = set()
        for name in names:
            full = os.path.join(folder, name)
            if name in _LEFT_OUT or name.endswith((".gcda", ".profraw")) or full == away:
                left.add(name)
            elif os.path.isdir(full) and not os.path.islink(full) and _linked(full, name):
                left.add(name)
                os.makedirs(os.path.join(copy, os.path.relpath(folder, source)), exist_ok=True)
                os.symlink(full, os.path.join(copy, os.path.relpath(full, source)))
        return left
    shutil.copytree(source, copy, symlinks=True, ignore=ignore, dirs_exist_ok=True)
