"""Engine processes that cannot hurt the app: every call has a timeout, a cap on what it may
print (lines and bytes, so memory stays bounded whatever the engine does), crash reports that
quote the engine's own error, and a log of what went each way for the GUI's engine log panel.

Two shapes of process: `run_command` starts a program per call (perftree scripts, `cmd:`
templates) and `EngineProcess` keeps an interactive one alive across calls (UCI, engine files).
Both read the engine's pipes on daemon threads into bounded buffers; the caller's thread only
ever waits with a deadline.
"""
from __future__ import annotations

import atexit
import collections
import contextlib
import contextvars
import os
import queue
import re
import select
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass

from ..errors import (EngineCrashed, EngineError, EngineFlood, EngineTimeout, EngineUnreadable,
                      OracleCancelled)
from . import warden
from .usage import Usage, peak_memory

MAX_LINES = 20_000            # a divide is at most ~220 moves; 20k lines means a loop
MAX_BYTES = 4 * 1024 * 1024   # per call, stdout
MAX_LINE = 64 * 1024          # one line longer than this is a flood too (`yes | tr -d '\n'`)
STDERR_KEEP = 40              # lines of stderr kept per call for the crash report
QUEUE_LINES = 2_000           # lines read ahead of the caller; the engine blocks beyond that ...
QUEUE_BYTES = 256 * 1024      # ... or beyond these bytes
POLL_SECONDS = 0.1            # a reader looks at its stop flag this often
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


class EngineLog:
    """What was sent to an engine and what came back, bounded: the last `lines` lines of each
    of the last `calls` calls. Directions: `>` sent (or the command line), `<` stdout,
    `!` stderr or an error. Thread-safe; `text()` is for copying."""

    def __init__(self, calls: int = 20, lines: int = 200):
        self._calls: collections.deque = collections.deque(maxlen=calls)
        self._lines = lines
        self._lock = threading.Lock()

    def start(self, call: int):
        with self._lock:
            self._calls.append((call, collections.deque(maxlen=self._lines)))

    def add(self, direction: str, text: str):
        with self._lock:
            if not self._calls:
                self._calls.append((0, collections.deque(maxlen=self._lines)))
            self._calls[-1][1].append((direction, text[:500]))

    def entries(self) -> list[tuple[int, str, str]]:
        with self._lock:
            return [(call, d, t) for call, lines in self._calls for d, t in lines]

    def text(self) -> str:
        return "".join(f"[{call}] {d} {t}\n" for call, d, t in self.entries())


# Lines a runtime prints after the program's own error: they say nothing about the bug.
_TRAILERS = re.compile(r"^(Node\.js v\d|Deno v?\d|note: run with `RUST_BACKTRACE|"
                       r"Aborted( \(core dumped\))?$|Segmentation fault|\[process exited)")
_FRAME = re.compile(r"^\s+(at |File \"|from |\.\.\.|\d+: |\^+$)|^Traceback \(most recent call last\)")
_ERROR_LINE = re.compile(r"^(\w+\.)*\w*(Error|Exception|Panic|panic|Fault)\b|panicked at|^error\b", re.I)


def own_error(stderr_lines) -> str:
    """The engine's own last meaningful error line from its stderr: a line naming an error
    (`TypeError: ...`, `thread 'main' panicked at ...`) if there is one, else the last line
    that is not blank, a stack frame or a runtime trailer such as `Node.js v20.11.0`."""
    lines = [x.rstrip() for x in stderr_lines if x.strip()]
    lines = [x for x in lines if not _TRAILERS.match(x.strip())]
    meaningful = [x.strip() for x in lines if not _FRAME.match(x)]
    for line in reversed(meaningful):
        if _ERROR_LINE.search(line):
            # a Rust panic puts its message on the next line
            after = meaningful[meaningful.index(line) + 1:][:1]
            return line + (f" {after[0]}" if "panicked at" in line and after else "")
    return meaningful[-1] if meaningful else ""


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


