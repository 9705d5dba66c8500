"""Reference engines behind one interface: `divide(fen, moves, depth) -> {uci_move: count}`.

    >>> with make_oracle("stockfish") as sf:
    ...     sf.divide(START_FEN, ["e2e4"], 1)["e7e5"]
    1

Specs: `core` (the jitted core), `python-chess` (in-process, slow, trusted), `stockfish` (found on
PATH or at the Debian path), `uci:PATH` (any engine speaking `go perft N`), and `perftree:PATH`
(a script in perftree's protocol, run unchanged). The FEN and every move are validated by
core.position before anything is sent, so an engine only ever sees legal requests; depth 0 is
answered here (an empty divide, one node) because engines disagree about what it means.

Every oracle is safe to call from several threads: one lock per oracle, one engine process each.
`cancel()` and `close()` never wait: a request running in another thread ends at once with
OracleCancelled, so a GUI thread can stop a deep divide without blocking.
"""
from __future__ import annotations

import collections
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time

from .errors import EngineError
from .position import Position, is_chess960
from .stockfish import find_stockfish, require_stockfish

DEFAULT_TIMEOUT = 600.0        # seconds one request may take before the engine counts as hung
HANDSHAKE_TIMEOUT = 10.0       # uci/isready must answer quickly, whatever the perft timeout
SPECS = "core, python-chess, stockfish, uci:PATH or perftree:PATH"

_UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
_UCI_COUNT = re.compile(r"^(\S+):\s*(\d+)$")                 # "e2e4: 20"
_NODES = re.compile(r"^Nodes searched\s*:\s*(\d+)$")
_SCRIPT_COUNT = re.compile(r"^(\S+?):?\s+(\d+)(\s.*)?$")     # "e2e4 20"; like perftree, more words are ignored


def validate(fen: str, moves) -> tuple[str, list[str]]:
    """(normalised root FEN, lower-case moves) after checking both with core.position.

    Raises FenError or MoveError naming what is wrong; the engine is never asked."""
    moves = [m.strip().lower() for m in (moves.split() if isinstance(moves, str) else moves)]
    root = Position.from_fen(fen)
    root.play(moves)
    return root.fen(), moves


class OracleCancelled(EngineError):
    """A request stopped by cancel() or close() from another thread."""


