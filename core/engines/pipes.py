"""An engine process's I/O, bounded: its pipes read on daemon threads into buffers capped in
lines and bytes (an engine printing faster than we read blocks on its pipe instead of filling our
memory), lines split however the engine ends them, the last lines of its stderr kept for a crash
report, and the log of what went each way for the GUI's engine log panel. The process's life
(start, exit, kill) is core.engines.process's.
"""
from __future__ import annotations

import collections
import os
import queue
import re
import select
import threading
import time

from ..errors import EngineFlood

MAX_LINES = 20_000            # a divide is at most ~220 moves; 20k lines means a loop
MAX_BYTES = 4 * 1024 * 1024   # per call, stdout
MAX_LINE = 64 * 1024          # one line longer than this is a flood too (`yes | tr -d '\n'`)
STDERR_KEEP = 40              # lines of stderr kept per call for the crash report
QUEUE_LINES = 2_000           # lines read ahead of the caller; the engine blocks beyond that ...
QUEUE_BYTES = 256 * 1024      # ... or beyond these bytes
POLL_SECONDS = 0.1            # a reader looks at its stop flag this often


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


class Pipes:
    """The pipes of one engine process: stdout and stderr each read on a daemon thread of its own
    into a bounded buffer (the readers own their descriptors and close them when they end), its
    input written a line at a time, and what the current call read from stdout, counted against
    the call's caps. `read` returns the next line, None once the output ended, and raises
    queue.Empty when none came in time or EngineFlood past a cap; the process says the rest."""

    def __init__(self, name: str, stdin, stdout, stderr, log: EngineLog | None = None,
                 max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES):
        self.name, self.log = name, log
        self.max_lines, self.max_bytes = max_lines, max_bytes
        self.stderr: collections.deque = collections.deque(maxlen=STDERR_KEEP)
        self._stdin = stdin
        self._stop = threading.Event()
        both = threading.Condition()                 # a line on either stream wakes a reader of both
        self._output = _Output(both)
        self._errors = _Output(both)                 # stderr's lines, for an engine answering there
        out, err = os.dup(stdout.fileno()), os.dup(stderr.fileno())
        stdout.close()
        stderr.close()
        self._readers = [threading.Thread(target=_pump_stdout, args=(out, self._output, self._stop),
                                          daemon=True, name=f"{name} stdout"),
                         threading.Thread(target=_pump_stderr, args=(err, self.stderr, log, self._stop, self._errors),
                                          daemon=True, name=f"{name} stderr")]
        for reader in self._readers:
            reader.start()
        self.begin_call()

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

    @property
    def stderr_lost(self) -> int:
        """Lines of stderr dropped during this call to stay within the bounds."""
        return self._errors.lost

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

    def write(self, line: str, logged: bool = True):
        """One line to the engine's input; OSError or ValueError when it cannot take it."""
        if logged and self.log is not None:
            self.log.add(">", line)
        self._stdin.write((line + "\n").encode())

    def input_closed(self) -> bool:
        """Whether the reader of our pipe to the engine is gone: writing would fail."""
        stdin = self._stdin
        if stdin is None or stdin.closed:
            return False
        poller = select.poll()
        poller.register(stdin.fileno(), 0)        # a pipe's writer sees POLLERR once no reader is left
        return any(event & select.POLLERR for _, event in poller.poll(0))

    def close_input(self):
        try:
            if self._stdin is not None:
                self._stdin.close()
        except OSError:
            pass

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

    def read(self, stream: str, timeout: float, what: str):
        """The next line of `stream` (see _get), counted and logged; None once the output ended;
        queue.Empty when none came within `timeout`; EngineFlood past a cap (whoever reads it
        stops the engine, as the message says)."""
        line = self._get(stream, timeout)
        if line is None:
            return None
        if line is _TooLong:
            raise EngineFlood(f"{self.name}: printed a line longer than {MAX_LINE} bytes; is it looping? "
                              f"(answering {what}; the engine was stopped)")
        self.lines_read += 1
        self.bytes_read += len(line) + 1
        self.unreadable_read += len(UNREADABLE.findall(line))
        self.first_line = self.first_line if self.lines_read > 1 else line
        if self.log is not None:
            self.log.add("<", line)
        if self.lines_read > self.max_lines or self.bytes_read > self.max_bytes:
            limit = (f"{self.max_lines} lines" if self.lines_read > self.max_lines
                     else f"{self.max_bytes} bytes")
            raise EngineFlood(f"{self.name}: printed more than {limit}; is it looping? "
                              f"(answering {what}; the engine was stopped)")
        return line

    def printed(self) -> str:
        """What a timeout message should add about the output: binary data, a line never ended;
        with nothing on stdout, the end of its stderr."""
        partial = self._output.partial.decode("utf-8", "replace")
        if self.lines_read and self.binary:
            return (f"; it printed binary data, not text (about {self.bytes_read} bytes, starting "
                    f"{quoted(self.first_line, 40)})")
        if partial.strip():
            return f"; it printed {quoted(partial)} with no line end"
        if not self.lines_read:
            said = [x for x in self.stderr if x.strip()]
            if said:
                return f"; nothing on stdout, its stderr ends with {quoted(said[-1])}"
        return ""

    def stderr_read(self, timeout: float = 1.0) -> list[str]:
        """stderr's last lines, once its reader has read to the end (or after `timeout`)."""
        self._readers[1].join(timeout=timeout)
        return list(self.stderr)

    def stderr_said(self) -> str:
        """The engine's stderr for a message: its own error line and how many lines there were."""
        said = [x for x in self.stderr_read() if x.strip()]
        if not said:
            return "nothing on stderr"
        lines = f"{len(said)} line{'s' if len(said) != 1 else ''}"
        return f"its stderr ends with {quoted(own_error(said) or said[-1])} ({lines})"

    def end(self):
        """No more lines: a caller waiting for one reads the end of the output at once."""
        self._output.end()
        self._errors.end()

    def stop(self) -> bool:
        """Stop the readers (give them a moment to read their pipes' end first); True when one
        is still reading: a process that escaped the kill still holds its pipe."""
        for reader in self._readers:
            reader.join(timeout=0.05)
        self._stop.set()
        return any(r.is_alive() for r in self._readers)
