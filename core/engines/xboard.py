"""xboard (CECP) engines: `xboard:PATH`, or an engine file with `protocol = "xboard"`.

    xboard / protover 2          the features it announces are read (until done=1, or 2 s of silence);
                                 one that says it does not know `xboard` or `protover` does not
                                 speak xboard, and one that announces none is asked `uci` once: a
                                 `uciok` says it is a UCI engine (both told at once, not after the
                                 calibration)
    new / force / setboard FEN   for each request (`variant fischerandom` first for Chess960)
    e2e4                         each move on a line of its own (`usermove e2e4` with usermove=1,
                                 SAN with san=1, O-O for a Chess960 castling)
    perft D                      the engine's perft command (an engine file may name another)
    ping N                       with ping=1: `pong N` ends the answer

`Illegal move: e2e4` (or `Error (...): ...`) in reply to a move perftscope checked as legal is
a refusal (EngineRefused) naming the move, never the count of the position before it.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace

import chess

from ..errors import CalibrationError, EngineRefused
from .dialogue import (HANDSHAKE_TIMEOUT, XBOARD_ILLEGAL, Command, ConsoleProtocol, Dialogue, InteractiveOracle,
                       Perft, _refused, refuses_command, run)
from .mode import Mode
from .oracle import DEFAULT_TIMEOUT
from .process import executable
from .spec import Spec
from .uci import OWN_PERFT

XBOARD = Dialogue(command=(), start=("xboard", "protover 2"), position=("new", "force", "setboard {fen}"),
                  divide="perft {depth}", moves_each="{move}", illegal=XBOARD_ILLEGAL, quit="quit")
FEATURES_QUIET = 2.0            # an engine that announces no features (protocol 1) is not waited on longer
UCI_PROBE_QUIET = 1.0           # ... and then answers `uci` within this silence, or not at all
_FEATURE = re.compile(r'(\w+)=(?:"([^"]*)"|(\S+))')
_ERROR = re.compile(r"^Error \((?P<kind>[^)]*)\):\s*(?P<what>.*)")


class Features(Command):
    """The features an engine announces after `protover 2`, until `done=1` or a silence of
    FEATURES_QUIET (protocol 1 announces none)."""

    def __init__(self, what: str, name: str, path: str):
        super().__init__(what, HANDSHAKE_TIMEOUT)
        self.name, self.path = name, path
        self.result: dict[str, str] = {}

    def quiet(self):
        return FEATURES_QUIET

    def line(self, engine, line):
        refused = [w for w in ("xboard", "protover") if refuses_command(line, w)]
        if refused:           # a UCI engine: `Unknown command: xboard`
            engine.kill()
            raise CalibrationError(f"{self.name} does not speak xboard (it answered {line.strip()!r} to "
                                   f"`{refused[0]}`): for a UCI engine use uci:{self.path}")
        if line.startswith("feature "):
            for key, quoted, bare in _FEATURE.findall(line):
                self.result[key] = quoted if bare == "" else bare
            self.done = self.result.get("done") == "1"


class UciProbe(Command):
    """`uci`, sent to a program that announced no xboard features: True when it answers `uciok`
    (a UCI engine that ignores unknown commands silently, as UCI tells it to), False when it says
    it does not know `uci` (an xboard engine of protocol 1) or stays silent."""

    def __init__(self):
        super().__init__("'uci'", HANDSHAKE_TIMEOUT)
        self.result = False

    def start(self, engine):
        engine.send("uci", self.what)

    def quiet(self):
        return UCI_PROBE_QUIET

    def line(self, engine, line):
        self.result = line.strip() == "uciok"
        self.done = self.result or refuses_command(line, "uci")


class XboardPerft(Perft):
    """`perft N` and its answer; `Error (unknown command): perft` (or an engine taking `perft 3`
    for a move) says it has no such command, any other `Error (...)` refuses what was sent."""

    def check(self, engine, line):
        text = line.strip()
        error = _ERROR.match(text)
        dialogue = self.protocol.dialogue
        perft = (dialogue.divide or dialogue.totals or "").split()[0]
        unknown = error.group("what").split()[:1] if error and "unknown" in error.group("kind") else []
        # an engine taking an unknown command for a move says `Illegal move: perft 3`
        if not unknown and self.protocol.illegal is not None and self.protocol.illegal.search(text) and \
                text.split(":", 1)[-1].split()[:1] == [perft]:
            unknown = [perft]
        if unknown:
            advice = OWN_PERFT if unknown[0] == perft else ("describe how to talk to it in an engine file "
                                                              "(see docs/connect-your-engine.md)")
            raise CalibrationError(f"{self.protocol.name} has no `{unknown[0]}` command (it answered {text!r}): "
                                   f"{advice}")
        if error:
            raise EngineRefused(f"{self.protocol.name}: refused {_refused(line, self.moves)} in {self.what}: {text!r}",
                                own_error=text)
        super().check(engine, line)


class XboardProtocol(ConsoleProtocol):
    """xboard in force mode, one request at a time: its features read at start-up, `variant
    fischerandom` for a Chess960 position, each move as its features ask, `ping N` as the
    sentinel when it has ping=1."""
    perft = XboardPerft

    def __init__(self, *args):
        super().__init__(*args)
        self.features: dict[str, str] = {}
        self._pings = 0
        self._probed = False

    def start(self):
        super().start()
        self.features = {}
        path = self.dialogue.command[0]
        self.features = run(self.engine, Features(repr(" / ".join(self.dialogue.start)), self.name, path))
        if not self.features and not self._probed:      # protocol 1, or not xboard at all
            self._probed = True
            if run(self.engine, UciProbe()):
                self.engine.kill()
                raise CalibrationError(f"{self.name} is a UCI engine (it announced no xboard features and "
                                       f"answered `uciok` to `uci`): use uci:{path}")

    def refuses_chess960(self) -> str:
        variants = self.features.get("variants")
        if variants and not any(v in variants.split(",") for v in ("fischerandom", "chess960")):
            return f"its features name no Chess960 variant (variants=\"{variants}\")"
        return ""

    def request_lines(self, call):
        lines = super().request_lines(call)
        if call.position.chess960 and "new" in lines:
            lines.insert(lines.index("new") + 1, "variant fischerandom")
        return lines

    def move_texts(self, fen: str, moves: list[str], chess960: bool) -> list[str]:
        """Each move as the engine's features ask (usermove, SAN, O-O for a Chess960 castling),
        each read on the board it is played on: the root FEN read once, the moves played on it."""
        if self.features.get("usermove") == "1" and not self.dialogue.moves_each.startswith("usermove"):
            prefix = "usermove "
        else:
            prefix = ""
        board = chess.Board(fen, chess960=chess960) if moves else None
        texts = []
        for move in moves:
            texts.append(prefix + self._move_text(board, move))
            board.push_uci(move)
        return texts

    def _move_text(self, board: chess.Board, move: str) -> str:
        if self.features.get("san") == "1":
            return board.san(board.parse_uci(move))
        if board.chess960 and board.is_castling(board.parse_uci(move)):
            played = chess.Move.from_uci(move)
            kingside = chess.square_file(played.to_square) > chess.square_file(played.from_square)
            return "O-O" if kingside else "O-O-O"
        return move

    def sentinel(self):
        if self.dialogue.sentinel or self.features.get("ping") != "1":
            return super().sentinel()
        self._pings += 1
        return f"ping {self._pings}", f"pong {self._pings}"

    def knows_end(self) -> bool:
        return super().knows_end() or self.features.get("ping") == "1"


class XboardOracle(InteractiveOracle):
    """An xboard engine driven in force mode, one request at a time."""
    speaks = XboardProtocol

    @classmethod
    def from_path(cls, spec: Spec, timeout: float = DEFAULT_TIMEOUT, mode: Mode | None = None) -> "XboardOracle":
        """The xboard engine at `spec`'s target (`xboard:PATH`), its options kept."""
        name = os.path.basename(spec.target)
        command = (executable(spec.target, name),)
        return cls(spec, name, replace(XBOARD, command=command, chess960=spec.chess960), timeout, mode)

    @property
    def features(self) -> dict[str, str]:
        """What the engine announced after `protover 2`."""
        return self.protocol.features
