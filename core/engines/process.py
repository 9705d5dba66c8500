"""Engine processes that cannot hurt the app: each started in a session of its own and watched by
the warden, every call with a timeout, crash reports that quote the engine's own error, and
nothing left running after it (what it started killed with it, even a program that escaped its
session but holds its pipes). Its pipes are read by core.engines.pipes.

`EngineProcess` is one engine process: interactive ones (UCI, xboard, engine files) are kept
alive across calls; a per-call program (core.engines.command's `run_command`) has no input.
The caller's thread only ever waits with a deadline.
"""
from __future__ import annotations

import atexit
import contextlib
import contextvars
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass

from ..errors import EngineCrashed, EngineError, EngineFlood, EngineTimeout, OracleCancelled
from . import warden
from .pipes import MAX_BYTES, MAX_LINES, QUIET, EngineLog, Pipes, own_error
from .usage import Usage, peak_memory

QUIT_SECONDS = 1.0            # an engine asked to quit gets this long before it is killed
PEAK_EVERY = 0.01             # seconds between two readings of a per-call program's peak memory


@dataclass(frozen=True)
class Activity:
    """A call in progress: its number (1 for an oracle's first call), seconds so far, and what
    it is doing when that is more than answering (`doing`: "learning how X prints its divide
    (3 of 8)" while calibration asks its positions)."""
    call: int
    seconds: float
    doing: str = ""

    def words(self, name: str) -> str:
        """What a window says while it waits for engine `name`."""
        if self.doing:
            return f"{self.doing}, {self.seconds:.1f} s"
        return f"waiting for {name}: call {self.call}, {self.seconds:.1f} s"