class Oracle:
    """A source of divides. Subclasses implement `_divide` on validated input and `_abort` to
    stop it from another thread."""
    name = "oracle"

    def __init__(self):
        self._lock = threading.Lock()
        self._cancelled = threading.Event()

    def divide(self, fen: str, moves=(), depth: int = 1) -> dict[str, int]:
        """{uci_move: leaf count depth - 1 plies below it} after playing `moves` from `fen`."""
        if not isinstance(depth, int) or depth < 0:
            raise EngineError(f"{self.name}: depth must be a non-negative whole number, got {depth!r}")
        root, moves = validate(fen, moves)
        if depth == 0:
            return {}
        with self._lock:
            self._cancelled.clear()
            return self._divide(root, moves, depth)

    def perft(self, fen: str, moves=(), depth: int = 1) -> int:
        """Total leaf count (1 at depth 0, like every perft)."""
        rows = self.divide(fen, moves, depth)
        return sum(rows.values()) if depth > 0 else 1

    def _divide(self, fen: str, moves: list[str], depth: int) -> dict[str, int]:
        raise NotImplementedError

    def cancel(self):
        """Stop the request running in another thread, if any; it raises OracleCancelled."""
        if self._lock.locked():
            self._cancelled.set()
            self._abort()

    def _abort(self):
        pass

    def _stopped(self, sent: str) -> OracleCancelled:
        return OracleCancelled(f"{self.name}: cancelled while answering {sent}")

    def close(self):
        """Free the engine; a request still running is cancelled rather than waited for."""
        if self._lock.acquire(blocking=False):
            try:
                self._release()
            finally:
                self._lock.release()
        else:
            self.cancel()     # the request's own error path releases the engine

    def _release(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


POOL_DEPTH = 5          # from here on the worker pool's threads pay for their start-up


class CoreOracle(Oracle):
    """The jitted core: one thread for small divides, every core (no hash table, so nothing
    can collide) for deep ones."""
    name = "core"

    def __init__(self):
        super().__init__()
        self._run = None

    def _divide(self, fen, moves, depth):
        pos = Position.from_fen(fen).play(moves)
        if depth < POOL_DEPTH:
            from .perft import divide
            return divide(pos, depth)
        from .pool import start_perft
        self._run = start_perft(pos, depth, divide=True)
        if self._cancelled.is_set():       # cancel() came before the run existed
            self._run.cancel()
        result = self._run.result()
        if result.cancelled:
            raise self._stopped(f"divide {depth} of {pos.fen()}")
        return result.divide

    def _abort(self):
        run = self._run
        if run is not None:
            run.cancel()


class PythonChessOracle(Oracle):
    """python-chess in this process: slow, independent of the core, nothing to install."""
    name = "python-chess"

    def _divide(self, fen, moves, depth):
        import chess
        board = chess.Board(fen, chess960=is_chess960(fen))
        for uci in moves:
            board.push_uci(uci)
        out = {}
        for move in board.legal_moves:
            board.push(move)
            out[move.uci()] = _chess_perft(board, depth - 1, self._cancelled)
            board.pop()
        if self._cancelled.is_set():
            raise self._stopped(f"divide {depth} of {board.fen()}")
        return out


def _chess_perft(board, depth: int, cancelled: threading.Event) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        if cancelled.is_set():
            return 0
        board.push(move)
        total += _chess_perft(board, depth - 1, cancelled)
        board.pop()
    return total


# --- answers from other processes ---------------------------------------------------------

def _check_rows(name: str, sent: str, rows: list[tuple[str, int, str]], total: int | None,
                total_line: str = "") -> dict[str, int]:
    """Turn parsed (move, count, line) rows into a divide, rejecting broken answers."""
    out: dict[str, int] = {}
    for move, count, line in rows:
        move = move.lower()
        if not _UCI_MOVE.match(move):
            raise EngineError(f"{name}: not a UCI move in the answer to {sent!r}: {line!r}")
        if move in out:
            raise EngineError(f"{name}: move {move} listed twice in the answer to {sent!r}: {line!r}")
        out[move] = count
    if total is not None and total != sum(out.values()):
        raise EngineError(f"{name}: the moves add up to {sum(out.values())} but the engine reports "
                          f"{total} in the answer to {sent!r}: {total_line!r}")
    return out


def _spawn(args, **pipes) -> subprocess.Popen:
    # its own process group, so stopping it also stops whatever a wrapper script started
    return subprocess.Popen(args, text=True, start_new_session=True, **pipes)


def _kill(proc):
    """Kill a process started by _spawn together with its children."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _describe_exit(proc) -> str:
    code = proc.poll()
    if code is None:
        return "stopped answering"
    if code < 0:
        return f"was killed by signal {-code}"
    return f"exited with code {code}"


class UciOracle(Oracle):
    """A UCI engine answering `go perft N`, started once and kept running between requests.

    The engine is restarted when it has died between requests; a request that outlives
    `timeout` seconds kills it and raises EngineError (the next request starts a new one)."""

    def __init__(self, path: str, name: str | None = None, timeout: float = DEFAULT_TIMEOUT):
        super().__init__()
        self.path = _executable(path, name or f"uci:{path}")
        self.name = name or f"uci:{path}"
        self.timeout = float(timeout)
        self.restarts = 0
        self._proc = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=5)
        self._sent = ""
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The engine process id (for tests and for the GUI's process list)."""
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        """Whether the engine process is alive (a killed one is restarted on the next request)."""
        proc = self._proc
        return proc is not None and proc.poll() is None

    # --- process ------------------------------------------------------------------------
    def _start(self):
        try:
            self._proc = _spawn([self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=1)
        except OSError as e:
            raise EngineError(f"{self.name}: cannot start {self.path}: {e.strerror or e}") from None
        self._lines = queue.Queue()
        self._stderr.clear()
        for stream, sink, end in ((self._proc.stdout, self._lines.put, True),
                                  (self._proc.stderr, self._stderr.append, False)):
            threading.Thread(target=_pump, args=(stream, sink, end), daemon=True).start()
        self._chess960 = False                 # every UCI engine starts with UCI_Chess960 false
        self._send("uci")
        self._read_until("uciok", HANDSHAKE_TIMEOUT)
        self._sync(HANDSHAKE_TIMEOUT)

    def _stop(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                _kill(proc)
                proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def _kill_engine(self):
        if self._proc is not None and self._proc.poll() is None:
            _kill(self._proc)
            self._proc.wait()
        self._stop()

    def _release(self):
        self._stop()

    def _abort(self):
        proc = self._proc
        if proc is not None and proc.poll() is None:
            _kill(proc)         # the running request reads end-of-output and reports the cancel

    def __del__(self):
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            _kill(proc)

    # --- talking ------------------------------------------------------------------------
    def _send(self, command: str):
        self._sent = command
        try:
            self._proc.stdin.write(command + "\n")
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise self._died(command) from None

    def _died(self, sent: str) -> EngineError:
        proc = self._proc
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:      # closed its output but lingers: finish it
            _kill(proc)
            proc.wait()
        stderr = " | ".join(x.strip() for x in self._stderr)
        detail = f"; its last error output: {stderr!r}" if stderr else ""
        self._stop()
        if self._cancelled.is_set():
            return self._stopped(repr(sent))
        return EngineError(f"{self.name} {_describe_exit(proc)} while answering {sent!r}{detail}")

    def _next_line(self, deadline: float, seconds: float, sent: str) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._kill_engine()
            raise EngineError(f"{self.name}: no answer within {seconds:g} s to {sent!r}; "
                              f"the engine was stopped") from None
        if line is None:
            raise self._died(sent)
        return line.strip()

    def _read_until(self, word: str, seconds: float):
        deadline = time.monotonic() + seconds
        while self._next_line(deadline, seconds, self._sent) != word:
            pass

    def _sync(self, seconds: float):
        self._send("isready")
        self._read_until("readyok", seconds)

    def _divide(self, fen, moves, depth):
        if self._proc is None or self._proc.poll() is not None:
            if self._proc is not None:
                self.restarts += 1
            self._stop()
            self._start()
        if is_chess960(fen) != self._chess960:   # castling is king takes rook in Chess960
            self._chess960 = not self._chess960
            self._send(f"setoption name UCI_Chess960 value {'true' if self._chess960 else 'false'}")
        position = f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")
        self._send(position)
        sent = f"{position} / go perft {depth}"
        self._send(f"go perft {depth}")
        deadline = time.monotonic() + self.timeout
        rows = []
        while True:
            line = self._next_line(deadline, self.timeout, sent)
            if not line or line.startswith("info"):
                continue
            nodes = _NODES.match(line)
            if nodes:
                break
            match = _UCI_COUNT.match(line)
            if not match:
                self._kill_engine()
                raise EngineError(f"{self.name}: cannot understand {line!r} in the answer to {sent!r} "
                                  f"(expected 'move: count' or 'Nodes searched: N'); the engine was stopped")
            rows.append((match.group(1), int(match.group(2)), line))
        self._sync(HANDSHAKE_TIMEOUT)    # swallow the trailing blank line before the next request
        return _check_rows(self.name, sent, rows, int(nodes.group(1)), line)


def _pump(stream, sink, end: bool):
    """Copy a pipe into `sink` line by line; with `end`, None marks that the process closed it."""
    try:
        for line in stream:
            sink(line)
    except (OSError, ValueError):
        pass
    if end:
        sink(None)


class PerftreeOracle(Oracle):
    """A script in perftree's protocol: run as `PATH DEPTH "FEN" "m1 m2 ..."` (the moves argument
    left out when empty); prints `move count` lines, a blank line, then the total."""

    def __init__(self, path: str, timeout: float = DEFAULT_TIMEOUT):
        super().__init__()
        self.name = f"perftree:{path}"
        self.path = _executable(path, self.name)
        self.timeout = float(timeout)
        self._proc = None

    def _divide(self, fen, moves, depth):
        args = [self.path, str(depth), fen] + ([" ".join(moves)] if moves else [])
        sent = " ".join([os.path.basename(self.path), str(depth), f'"{fen}"'] +
                        ([f'"{" ".join(moves)}"'] if moves else []))
        try:
            self._proc = _spawn(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        except OSError as e:
            raise EngineError(f"{self.name}: cannot run {self.path}: {e.strerror or e}") from None
        try:
            if self._cancelled.is_set():   # cancel() came before the script existed
                _kill(self._proc)
            out, err = self._proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(self._proc)
            self._proc.communicate()
            raise EngineError(f"{self.name}: no answer within {self.timeout:g} s to {sent}; "
                              f"the script was stopped") from None
        finally:
            code, self._proc = self._proc.returncode, None
        if self._cancelled.is_set():
            raise self._stopped(sent)
        if code != 0:
            last = err.strip().splitlines()[-1:] or out.strip().splitlines()[-1:] or [""]
            raise EngineError(f"{self.name} exited with code {code} on {sent}: {last[0]!r}")
        return _parse_perftree(self.name, sent, out)

    def _abort(self):
        proc = self._proc
        if proc is not None and proc.poll() is None:
            _kill(proc)


def _parse_perftree(name: str, sent: str, text: str) -> dict[str, int]:
    lines = text.splitlines()
    rows = []
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            # like perftree: the next line is the total, whatever follows it is not read
            total = next((x.strip() for x in lines[i + 1:] if x.strip()), None)
            if total is None:
                raise EngineError(f"{name}: no total after the blank line in the answer to {sent}")
            if not total.isdigit():
                raise EngineError(f"{name}: cannot understand {total!r} in the answer to {sent} "
                                  f"(expected the total after the blank line)")
            return _check_rows(name, sent, rows, int(total), total)
        match = _SCRIPT_COUNT.match(line)
        if not match:
            raise EngineError(f"{name}: cannot understand {line!r} in the answer to {sent} "
                              f"(expected 'move count', a blank line, then the total)")
        rows.append((match.group(1), int(match.group(2)), line))
    raise EngineError(f"{name}: the answer to {sent} ended without the blank line and total "
                      f"(last line {lines[-1] if lines else ''!r})")


# --- finding and naming engines ------------------------------------------------------------

def _executable(path: str, name: str) -> str:
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


def stockfish_available() -> bool:
    return find_stockfish() is not None


def make_oracle(spec: str, timeout: float = DEFAULT_TIMEOUT) -> Oracle:
    """An Oracle for `spec`; EngineError naming the spec when it is unknown or cannot start."""
    spec = (spec or "").strip()
    kind, _, path = spec.partition(":")
    if spec == "core":
        return CoreOracle()
    if spec in ("python-chess", "chess"):
        return PythonChessOracle()
    if spec == "stockfish":
        return UciOracle(require_stockfish(), name="stockfish", timeout=timeout)
    if kind == "uci" and path:
        return UciOracle(path, timeout=timeout)
    if kind == "perftree" and path:
        return PerftreeOracle(path, timeout=timeout)
    raise EngineError(f"unknown engine {spec!r}: expected {SPECS}")