def quoted(text: str, limit: int = 60) -> str:
    """`text` as a message may show it: on one line, control characters and bytes that were
    not UTF-8 (decoded as U+FFFD) written as escapes, about `limit` characters at most."""
    shown, size = [], 0
    for c in text:
        c = "\\ufffd" if c == "\ufffd" else repr(c)[1:-1] if c != "'" else c
        if size + len(c) > limit:
            return "'" + "".join(shown) + "'…"
        shown.append(c)
        size += len(c)
    return "'" + "".join(shown) + "'"


UNREADABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ufffd]")


def unreadable(line: str) -> str:
    """What in `line` is not text ('' for a line that is): NUL bytes, bytes that are not UTF-8,
    control characters."""
    found = set(UNREADABLE.findall(line))
    kinds = [what for what, hit in (("a NUL byte", "\x00" in found), ("bytes that are not UTF-8", "\ufffd" in found),
                                    ("control characters", bool(found - {"\x00", "\ufffd"}))) if hit]
    return " and ".join(kinds)


def readable(line: str) -> bool:
    """Whether a line holds anything to read: a printable character that is not a space and not
    a stand-in for bytes that were not UTF-8."""
    return any(c.isprintable() and not c.isspace() and c != "\ufffd" for c in line)


# (variables, processes started) of the innermost `launched_with` in this thread, if any
_launch: contextvars.ContextVar = contextvars.ContextVar("engine_launch", default=None)


@contextlib.contextmanager
def launched_with(env: dict[str, str]):
    """Every engine process this thread starts inside gets `env` on top of its own (locate's
    coverage variables: one data folder per run); yields the list of the Popen objects started,
    so the caller can wait for them to exit and write their data."""
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
        full_env = dict(os.environ)
        full_env.update({str(k): str(v) for k, v in env.items()})
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


class _TooLong:
    """In the output in place of a line longer than MAX_LINE."""


QUIET = object()              # read_line(quiet=...): no line came within that time


class StderrLine(str):
    """A line the engine printed on stderr, where a caller reads both streams (calibration finds
    out which one carries its answers)."""
    stream = "stderr"


class _Output:
    """Lines read ahead of the caller, bounded in lines and bytes: a reader that gets that far
    ahead waits, so an engine printing faster than we read blocks on its pipe instead of filling
    our memory. `partial` is what follows the last line end (a line still being printed). Two
    outputs may share one condition, so a caller can wait for a line from either."""

    def __init__(self, cond: threading.Condition | None = None):
        self._items: collections.deque = collections.deque()
        self._bytes = 0
        self._ended = False
        self._cond = cond or threading.Condition()
        self.partial = b""
        self.lost = 0           # lines `offer` dropped to stay within the bounds

    def put(self, item, size: int, stop: threading.Event) -> bool:
        with self._cond:
            while (len(self._items) >= QUEUE_LINES or self._bytes >= QUEUE_BYTES) and not (
                    self._ended or stop.is_set()):
                self._cond.wait(0.1)
            if self._ended or stop.is_set():
                return False
            self._items.append((item, size))
            self._bytes += size
            self._cond.notify_all()
            return True

    def offer(self, item, size: int):
        """Keep `item` without ever waiting: beyond the bounds the oldest line is dropped (stderr,
        which an engine may fill with what nobody reads; `lost` counts what was dropped)."""
        with self._cond:
            if self._ended:
                return
            self._items.append((item, size))
            self._bytes += size
            while len(self._items) > QUEUE_LINES or self._bytes > QUEUE_BYTES:
                _, dropped = self._items.popleft()
                self._bytes -= dropped
                self.lost += 1
            self._cond.notify_all()

    def ready(self) -> bool:
        """A line is waiting, or the output has ended (call with the condition held)."""
        return bool(self._items) or self._ended

    def get(self, timeout: float):
        """The next line, _TooLong, or None once the output has ended; queue.Empty on timeout."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._items or self._ended, timeout=timeout):
                raise queue.Empty
            if not self._items:
                return None
            item, size = self._items.popleft()
            self._bytes -= size
            self._cond.notify_all()
            return item

    def next_is_final(self) -> bool:
        """True (and nothing taken) when the next item is the end or a too-long line."""
        with self._cond:
            return (not self._items and self._ended) or (bool(self._items) and self._items[0][0] is _TooLong)

    def end(self):
        with self._cond:
            self._ended = True
            self._cond.notify_all()


_LINE_END = re.compile(rb"\r\n|\r|\n")


class _Lines:
    """Bytes in, lines out: `\n`, `\r\n` and a lone `\r` each end a line (an engine written
    for another system, or one redrawing a progress line), a `\r\n` split across two reads
    included. A line longer than `limit` comes out as _TooLong."""

    def __init__(self, limit: int):
        self.limit = limit
        self.pending = b""
        self._after_cr = False

    def feed(self, chunk: bytes) -> list:
        if self._after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._after_cr = chunk.endswith(b"\r")
        data = self.pending + chunk
        lines, start = [], 0
        for end in _LINE_END.finditer(data):
            lines.append(data[start:end.start()] if end.start() - start <= self.limit else _TooLong)
            start = end.end()
        self.pending = data[start:]
        if len(self.pending) > self.limit:
            lines.append(_TooLong)
            self.pending = b""
        return lines


def _read_chunks(fd: int, stop: threading.Event):
    """The pipe's bytes until its end or until `stop`; never blocks longer than POLL_SECONDS,
    so stopping an engine never waits on a reader (a process that escaped the kill may keep
    the pipe open for ever). Closes the pipe when done: only this thread uses it."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    try:
        while not stop.is_set():
            if not poller.poll(POLL_SECONDS * 1000):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            yield chunk
    except OSError:
        return
    finally:
        os.close(fd)