def describe_exit(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def executable(path: str, name: str) -> str:
    """An absolute path to run, or EngineError saying why `path` cannot be run."""
    if not path:
        raise EngineError(f"{name}: no program given (write the spec as uci:PATH or perftree:PATH)")
    found = path if os.sep in path else shutil.which(path)
    if found is None:
        raise EngineError(f"{name}: {path!r} is not a file and not a program on PATH")
    if not os.path.isfile(found):
        raise EngineError(f"{name}: {found} does not exist")
    if not os.access(found, os.X_OK):
        raise EngineError(f"{name}: {found} is not executable (chmod +x it)")
    return os.path.abspath(found)


# (variables, processes started) of the innermost `launched_with` in this thread, if any
_launch: contextvars.ContextVar = contextvars.ContextVar("engine_launch", default=None)


@contextlib.contextmanager
def launched_with(env: dict[str, str | None]):
    """Every engine process this thread starts inside gets `env` on top of its own (locate's
    coverage variables: one data folder per run; a variable given None is unset); yields the
    list of the Popen objects started, so the caller can wait for them to exit and write their data."""
    started: list[subprocess.Popen] = []
    token = _launch.set((dict(env), started))
    try:
        yield started
    finally:
        _launch.reset(token)


def spawn(args, cwd=None, env=None, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start an engine in a session of its own (stopping it also stops whatever a wrapper
    script started; a terminal's Ctrl-C does not reach it), unbuffered bytes on every pipe (the
    readers split and decode lines themselves), watched by the warden in case perftscope dies."""
    launch = _launch.get()
    if launch is not None:
        env = {**(env or {}), **launch[0]}
    full_env = None
    if env:
        full_env = {str(k): str(v) for k, v in {**os.environ, **env}.items() if v is not None}
    proc = subprocess.Popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=cwd, env=full_env, start_new_session=True, bufsize=0)
    warden.watch(proc.pid, pipe_inodes(proc))
    if launch is not None:
        launch[1].append(proc)
    return proc


def pipe_inodes(proc: subprocess.Popen) -> set[int]:
    """The inode numbers of the pipes between us and the process: whoever else holds one was
    started by it."""
    return {os.fstat(p.fileno()).st_ino for p in (proc.stdin, proc.stdout, proc.stderr) if p is not None}


def exited(proc: subprocess.Popen) -> bool:
    """Whether the process has exited, without reaping it: until it is reaped its pid (and so
    its process group and session) cannot be given to another process."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


class EngineProcess:
    """One engine process: its life here (started, reaped, killed with what it started, its crash
    said in its own words), its I/O in `pipes` (core.engines.pipes). `read_line(deadline)` returns
    the next stdout line, None when the engine closed its output (it died), and raises
    EngineTimeout, EngineFlood or OracleCancelled, the engine stopped; `pipes.begin_call()` resets
    the per-call output counters."""

    def __init__(self, name: str, args: list[str], cwd=None, env=None, log: EngineLog | None = None,
                 interactive: bool = True, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES):
        self.name, self.args, self.log = name, list(args), log
        self.usage: Usage | None = None     # what the OS says it used, once reap() has ended it
        self.peak: int | None = None        # a per-call program's peak memory, read while it runs
        self.command = shlex.join(self.args)
        self.cancelled = threading.Event()
        self.input_closed = False
        self._ended = threading.Event()
        try:
            self.proc = spawn(self.args, cwd=cwd, env=env,
                              stdin=subprocess.PIPE if interactive else subprocess.DEVNULL)
        except OSError as e:
            raise EngineError(f"{name}: cannot run {self.command}: {e.strerror or e}") from None
        self._pipes = pipe_inodes(self.proc)
        self.pipes = Pipes(name, self.proc.stdin, self.proc.stdout, self.proc.stderr, log, max_lines, max_bytes)
        if not interactive:
            threading.Thread(target=self._watch_peak, daemon=True, name=f"{name} peak").start()
        _running.add(self)

    def _watch_peak(self):
        """Read the program's high-water mark while it runs: once it has exited its address space
        is gone, and wait4's figure includes ours (core.engines.usage). A program shorter than
        PEAK_EVERY may end before the first reading."""
        while self.proc.returncode is None and not self._ended.is_set():
            peak = peak_memory(self.proc.pid)
            if peak:
                self.peak = max(self.peak or 0, peak)
            self._ended.wait(PEAK_EVERY)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return not exited(self.proc)

    def send(self, line: str, what: str):
        """Write one line to the engine; EngineCrashed when it is gone or closed its input."""
        try:
            self.pipes.write(line)
        except (OSError, ValueError):
            self.input_closed = not exited(self.proc)
            raise self.crashed(what) from None

    def check_stderr_kept(self, what: str):
        """EngineFlood when lines of stderr were dropped during this call (for an answer read
        there, a dropped row would read as a move not generated)."""
        lost = self.pipes.stderr_lost
        if lost:
            self.kill()
            raise EngineFlood(f"{self.name}: printed more on stderr than could be kept while answering {what} "
                              f"({lost} lines dropped); is it looping? (the engine was stopped)")

    def read_line(self, deadline: float, seconds: float, what: str, quiet: float | None = None,
                  stream: str = "stdout"):
        """The next line of `stream` ('stdout', 'stderr', or 'both': a line of either, stderr's
        as StderrLine). `quiet`: return QUIET when no line comes within that many seconds before
        the deadline, and leave the engine running (an answer whose end is not known yet)."""
        wait = max(0.0, deadline - time.monotonic())
        try:
            line = self.pipes.read(stream, wait if quiet is None else min(wait, quiet), what)
        except queue.Empty:
            if quiet is not None and time.monotonic() < deadline:
                return QUIET
            waited = time.monotonic() - self.pipes.call_started
            printed = self._printed()
            self.kill()
            if self.cancelled.is_set():
                raise OracleCancelled(f"{self.name}: cancelled while answering {what}") from None
            raise EngineTimeout(f"{self.name}: no answer within {seconds:g} s to {what} (waited "
                                f"{waited:.1f} s){printed}; the engine was stopped",
                                seconds=seconds) from None
        except EngineFlood:
            self.kill()
            raise
        if line is None and self.cancelled.is_set():
            raise OracleCancelled(f"{self.name}: cancelled while answering {what}")
        return line

    def _printed(self) -> str:
        """What a timeout message should add: what it printed (core.engines.pipes), that it closed
        its input, what it left holding its output when it exited."""
        note = self.pipes.printed()
        if not exited(self.proc) and self.pipes.input_closed():
            note += "; it closed its input (stdin), so it could not read what was sent"
        if exited(self.proc):
            left = warden.holders(self._pipes)
            if left:
                note += (f"; it exited, but {warden.names(left)} it started kept its output open "
                         f"(start background programs with their output redirected, or wait for them)")
        return note

    def reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for the process to exit and return its exit code (None if
        it is still running). What it left in its process group is killed first, while its pid
        is still its own; then it is reaped with wait4, so `usage` keeps the CPU time the kernel
        counted for it and the children it waited for: the one moment that figure exists."""
        deadline = time.monotonic() + timeout
        pause = 0.0002
        while not exited(self.proc):
            if time.monotonic() >= deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.01)       # quick for programs that exit at once, cheap for others
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._reap()
        return self.proc.returncode

    def _reap(self):
        """Collect the exited (or killed) process with wait4 and tell the warden it is gone."""
        deadline = time.monotonic() + 5
        while self.proc.returncode is None:
            try:
                pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            except ChildProcessError:          # reaped elsewhere: the exit code is all there is
                self.proc.wait()
                break
            if pid:
                self.usage = Usage(usage.ru_utime + usage.ru_stime, self.peak, "wait4")
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() >= deadline:   # unkillable (stuck in the kernel): the warden keeps it
                return
            time.sleep(0.001)
        warden.forget(self.proc.pid)

    def crashed(self, what: str) -> EngineError:
        """The error for an engine whose output ended or which closed its input: wait briefly
        for its exit code and let the stderr reader finish, then quote the engine's own error."""
        if self.input_closed or self.reap(2) is None:
            lingered = True        # closed its output (or input) but lingers: finish it
            self.kill()
        else:
            lingered = False
        stderr = self.pipes.stderr_read(timeout=1)
        if self.cancelled.is_set():
            return OracleCancelled(f"{self.name}: cancelled while answering {what}")
        own = own_error(stderr)
        detail = f": {own}" if own else " (nothing on stderr)"
        if lingered:
            how = "closed its input (stdin)" if self.input_closed else "closed its output (stdout)"
            message = f"{self.name} {how} while answering {what} but kept running; it was stopped{detail}"
        else:
            message = f"{self.name} {describe_exit(self.proc.returncode)} while answering {what}{detail}"
        error = EngineCrashed(message, own_error=own, command=self.command,
                              exit_code=None if lingered else self.proc.returncode, output=tuple(stderr))
        if self.log is not None:
            self.log.add("!", str(error))
        return error

    def kill(self):
        """End the engine and everything it started now (core.engines.warden.end); wake a reader
        waiting for its output."""
        self.pipes.end()
        if self.proc.returncode is None:        # not reaped: its pid is still its own to signal
            warden.end({self.proc.pid})
        # the readers see the end of their pipes at once, unless a process that escaped (it
        # left the session and its parent is gone) still holds one: find it by the pipe
        if self.pipes.stop():
            warden.end(set(), self._pipes)
        self._ended.set()
        self._reap()
        self.pipes.close_input()
        _running.discard(self)

    def close(self, quit_line: str | None = None):
        """Ask the engine to quit (with `quit_line`) and end it if it has not within a second;
        returns at once, the waiting is done on a thread of its own."""
        if quit_line is None or exited(self.proc):
            self.kill()
            return
        try:
            self.pipes.write(quit_line, logged=False)
        except (OSError, ValueError):
            pass

        def finish():
            self.reap(QUIT_SECONDS)
            self.kill()
        threading.Thread(target=finish, daemon=True, name=f"{self.name} quit").start()


_running: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _end_all():
    """On a normal exit, engines still running (a window closed mid-session) are ended."""
    for process in list(_running):
        process.kill()
