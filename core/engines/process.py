"""Engine processes that cannot hurt the app: every call has a timeout, a cap on what it may
print (lines and bytes, so memory stays bounded whatever the engine does), crash reports that
quote the engine's own error, and a log of what went each way for the GUI's engine log panel.

Two shapes of process: `run_command` starts a program per call (perftree scripts, `cmd:`
templates) and `EngineProcess` keeps an interactive one alive across calls (UCI, engine files).
Both read the engine's pipes on daemon threads into bounded buffers; the caller's thread only
ever waits with a deadline.
"""
from __future__ import annotations

import collections
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from ..errors import EngineCrashed, EngineError, EngineFlood, EngineTimeout, OracleCancelled
from .usage import Usage, peak_memory

MAX_LINES = 20_000            # a divide is at most ~220 moves; 20k lines means a loop
MAX_BYTES = 4 * 1024 * 1024   # per call, stdout
MAX_LINE = 64 * 1024          # one line longer than this is a flood too (`yes | tr -d '\n'`)
STDERR_KEEP = 40              # lines of stderr kept per call for the crash report
QUEUE_LINES = 2_000           # lines read ahead of the caller; the engine blocks beyond that
PEAK_EVERY = 0.01             # seconds between two readings of a per-call program's peak memory


@dataclass(frozen=True)
class Activity:
    """A call in progress: its number (1 for an oracle's first call) and seconds so far."""
    call: int
    seconds: float


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