def _pump_stdout(fd: int, sink: _Output, stop: threading.Event):
    lines = _Lines(MAX_LINE)
    try:
        for chunk in _read_chunks(fd, stop):
            for line in lines.feed(chunk):
                if line is _TooLong:
                    sink.put(_TooLong, 0, stop)
                    return
                if not sink.put(line.decode("utf-8", "replace"), len(line) + 1, stop):
                    return
            sink.partial = lines.pending
        if lines.pending and not stop.is_set():        # the last line had no line end
            sink.put(lines.pending.decode("utf-8", "replace"), len(lines.pending), stop)
            sink.partial = b""
    finally:
        sink.end()


def _pump_stderr(fd: int, tail: collections.deque, log: EngineLog | None, stop: threading.Event,
                 sink: _Output | None = None):
    """stderr's last lines into `tail` and the log, and every line into `sink`, which never makes
    the engine wait (an engine whose answers are on stderr is read from there)."""
    lines = _Lines(4096)
    try:
        for chunk in _read_chunks(fd, stop):
            for raw in lines.feed(chunk):
                line = "(a line longer than 4096 bytes)" if raw is _TooLong else raw.decode("utf-8", "replace")
                tail.append(line[:500])
                if log is not None and line.strip():
                    log.add("!", line)
                if sink is not None:
                    sink.offer(StderrLine(line), len(line) + 1)
        if lines.pending.strip():
            last = lines.pending.decode("utf-8", "replace")
            tail.append(last[:500])
            if sink is not None:
                sink.offer(StderrLine(last), len(last))
    finally:
        if sink is not None:
            sink.end()


