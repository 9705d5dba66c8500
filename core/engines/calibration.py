"""Learning how an engine prints its divide from positions whose answers are known.

    >>> calibration = calibrate(ask, "my-engine")          # ask(probe) -> the lines it printed
    >>> calibration.dialect.rows, calibration.dialect.total
    (('{move} {count}{rest}',), '{depth} {total}{rest}')

The engine is asked for the divides of the start position (depths 2 and 1), Kiwipete, an en-passant
position, a position with pins and an en passant that exposes the king, a promotion position, a
castling position with black to move, and a Chess960 one. The core knows every answer, so each
line of the engine's output can be told apart: the rows are the lines that carry a move of the
position and, in one place, the known count below it (a buggy engine still agrees on most); the
total is the line carrying the sum of its rows; the notation is how the rows write their moves;
a row of 0 for a pseudo-legal move that is not legal says that the engine lists pseudo-legal moves;
a block of rows for each depth 1..D says which block answers; the lines are those of stdout, or
of stderr when only those carry the known counts. The Chess960 position is judged
apart, after the dialect was learned from the standard ones, and within a short bound of its own:
read in that dialect with most moves agreeing, the engine takes Chess960; any other answer (none,
a crash, a hang, a malformed one) says only that it does not, never that the engine is not
understood. The learned Dialect is then the only way its answers are read.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

import chess

from ..board.position import START_FEN, Position
from ..errors import CalibrationError, EngineError, OracleCancelled
from .dialect import Dialect, normalize
from .divide_parser import ParsedDivide, read_divide
from .notation import MOVE_WORD, read_move
from .numbers import NUMBER, SPACED, readings
from .pipes import StderrLine

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS960 = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1"
_MIN_ROWS = 3              # rows that must carry the known count before a shape counts as the rows'
# The Chess960 probe's own bound: 3 times the slowest standard answer, at least 5 s and at most
# 8 s, so an engine that hangs on a Chess960 FEN costs seconds, not the whole timeout.
CHESS960_SECONDS = (5.0, 8.0)


@dataclass
class Probe:
    """One calibration position: what was asked, what the engine printed (None when it failed,
    `error` then says how), and what its answer reads to in the learned dialect."""
    title: str
    fen: str
    depth: int
    chess960: bool = False
    lines: list[str] | None = None
    error: str = ""
    sent: str = ""
    bound: float | None = None       # seconds this probe may take, when shorter than the timeout
    skipped: str = ""                # why it was not asked
    seconds: float = 0.0             # how long the engine took to answer it
    parsed: ParsedDivide | None = None
    read_error: str = ""
    truth: dict[int, dict[str, int]] = field(default_factory=dict)    # depth -> divide
    number: int = 0                     # its place among the positions asked, of `of`
    of: int = 0

    @property
    def total(self) -> int:
        return sum(self.truth[self.depth].values())

    def watch(self) -> Callable[[str], str | None]:
        """A function fed each line of the answer as it comes, saying what the lines so far
        hold: "total" once its known total was printed, "moves" once a line for each of its
        legal moves was (its total may still come), else None. An answer whose end is not
        otherwise known is then over after a short silence."""
        board = chess.Board(self.fen, chess960=self.chess960)
        wanted = set(self.truth[self.depth])
        held: str | None = None

        def seen(line: str) -> str | None:
            nonlocal held
            if held == "total":
                return held
            if any(self.total in readings(m.group(0)).values() for m in NUMBER.finditer(line)):
                held = "total"
                return held
            for word in MOVE_WORD.finditer(normalize(line)):
                read = read_move(board, word.group(0), san=False)
                if read is not None:
                    wanted.discard(read.uci)
            if not wanted:
                held = "moves"
            return held
        return seen


def probes() -> list[Probe]:
    """The calibration positions, the Chess960 one last."""
    out = [Probe("start position", START_FEN, 2), Probe("start position", START_FEN, 1),
           Probe("Kiwipete", KIWIPETE, 2),
           Probe("en passant", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 2),
           Probe("pins, an en passant exposing the king", "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", 2),
           Probe("promotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 2),
           Probe("castling, black to move", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 2),
           Probe("Chess960", CHESS960, 2, chess960=True)]
    return out


@dataclass
class Calibration:
    """What `calibrate` found: the dialect and every probe with its answer; `chess960` says in
    words what the Chess960 probe showed (whether it takes Chess960, whether it is right there)."""
    name: str
    dialect: Dialect
    probes: list[Probe]
    examples: dict[str, str] = field(default_factory=dict)     # 'row', 'total', 'zero': a line each
    chess960: str = ""

    @property
    def standard(self) -> list[Probe]:
        return [p for p in self.probes if not p.chess960]

    @property
    def chess960_probe(self) -> Probe:
        return next(p for p in self.probes if p.chess960)


def calibrate(ask: Callable[[Probe], list[str]], name: str, chess960: bool | None = True,
              given: Dialect | None = None, why_not960: str = "") -> Calibration:
    """Ask the engine every probe (ask(probe) returns its lines, EngineError when it fails; a
    probe's `bound`, when set, is the longest it may take) and learn its dialect from the standard
    positions; `given` is a dialect it is known to speak (the probes are then only read). The
    Chess960 probe is not asked when `chess960` is False (`why_not960` says who said so); otherwise
    its answer only decides the
    dialect's `chess960`. CalibrationError when nothing can be learned; OracleCancelled passes
    through."""
    asked = probes()
    from ..counting.shallow import divide        # the jitted core (the generator alone): only when calibrating
    count = sum(1 for p in asked if not (p.chess960 and chess960 is False))    # the ones asked
    slowest = 0.0
    for number, probe in enumerate(asked, 1):
        probe.number, probe.of = number, count
        pos = Position.from_fen(probe.fen, chess960=probe.chess960)
        probe.truth = {d: divide(pos, d) for d in range(1, probe.depth + 1)}
        if probe.chess960:
            if chess960 is False:
                probe.skipped = why_not960 or "said not to take Chess960 (chess960 = false)"
                continue
            probe.bound = min(CHESS960_SECONDS[1], max(CHESS960_SECONDS[0], 3 * slowest))
        started = time.monotonic()
        try:
            probe.lines = list(ask(probe))
        except OracleCancelled:
            raise
        except EngineError as e:
            if isinstance(e, CalibrationError) and not probe.chess960:
                raise
            probe.error = str(e)
            if probe is asked[0]:
                # failing on the start position is not a finding about any position asked later
                e.calibrating = True
                raise
        finally:
            probe.seconds = time.monotonic() - started
        if not probe.chess960:
            slowest = max(slowest, probe.seconds)
    standard = [p for p in asked if not p.chess960 and p.lines is not None]
    examples: dict[str, str] = {}
    dialect = given or _learn_stream(standard, name, examples)
    for probe in asked:
        if probe.lines is not None:
            probe.lines = on_stream(probe.lines, dialect.stream)
            _read(probe, dialect, name)
    takes, said = _judge_chess960(asked[-1])
    return Calibration(name, replace(dialect, chess960=takes), asked, examples, said)


def on_stream(lines: list[str], stream: str) -> list[str]:
    """The lines printed on `stream` of an answer read from both (stderr's are StderrLine)."""
    return [x for x in lines if isinstance(x, StderrLine) == (stream == "stderr")]


def _learn_stream(standard: list[Probe], name: str, examples: dict) -> Dialect:
    """The dialect of the answers on stdout, else (nothing there carries the known counts) of
    those on stderr, where some engines print their perft (Laser)."""
    def on(stream: str) -> list[Probe]:
        return [replace(p, lines=on_stream(p.lines, stream)) for p in standard]
    try:
        return _learn(on("stdout"), name, examples)
    except CalibrationError:
        if not any(isinstance(x, StderrLine) and x.strip() for p in standard for x in p.lines):
            raise
        try:
            return replace(_learn(on("stderr"), name, examples), stream="stderr")
        except CalibrationError:
            pass
        raise


def _read(probe: Probe, dialect: Dialect, name: str):
    try:
        probe.parsed = read_divide(probe.lines, probe.fen, dialect, name, f"the {probe.title}",
                                   depth=probe.depth, chess960=probe.chess960)
    except EngineError as e:
        probe.read_error = str(e)


def _judge_chess960(probe: Probe) -> tuple[bool, str]:
    """(whether the engine takes Chess960, what its answer showed): taken when the answer reads
    in the dialect learned from the standard positions and agrees on most moves (a Chess960
    engine with a bug still does); anything else is a standard-chess engine's answer."""
    if probe.skipped:
        return False, f"not asked: {probe.skipped}"
    if probe.error:
        return False, f"does not take Chess960 positions: {probe.error}"
    if probe.parsed is None:
        return False, f"does not take Chess960 positions: its answer cannot be read as this position's divide: " \
                      f"{probe.read_error}"
    truth = probe.truth[probe.depth]
    parsed = probe.parsed
    if parsed.moves is None:
        if parsed.total == sum(truth.values()):
            return True, "takes Chess960 positions, and agrees with the core there"
        return False, (f"does not take Chess960 positions: it counts {parsed.total} here, the core "
                       f"{sum(truth.values())}")
    agree = sum(parsed.moves.get(m) == c for m, c in truth.items())
    if agree == len(truth) == len(parsed.moves):
        return True, "takes Chess960 positions, and agrees with the core there"
    if agree >= 0.8 * len(truth):
        return True, "takes Chess960 positions, but differs from the core there"
    return False, (f"does not take Chess960 positions: its answer is not this position's divide "
                   f"({agree} of {len(truth)} moves with the core's count)")


# --- learning ---------------------------------------------------------------------------------

@dataclass
class _Line:
    raw: str
    tokens: list            # ("lit", text) | ("move", Read) | ("num", {separator: value})
    move: object = None     # the one move read in the line (notation.Read), if exactly one

    @property
    def numbers(self) -> list[dict]:
        return [t[1] for t in self.tokens if t[0] == "num"]


def _analyse(raw: str, board: chess.Board, spaced: bool = False) -> _Line:
    """The line cut into literal text, moves of `board` and numbers (with `spaced`, digits
    grouped by single spaces are one number)."""
    line = normalize(raw)
    moves = []
    for match in MOVE_WORD.finditer(line):
        read = read_move(board, match.group(0))
        if read is not None:
            moves.append((match.start(), match.end(), read))
    spans = [(a, b) for a, b, _ in moves]
    numbers = [(m.start(), m.end(), readings(m.group(0))) for m in NUMBER.finditer(line)
               if not any(a < m.end() and m.start() < b for a, b in spans)]
    if spaced:
        groups = [(m.start(), m.end(), {" ": int(m.group(0).replace(" ", ""))}) for m in SPACED.finditer(line)]
        numbers = [n for n in numbers if not any(a <= n[0] < b for a, b, _ in groups)] + groups
    pieces = sorted([(a, b, ("move", r)) for a, b, r in moves] + [(a, b, ("num", v)) for a, b, v in numbers],
                    key=lambda x: x[0])
    tokens, pos = [], 0
    for a, b, token in pieces:
        if a > pos:
            tokens.append(("lit", line[pos:a]))
        tokens.append(token)
        pos = b
    if pos < len(line):
        tokens.append(("lit", line[pos:]))
    return _Line(raw, tokens, moves[0][2] if len(moves) == 1 else None)


def _shape(tokens, roles: dict[int, str], cut: bool) -> str:
    """The shape of a tokenised line: numbers by their role ({count}, {total}, {depth}) or {n},
    the move {move}; with `cut`, whatever follows the last field with a role is {rest}."""
    out, last_role = [], max(roles) if roles else -1
    move_at = next((i for i, t in enumerate(tokens) if t[0] == "move"), -1)
    end = max(last_role, move_at)
    for i, (kind, value) in enumerate(tokens):
        if cut and i > end:
            out.append("{rest}")
            break
        if kind == "lit":
            out.append(value.replace("{", "{{").replace("}", "}}"))
        elif kind == "move":
            out.append("{move}")
        else:
            out.append("{" + roles.get(i, "n") + "}")
    return "".join(out)


def _number_indexes(line: _Line) -> list[int]:
    return [i for i, t in enumerate(line.tokens) if t[0] == "num"]


def _learn(probes_: list[Probe], name: str, examples: dict) -> Dialect:
    if not probes_:
        raise CalibrationError(f"{name} answered none of the calibration positions")
    if sum("\n".join(p.lines).lstrip().startswith("{") for p in probes_) * 2 > len(probes_):
        examples["row"] = "\n".join(probes_[0].lines)[:80]
        return Dialect(json=True)
    analysed = {id(p): [_analyse(raw, chess.Board(p.fen)) for raw in p.lines] for p in probes_}
    separators: Counter = Counter()
    rows, row_index = _learn_rows(probes_, analysed, examples)
    blocks = {id(p): _blocks(p, analysed[id(p)], rows, row_index) for p in probes_}
    per_depth = _per_depth(probes_, blocks)
    # `8 902`: digits grouped by single spaces are one number where that explains more totals
    spaced = {id(p): [_analyse(raw, chess.Board(p.fen), spaced=True) for raw in p.lines] for p in probes_}
    total, votes, seps, example = max(
        (_learn_total(probes_, lines, rows, row_index, blocks) for lines in (analysed, spaced)),
        key=lambda found: found[1])
    if total is not None:
        separators.update(seps)
        examples["total"] = example
    if total is not None and not rows and not per_depth:
        per_depth = _totals_per_depth(probes_, total)
    if not rows and total is None:
        first = next((x for p in probes_ for x in p.lines if x.strip()), "")
        raise CalibrationError(
            f"cannot learn how {name} prints its divide: no line of its answers carries the counts of "
            f"the calibration positions (its first line for the start position: {first!r}); is the "
            f"command right? (see docs/connect-your-engine.md)")
    row_lines = [(p, line) for p in probes_ for line in analysed[id(p)] if _row_shape_of(line, rows, row_index)]
    for p, line in row_lines:
        value = line.tokens[row_index[_row_shape_of(line, rows, row_index)]][1]
        separators.update(s for s in value if s)
    if len(separators) > 1:
        raise CalibrationError(f"{name} groups digits in more than one way ({', '.join(map(repr, separators))})")
    separator = next(iter(separators), "")
    notation, castling = _learn_notation([line for _, line in row_lines])
    zero = [(p, line) for p, line in row_lines if _is_zero_row(p, line, rows, row_index)]
    if zero:
        examples["zero"] = zero[0][1].raw.strip()
    row_shapes = tuple(_shape(shape_tokens, {index: "count"}, cut=True)
                       for shape_tokens, index in ((rows[s], row_index[s]) for s in rows))
    if separator == " " and any("{rest}" in s for s in row_shapes):
        raise CalibrationError(f"{name} groups digits with spaces and prints more numbers after a count: "
                               f"they cannot be told apart")
    noise = _noise(probes_, analysed, rows, total, separator)
    return Dialect(rows=row_shapes, total=total, notation=notation, castling=castling, separator=separator,
                   zero_rows=bool(zero), per_depth=per_depth, noise=noise)


def _plain_shape(line: _Line) -> str:
    return _shape(line.tokens, {}, cut=False)


def _value_matches(values: dict, wanted: int) -> bool:
    return wanted in values.values()


def _learn_rows(probes_, analysed, examples):
    """{plain shape: tokens of an example line}, {plain shape: the token index of the count}:
    the shapes whose lines carry the known count below their move at one number index."""
    votes: Counter = Counter()
    lines_of: Counter = Counter()
    example: dict[str, _Line] = {}
    for p in probes_:
        legal = set(p.truth[p.depth])
        for line in analysed[id(p)]:
            if line.move is None or not line.numbers:
                continue
            shape = _plain_shape(line)
            lines_of[shape] += 1
            if p is probes_[0] or shape not in example:      # the first answer's last row of it
                example[shape] = line
            uci = line.move.uci
            for i in _number_indexes(line):
                values = line.tokens[i][1]
                if any(_value_matches(values, t.get(uci, -1)) for t in p.truth.values()) or \
                        (0 in values.values() and uci not in legal):
                    votes[(shape, i)] += 1
    rows, row_index = {}, {}
    best = {}
    for (shape, i), n in votes.items():
        if n > best.get(shape, (0, -1))[0]:
            best[shape] = (n, i)
    for shape, (n, i) in sorted(best.items(), key=lambda x: -x[1][0]):
        if n >= _MIN_ROWS and n * 2 >= lines_of[shape]:
            rows[shape], row_index[shape] = example[shape].tokens, i
    if rows:
        top = max(rows, key=lambda s: best[s][0])
        examples["row"] = example[top].raw.strip()
    return rows, row_index


def _row_shape_of(line: _Line, rows, row_index) -> str | None:
    if line.move is None:
        return None
    shape = _plain_shape(line)
    return shape if shape in rows else None


def _row_value(line: _Line, rows, row_index) -> int:
    values = line.tokens[row_index[_plain_shape(line)]][1]
    return values.get("", next(iter(values.values())))


def _is_zero_row(p: Probe, line: _Line, rows, row_index) -> bool:
    return _row_value(line, rows, row_index) == 0 and line.move.uci not in p.truth[p.depth]


def _blocks(p: Probe, lines: list[_Line], rows, row_index) -> list[list[tuple[str, int]]]:
    """The rows of one answer in blocks: a new block where a move comes again."""
    out: list[list[tuple[str, int]]] = [[]]
    for line in lines:
        if _row_shape_of(line, rows, row_index) is None:
            continue
        uci = line.move.uci
        if any(m == uci for m, _ in out[-1]):
            out.append([])
        out[-1].append((uci, _row_value(line, rows, row_index)))
    return [b for b in out if b]


def _per_depth(probes_, blocks) -> bool:
    """A block per depth 1..D in the answers deeper than 1, each matching its depth's divide."""
    deep = [p for p in probes_ if p.depth > 1 and blocks[id(p)]]
    if not deep:
        return False
    fits = 0
    for p in deep:
        found = blocks[id(p)]
        if len(found) == p.depth and all(
                sum(p.truth[d].get(m) == c for m, c in block) * 2 >= len(block)
                for d, block in enumerate(found, 1)):
            fits += 1
    return fits * 2 > len(deep)


def _totals_per_depth(probes_, total: str) -> bool:
    """An engine printing only totals prints one for each depth 1..D when most answers deeper
    than 1 hold exactly D lines of the total's shape."""
    from .dialect import compiled
    deep = [p for p in probes_ if p.depth > 1]
    fits = sum(sum(bool(compiled(total, " ").fullmatch(normalize(x))) for x in p.lines) == p.depth for p in deep)
    return bool(deep) and fits * 2 > len(deep)


def _learn_total(probes_, analysed, rows, row_index, blocks):
    """(shape, votes, separators, example line) of the line carrying the total of the rows (or
    the known total, for an engine printing only totals), with {depth} where a number is always
    the depth asked; shape None when no such line is common to most answers."""
    votes: Counter = Counter()
    depth_ok: dict[tuple, bool] = {}
    example: dict[tuple, _Line] = {}
    sep_of: dict[tuple, set] = {}
    for p in probes_:
        found = blocks[id(p)]
        wanted = {sum(c for _, c in found[-1])} if found else set()
        wanted.add(p.total)
        seen = set()
        for line in analysed[id(p)]:
            if _row_shape_of(line, rows, row_index) is not None:
                continue
            indexes = _number_indexes(line)
            for i in indexes:
                values = line.tokens[i][1]
                hit = [s for s, v in values.items() if v in wanted]
                if not hit:
                    continue
                key = (_plain_shape(line), i)
                if key in seen:
                    continue
                seen.add(key)
                votes[key] += 1
                example.setdefault(key, line)
                sep_of.setdefault(key, set()).update(s for s in hit if s)
                for j in indexes:
                    if j == i:
                        continue
                    says_depth = p.depth in line.tokens[j][1].values()
                    depth_ok[(key, j)] = depth_ok.get((key, j), True) and says_depth
    if not votes:
        return None, 0, set(), ""
    need = max(1, len(probes_) // 2)
    ranked = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0][0] == "{n}"))
    (shape, index), n = ranked[0]
    if n < need:
        return None, 0, set(), ""
    line = example[(shape, index)]
    roles = {index: "total"}
    depths = [j for (key, j), ok in depth_ok.items() if key == (shape, index) and ok]
    if depths and len({p.depth for p in probes_}) > 1:
        roles[depths[0]] = "depth"
    return _shape(line.tokens, roles, cut=True), n, sep_of[(shape, index)], line.raw.strip()


def _learn_notation(lines: list[_Line]) -> tuple[str, str]:
    notations = Counter(line.move.notation for line in lines if line.move.notation)
    castlings = Counter(line.move.castling for line in lines if line.move.castling)
    if notations["san"] > notations["long algebraic"] + notations["uci"]:
        notation = "san"
    elif notations["long algebraic"]:
        notation = "long algebraic"
    else:
        notation = "uci"
    return notation, (castlings.most_common(1)[0][0] if castlings else "")


def _noise(probes_, analysed, rows, total, separator) -> tuple[str, ...]:
    """Shapes of the lines with a move and a number that are neither rows nor the total."""
    from .dialect import compiled
    out = []
    for p in probes_:
        for line in analysed[id(p)]:
            has_move = any(t[0] == "move" for t in line.tokens)
            if not has_move or not line.numbers or _plain_shape(line) in rows:
                continue
            if total is not None and compiled(total, separator).fullmatch(normalize(line.raw)):
                continue
            shape = _plain_shape(line)
            if shape not in out:
                out.append(shape)
    return tuple(out)