def spawn(args, cwd=None, env=None, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start an engine in its own process group (stopping it also stops whatever a wrapper
    script started), bytes on every pipe: the readers decode with a cap per line."""
    full_env = None
    if env:
        full_env = dict(os.environ)
        full_env.update({str(k): str(v) for k, v in env.items()})
    return subprocess.Popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=cwd, env=full_env, start_new_session=True)


def kill(proc: subprocess.Popen):
    """Kill a process started by spawn() together with its children, and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


class _TooLong:
    """Put in the line queue in place of a line longer than MAX_LINE."""


def _pump_lines(stream, sink: queue.Queue, stop: threading.Event):
    """stdout -> sink, one decoded line at a time, None at the end. The queue is bounded, so
    an engine printing faster than we read blocks on its pipe instead of filling our memory."""
    try:
        while not stop.is_set():
            raw = stream.readline(MAX_LINE + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                _put(sink, _TooLong, stop)
                break
            _put(sink, raw.decode("utf-8", "replace").rstrip("\r\n"), stop)
    except (OSError, ValueError):
        pass
    _put(sink, None, stop)


def _put(sink: queue.Queue, item, stop: threading.Event):
    while not stop.is_set():
        try:
            sink.put(item, timeout=0.1)
            return
        except queue.Full:
            pass


def _pump_stderr(stream, tail: collections.deque, log: EngineLog | None):
    try:
        while True:
            raw = stream.readline(4096)
            if not raw:
                break
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            tail.append(line[:500])
            if log is not None and line.strip():
                log.add("!", line)
    except (OSError, ValueError):
        pass


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
        self._lines: queue.Queue = queue.Queue(maxsize=QUEUE_LINES)
        self.cancelled = threading.Event()
        try:
            self.proc = spawn(self.args, cwd=cwd, env=env,
                              stdin=subprocess.PIPE if interactive else subprocess.DEVNULL)
        except OSError as e:
            raise EngineError(f"{name}: cannot run {self.command}: {e.strerror or e}") from None
        self._readers = [threading.Thread(target=_pump_lines, args=(self.proc.stdout, self._lines, self._stop),
                                          daemon=True),
                         threading.Thread(target=_pump_stderr, args=(self.proc.stderr, self.stderr, log),
                                          daemon=True)]
        if not interactive:
            self._readers.append(threading.Thread(target=self._watch_peak, daemon=True))
        for reader in self._readers:
            reader.start()
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
        return self.proc.poll() is None

    def begin_call(self):
        self.lines_read = 0
        self.bytes_read = 0
        self.call_started = time.monotonic()

    def drain(self):
        """Drop lines left over from an earlier answer (the log keeps them), so they cannot mix
        into the next one."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None or line is _TooLong:      # the end stays for the next reader
                self._lines.put_nowait(line)
                return
            if self.log is not None:
                self.log.add("<", f"{line}    (left over from the previous answer, dropped)")

    def send(self, line: str, what: str):
        """Write one line to the engine; EngineCrashed when it is gone."""
        if self.log is not None:
            self.log.add(">", line)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self.crashed(what) from None

    def read_line(self, deadline: float, seconds: float, what: str) -> str | None:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.kill()
            if self.cancelled.is_set():
                raise OracleCancelled(f"{self.name}: cancelled while answering {what}") from None
            waited = time.monotonic() - self.call_started
            raise EngineTimeout(f"{self.name}: no answer within {seconds:g} s to {what} (waited "
                                f"{waited:.1f} s); the engine was stopped", seconds=seconds) from None
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
        if self.log is not None:
            self.log.add("<", line)
        if self.lines_read > self.max_lines or self.bytes_read > self.max_bytes:
            self.kill()
            limit = (f"{self.max_lines} lines" if self.lines_read > self.max_lines
                     else f"{self.max_bytes} bytes")
            raise EngineFlood(f"{self.name}: printed more than {limit}; is it looping? "
                              f"(answering {what}; the engine was stopped)")
        return line

    def reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for the process to exit and return its exit code (None if
        it is still running). It is reaped with wait4, so `usage` keeps the CPU time the kernel
        counted for it and the children it waited for: the one moment that figure exists."""
        deadline = time.monotonic() + timeout
        pause = 0.0002
        while self.proc.returncode is None:
            try:
                pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            except ChildProcessError:          # reaped elsewhere: the exit code is all there is
                return self.proc.wait()
            if pid:
                self.usage = Usage(usage.ru_utime + usage.ru_stime, self.peak, "wait4")
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() >= deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.01)       # quick for programs that exit at once, cheap for others
        return self.proc.returncode

    def crashed(self, what: str) -> EngineError:
        """The error for an engine whose output ended: wait briefly for its exit code and let the
        stderr reader finish, then quote the engine's own error."""
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:      # closed its output but lingers: finish it
            self.kill()
        self._readers[1].join(timeout=1)
        if self.cancelled.is_set():
            return OracleCancelled(f"{self.name}: cancelled while answering {what}")
        own = own_error(list(self.stderr))
        detail = f": {own}" if own else " (nothing on stderr)"
        error = EngineCrashed(f"{self.name} {describe_exit(self.proc.returncode)} while answering "
                              f"{what}{detail}", own_error=own, command=self.command)
        if self.log is not None:
            self.log.add("!", str(error))
        return error

    def kill(self):
        self._stop.set()
        if self.proc.poll() is None:
            kill(self.proc)
        self.close_pipes()
        while True:        # wake a reader waiting in another thread: the output has ended
            try:
                self._lines.put_nowait(None)
                return
            except queue.Full:
                try:
                    self._lines.get_nowait()
                except queue.Empty:
                    pass

    def close(self, quit_line: str | None = None):
        """Ask the engine to quit (with `quit_line`), then make sure it is gone."""
        if self.proc.poll() is None and quit_line is not None:
            try:
                self.proc.stdin.write((quit_line + "\n").encode())
                self.proc.stdin.flush()
                self.proc.wait(timeout=1)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def close_pipes(self):
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def run_command(name: str, args: list[str], timeout: float, what: str, cwd=None, env=None,
                log: EngineLog | None = None, on_start=None,
                max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES) -> list[str]:
    """Run a program once and return its stdout lines; EngineCrashed when it exits non-zero,
    EngineTimeout, EngineFlood, OracleCancelled. `on_start(process)` lets the caller keep a
    handle to cancel it from another thread."""
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
            line = process.read_line(deadline, timeout, what)
            if line is None:
                break
            lines.append(line)
        code = process.reap(max(0.1, deadline - time.monotonic()))
        if code is None:
            process.kill()
            raise EngineTimeout(f"{name}: closed its output but did not exit within {timeout:g} s "
                                f"on {what}; the engine was stopped", seconds=timeout) from None
        if code != 0 or process.cancelled.is_set():
            raise process.crashed(what)
        return lines
    finally:
        process.kill()