class EngineProcess:
    """One engine process and its bounded readers. `read_line(deadline)` returns the next stdout
    line, None when the engine closed its output (it died), and raises EngineTimeout, EngineFlood
    or OracleCancelled; `begin_call()` resets the per-call output counters."""

    def __init__(self, name: str, args: list[str], cwd=None, env=None, log: EngineLog | None = None,
                 interactive: bool = True, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES):
        self.name, self.args, self.log = name, list(args), log
        self.usage: Usage | None = None     # what the OS says it used, once reap() has ended it
        self.peak: int | None = None        # a per-call program's peak memory, read while it runs
        self.command = shlex.join(self.args)
        self.max_lines, self.max_bytes = max_lines, max_bytes
        self.stderr: collections.deque = collections.deque(maxlen=STDERR_KEEP)
        self._stop = threading.Event()
        both = threading.Condition()                 # a line on either stream wakes a reader of both
        self._output = _Output(both)
        self._errors = _Output(both)                 # stderr's lines, for an engine answering there
        self.cancelled = threading.Event()
        self.input_closed = False
        try:
            self.proc = spawn(self.args, cwd=cwd, env=env,
                              stdin=subprocess.PIPE if interactive else subprocess.DEVNULL)
        except OSError as e:
            raise EngineError(f"{name}: cannot run {self.command}: {e.strerror or e}") from None
        self._pipes = pipe_inodes(self.proc)
        # the readers own their descriptors from here on: they close them when they end
        out, err = os.dup(self.proc.stdout.fileno()), os.dup(self.proc.stderr.fileno())
        self.proc.stdout.close()
        self.proc.stderr.close()
        self._readers = [threading.Thread(target=_pump_stdout, args=(out, self._output, self._stop),
                                          daemon=True, name=f"{name} stdout"),
                         threading.Thread(target=_pump_stderr, args=(err, self.stderr, log, self._stop, self._errors),
                                          daemon=True, name=f"{name} stderr")]
        self._watcher = None
        if not interactive:
            self._watcher = threading.Thread(target=self._watch_peak, daemon=True, name=f"{name} peak")
            self._watcher.start()
        for reader in self._readers:
            reader.start()
        _running.add(self)
        self.begin_call()

    def _watch_peak(self):
        """Read the program's high-water mark while it runs: once it has exited its address space
        is gone, and wait4's figure includes ours (core.engines.usage). A program shorter than
        PEAK_EVERY may end before the first reading."""
        while self.proc.returncode is None and not self._stop.is_set():
            peak = peak_memory(self.proc.pid)
            if peak:
                self.peak = max(self.peak or 0, peak)
            self._stop.wait(PEAK_EVERY)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return not exited(self.proc)

    def begin_call(self):
        self.lines_read = 0
        self.bytes_read = 0
        self.unreadable_read = 0
        self.first_line = ""
        self.call_started = time.monotonic()

    @property
    def binary(self) -> bool:
        """More than a quarter of what this call printed is not text."""
        return self.unreadable_read * 4 > self.bytes_read

    def drain(self):
        """Drop lines left over from an earlier answer (the log keeps them), so they cannot mix
        into the next one."""
        while not self._errors.next_is_final():
            try:
                if self._errors.get(0) is None:
                    break
            except queue.Empty:
                break
        self._errors.lost = 0
        while not self._output.next_is_final():
            try:
                line = self._output.get(0)
            except queue.Empty:
                return
            if line is None:
                return
            if self.log is not None:
                self.log.add("<", f"{line}    (left over from the previous answer, dropped)")

    def send(self, line: str, what: str):
        """Write one line to the engine; EngineCrashed when it is gone or closed its input."""
        if self.log is not None:
            self.log.add(">", line)
        try:
            self.proc.stdin.write((line + "\n").encode())
        except (OSError, ValueError):
            self.input_closed = not exited(self.proc)
            raise self.crashed(what) from None

    def _get(self, stream: str, timeout: float):
        """The next line of `stream` ('stdout', 'stderr', or 'both': a line of either, stderr's
        as StderrLine, None once both have ended); queue.Empty on timeout."""
        if stream == "stdout":
            return self._output.get(timeout)
        if stream == "stderr":
            line = self._errors.get(timeout)
        else:
            out, err = self._output, self._errors
            with out._cond:                     # err's too
                if not out._cond.wait_for(lambda: out._items or err._items or (out._ended and err._ended),
                                          timeout=timeout):
                    raise queue.Empty
                source = out if out._items else err
                if not source._items:
                    return None                 # both have ended
                line, size = source._items.popleft()
                source._bytes -= size
                out._cond.notify_all()
        return line

    def check_stderr_kept(self, what: str):
        """EngineFlood when lines of stderr were dropped during this call (for an answer read
        there, a dropped row would read as a move not generated)."""
        if self._errors.lost:
            self.kill()
            raise EngineFlood(f"{self.name}: printed more on stderr than could be kept while answering {what} "
                              f"({self._errors.lost} lines dropped); is it looping? (the engine was stopped)")

    def read_line(self, deadline: float, seconds: float, what: str, quiet: float | None = None,
                  stream: str = "stdout"):
        """The next line of `stream` ('stdout', 'stderr', or 'both', see _get). `quiet`: return
        QUIET when no line comes within that many seconds before the deadline, and leave the
        engine running (an answer whose end is not known yet)."""
        wait = max(0.0, deadline - time.monotonic())
        try:
            line = self._get(stream, wait if quiet is None else min(wait, quiet))
        except queue.Empty:
            if quiet is not None and time.monotonic() < deadline:
                return QUIET
            waited = time.monotonic() - self.call_started
            printed = self._printed()
            self.kill()
            if self.cancelled.is_set():
                raise OracleCancelled(f"{self.name}: cancelled while answering {what}") from None
            raise EngineTimeout(f"{self.name}: no answer within {seconds:g} s to {what} (waited "
                                f"{waited:.1f} s){printed}; the engine was stopped",
                                seconds=seconds) from None
        if line is None:
            if self.cancelled.is_set():
                raise OracleCancelled(f"{self.name}: cancelled while answering {what}")
            return None
        if line is _TooLong:
            self.kill()
            raise EngineFlood(f"{self.name}: printed a line longer than {MAX_LINE} bytes; is it looping? "
                              f"(answering {what}; the engine was stopped)")
        self.lines_read += 1
        self.bytes_read += len(line) + 1
        self.unreadable_read += len(UNREADABLE.findall(line))
        self.first_line = self.first_line if self.lines_read > 1 else line
        if self.log is not None:
            self.log.add("<", line)
        if self.lines_read > self.max_lines or self.bytes_read > self.max_bytes:
            self.kill()
            limit = (f"{self.max_lines} lines" if self.lines_read > self.max_lines
                     else f"{self.max_bytes} bytes")
            raise EngineFlood(f"{self.name}: printed more than {limit}; is it looping? "
                              f"(answering {what}; the engine was stopped)")
        return line

    def _printed(self) -> str:
        """What a timeout message should add: binary data, a line never ended; with nothing on
        stdout, the end of its stderr; what it left holding its output when it exited."""
        note = ""
        partial = self._output.partial.decode("utf-8", "replace")
        if self.lines_read and self.binary:
            note = (f"; it printed binary data, not text (about {self.bytes_read} bytes, starting "
                    f"{quoted(self.first_line, 40)})")
        elif partial.strip():
            note = f"; it printed {quoted(partial)} with no line end"
        elif not self.lines_read:
            said = [x for x in self.stderr if x.strip()]
            if said:
                note = f"; nothing on stdout, its stderr ends with {quoted(said[-1])}"
        if self._input_closed():
            note += "; it closed its input (stdin), so it could not read what was sent"
        if exited(self.proc):
            left = warden.holders(self._pipes)
            if left:
                note += (f"; it exited, but {warden.names(left)} it started kept its output open "
                         f"(start background programs with their output redirected, or wait for them)")
        return note

    def _input_closed(self) -> bool:
        """Whether a running engine closed its end of our pipe to it: writing would fail."""
        stdin = self.proc.stdin
        if stdin is None or stdin.closed or exited(self.proc):
            return False
        poller = select.poll()
        poller.register(stdin.fileno(), 0)        # a pipe's writer sees POLLERR once no reader is left
        return any(event & select.POLLERR for _, event in poller.poll(0))

    def stderr_said(self) -> str:
        """The engine's stderr for a message: its own error line and how many lines there were."""
        self._readers[1].join(timeout=1)
        said = [x for x in self.stderr if x.strip()]
        if not said:
            return "nothing on stderr"
        lines = f"{len(said)} line{'s' if len(said) != 1 else ''}"
        return f"its stderr ends with {quoted(own_error(said) or said[-1])} ({lines})"

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
        self._readers[1].join(timeout=1)
        if self.cancelled.is_set():
            return OracleCancelled(f"{self.name}: cancelled while answering {what}")
        own = own_error(list(self.stderr))
        detail = f": {own}" if own else " (nothing on stderr)"
        if lingered:
            how = "closed its input (stdin)" if self.input_closed else "closed its output (stdout)"
            message = f"{self.name} {how} while answering {what} but kept running; it was stopped{detail}"
        else:
            message = f"{self.name} {describe_exit(self.proc.returncode)} while answering {what}{detail}"
        error = EngineCrashed(message, own_error=own, command=self.command)
        if self.log is not None:
            self.log.add("!", str(error))
        return error

    def kill(self):
        """End the engine and everything it started now (core.engines.warden.end); wake a reader
        waiting for its output."""
        self._output.end()
        self._errors.end()
        if self.proc.returncode is None:        # not reaped: its pid is still its own to signal
            warden.end({self.proc.pid})
        # the readers see the end of their pipes at once, unless a process that escaped (it
        # left the session and its parent is gone) still holds one: find it by the pipe
        for reader in self._readers:
            reader.join(timeout=0.05)
        self._stop.set()
        if any(r.is_alive() for r in self._readers):
            warden.end(set(), self._pipes)
        self._reap()
        self._close_input()
        _running.discard(self)

    def close(self, quit_line: str | None = None):
        """Ask the engine to quit (with `quit_line`) and end it if it has not within a second;
        returns at once, the waiting is done on a thread of its own."""
        if quit_line is None or exited(self.proc):
            self.kill()
            return
        try:
            self.proc.stdin.write((quit_line + "\n").encode())
        except (OSError, ValueError):
            pass

        def finish():
            self.reap(QUIT_SECONDS)
            self.kill()
        threading.Thread(target=finish, daemon=True, name=f"{self.name} quit").start()

    def _close_input(self):
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass


_running: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _end_all():
    """On a normal exit, engines still running (a window closed mid-session) are ended."""
    for process in list(_running):
        process.kill()


def run_command(name: str, args: list[str], timeout: float, what: str, cwd=None, env=None,
                log: EngineLog | None = None, on_start=None,
                max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES, silence_ok: bool = True,
                stream: str = "stdout") -> list[str]:
    """Run a program once and return the lines it printed on `stream` (stdout, stderr, or both:
    stderr's lines then as StderrLine); EngineCrashed when it exits non-zero, EngineTimeout,
    EngineFlood, OracleCancelled; EngineUnreadable when it printed nothing readable there and
    `silence_ok` is false. `on_start(process)` lets the caller keep a handle to cancel it from
    another thread."""
    if log is not None:
        log.add(">", shlex.join(args))
    process = EngineProcess(name, args, cwd=cwd, env=env, log=log, interactive=False,
                            max_lines=max_lines, max_bytes=max_bytes)
    if on_start is not None:
        on_start(process)
    deadline = time.monotonic() + timeout
    lines = []
    try:
        while True:
            # both streams are read, so neither can fill its pipe while the other is awaited
            line = process.read_line(deadline, timeout, what, stream="stdout" if stream == "stdout" else "both")
            if line is None:
                break
            if stream != "stderr" or isinstance(line, StderrLine):
                lines.append(line)
        if stream == "stderr":
            process.check_stderr_kept(what)
        if process.reap(max(0.1, deadline - time.monotonic())) is None:
            process.kill()
            raise EngineTimeout(f"{name}: closed its output but did not exit within {timeout:g} s "
                                f"on {what}; the engine was stopped", seconds=timeout)
        if process.proc.returncode != 0 or process.cancelled.is_set():
            raise process.crashed(what)
        if lines and process.binary:        # it ran to its end: unreadable, not a crash
            raise EngineUnreadable(f"{name} printed binary data, not text, while answering {what}: about "
                               f"{process.bytes_read} bytes in {len(lines)} line{'s' if len(lines) != 1 else ''}, "
                               f"starting {quoted(lines[0], 40)}")
        if not silence_ok and not any(map(readable, lines)):
            got = (f"{len(lines)} unreadable line{'s' if len(lines) != 1 else ''}, the first {quoted(lines[0])}"
                   if any(lines) else "nothing")
            raise EngineUnreadable(f"{name} exited with code 0 but printed {got} on {'stdout or stderr' if stream == 'both' else stream} while "
                               f"answering {what}; {process.stderr_said()}")
        return lines
    finally:
        process.kill()
