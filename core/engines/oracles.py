"""Reference engines behind one interface: `divide(request, depth) -> {uci_move: count}`.

    >>> with make_oracle("stockfish") as sf:
    ...     sf.divide(Request.of(START_FEN, ["e2e4"]), 1)["e7e5"]
    1

Specs (parsed by core.engines.spec.parse_spec): `core` (the jitted core), `python-chess`
(in-process, slow, trusted), `stockfish` (found on PATH or at the Debian path), `uci:PATH` (any
engine speaking `go perft N`), `xboard:PATH` (an xboard engine with a `perft` command),
`perftree:PATH` (a script in perftree's protocol, run unchanged), `cmd:TEMPLATE` (any program run
per divide) and `file:ENGINE.toml` (an interactive program described by an engine file). A
request's FEN and moves are validated by core.board.position when it is made (core.engines.oracle.
Request), before anything is sent, so an engine only ever sees legal requests; depth 0 is answered here (an empty divide, one node) because engines
disagree about what it means. Every answer from another program is read in the dialect learned
for it by calibration (core.engines.program), and every process is held to core.engines.process's
bounds.

Every oracle is safe to call from several threads: one lock per oracle, one engine process each.
`cancel()` and `close()` never wait: a request running in another thread ends at once with
OracleCancelled, so a GUI thread can stop a deep divide without blocking. `activity()` and `log`
say what it is doing, for the GUI.
"""
from __future__ import annotations

import threading
from dataclasses import replace

from .command import CommandOracle
from .dialogue import UCI, InteractiveOracle
from .uci import UciOracle
from .engine_file import load_engine_file
from .mode import Mode
from .program import STOCKFISH
from .oracle import DEFAULT_TIMEOUT, Answer, Oracle, OracleCancelled, Request
from .pipes import EngineLog
from .process import Activity
from .spec import BY_NAME, SPECS, Spec, parse_spec
from .stockfish import find_stockfish, require_stockfish

__all__ = ["Activity", "Answer", "EngineLog", "Oracle", "OracleCancelled", "SPECS", "Spec", "make_oracle",
           "parse_spec", "Request", "DEFAULT_TIMEOUT"]


class CoreOracle(Oracle):
    """The jitted core: small divides on one thread through the move list (core.counting.shallow:
    the generator's kernels alone, so a command that asks the core a few shallow divides never
    compiles the pool's), every core (no hash table, so nothing can collide) for the others."""
    name = "core"

    def __init__(self):
        super().__init__()
        self._run = None

    def _divide(self, call):
        pos, depth = call.position, call.depth
        from ..counting import shallow
        if shallow.is_small(pos, depth):
            shallow.prepare(depth)          # on the caller's thread: a compile is not the run's
            self._run = shallow.start_shallow(pos, depth, divide=True)
        else:
            from ..counting.pool import start_perft
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

    def _divide(self, call):
        import chess
        depth = call.depth
        board = chess.Board(call.fen, chess960=call.position.chess960)
        for uci in call.moves:
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


def stockfish_available() -> bool:
    return find_stockfish() is not None


def _in_process(oracle: Oracle, spec: Spec, timeout: float) -> Oracle:
    oracle.spec, oracle.timeout = spec, float(timeout)
    return oracle


def _core(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    return _in_process(CoreOracle(), spec, timeout)


def _python_chess(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    return _in_process(PythonChessOracle(), spec, timeout)


def _stockfish(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    # the reference speaks a dialect known beforehand
    return UciOracle(require_stockfish(), name="stockfish", timeout=timeout, spec=spec,
                     dialogue=replace(UCI, dialect=STOCKFISH), mode=mode)


def _uci(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    return UciOracle(spec.target, timeout=timeout, spec=spec, mode=mode,
                     dialogue=replace(UCI, chess960=spec.chess960))


def _xboard(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    from .xboard import XboardOracle
    return XboardOracle.from_path(spec, timeout=timeout, mode=mode)


def _command(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    return CommandOracle(spec, timeout=timeout, mode=mode)


def _engine_file(spec: Spec, timeout: float, mode: Mode | None) -> Oracle:
    described = load_engine_file(spec.target)
    if spec.chess960 is False:
        described = replace(described, dialogue=replace(described.dialogue, chess960=False))
    if timeout == DEFAULT_TIMEOUT and described.timeout is not None:
        timeout = described.timeout       # the file's own timeout, unless one was given
    if described.protocol == "xboard":
        from .xboard import XboardOracle
        return XboardOracle(spec, described.name, described.dialogue, timeout, mode)
    if described.protocol == "uci" and described.dialogue.divide == UCI.divide:
        return UciOracle(described.dialogue.command[0], described.name, timeout, spec,
                         described.dialogue, mode)
    return InteractiveOracle(spec, described.name, described.dialogue, timeout, mode)


# how each kind of core.engines.spec.KINDS is made: one entry per kind, checked below
MAKERS = {"core": _core, "python-chess": _python_chess, "stockfish": _stockfish, "uci": _uci,
          "xboard": _xboard, "perftree": _command, "cmd": _command, "file": _engine_file}
if set(MAKERS) != set(BY_NAME):         # a kind added to the table and not here fails on import
    raise ImportError(f"make_oracle has no maker for {sorted(set(BY_NAME) - set(MAKERS))} "
                      f"or one for no kind: {sorted(set(MAKERS) - set(BY_NAME))}")


def make_oracle(spec, timeout: float = DEFAULT_TIMEOUT, mode: Mode | None = None) -> Oracle:
    """An Oracle for `spec` (text or Spec); EngineError naming the spec when it is unknown or
    cannot start. `mode` asks for threads and a hash size where the engine can take them
    (core.engines.mode; `oracle.taken` says what it took)."""
    spec = parse_spec(spec)
    return MAKERS[spec.kind](spec, timeout, mode)
