"""Dialects learned by calibration: programs written for these tests print each dialect real
engines print (long algebraic with piece letters, a block per depth, pseudo-legal rows of 0,
totals in three forms, grouped digits, an xboard dialogue with one move a line and `Illegal move`
replies, a UCI engine without `go perft`). Each is learned with no adapter, each planted bug is
found through it as through perftree, and a correct engine gives no finding in a fuzz session."""
import time
from pathlib import Path

import pytest

from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.pair import EnginePair
from perftscope.core.errors import CalibrationError, EngineError
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.mismatch.fuzz import Fuzzer, FuzzSettings
from perftscope.core.engines.oracle import Request

ENGINES = Path(__file__).parents[2] / "engines"
PLANTED = {   # engine: (FEN, moves, depth) where its bug shows
    "ep_rank_pin": ("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1", [], 2),
    "pinned_leaves_line": ("k2r4/8/8/8/8/8/4N3/4K3 b - - 0 1", [], 3),
    "castle_through_attack": ("4k3/8/8/8/2b5/8/8/4K2R b K - 0 1", [], 3),
    "no_underpromotion": ("8/2P5/8/8/8/8/k7/7K w - - 0 1", ["h1g1", "a2b2"], 3),
}
# format -> what calibration must learn from it
LEARNED = {
    "lan": dict(rows=("{move} {count}",), total="perft({depth}) = {total}{rest}", notation="long algebraic",
                castling="O-O", per_depth=False, zero_rows=False),
    "per_depth": dict(rows=("{move} {count}{rest}",), total="{depth} {total}{rest}", notation="long algebraic",
                      per_depth=True, zero_rows=False),
    "pseudo": dict(rows=("{move} {count}",), total="{total}", notation="uci", zero_rows=True),
    "raw_nodes": dict(rows=(), total="Raw nodes for depth {depth}: {total}"),
    "bare_total": dict(rows=(), total="{total}"),
    "grouped": dict(rows=("{move}: {count}",), total="Total: {total}{rest}", separator=","),
}


def in_format(fmt, planted, engine_path):
    return f"cmd:{ENGINES / 'formats.py'} {fmt} {engine_path(planted)} {{depth}} {{fen}} {{moves}}"


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


@pytest.fixture(scope="module")
def expected(core):
    """Each planted engine's report through the perftree protocol: what every dialect must give."""
    return {name: _find(f"perftree:{ENGINES / name}.py", name, core) for name in PLANTED}


def _find(spec, planted, core):
    fen, moves, depth = PLANTED[planted]
    with make_oracle(spec, timeout=60) as engine:
        return find_mismatch(engine, core, Request.of(fen, moves), depth)


@pytest.mark.parametrize("fmt", LEARNED)
def test_each_dialect_is_learned_and_read_right(fmt, engine_path):
    with make_oracle(in_format(fmt, "correct", engine_path)) as engine:
        calibration = engine.calibrate()
    dialect = calibration.dialect
    for key, value in LEARNED[fmt].items():
        assert getattr(dialect, key) == value, (key, dialect)
    standard = [p for p in calibration.probes if not p.chess960]
    assert all(p.parsed is not None and p.parsed.nodes == p.total for p in standard), \
        [(p.title, p.read_error) for p in standard]
    if fmt in ("pseudo", "per_depth"):        # zeros only where the engine lists pseudo-legal moves
        pins = next(p for p in standard if p.title.startswith("pins"))
        assert pins.parsed.dropped == (["h4h3", "f4e3"] if fmt == "pseudo" else [])


# each dialect with rows finds two planted bugs and each bug is found through two of them, in a
# rotation (how each dialect is read is tested above, so the full product repeats it); the
# totals-only ones are bisected by totals, a call per legal move and level: one bug each
_ROWS, _BUGS = ("lan", "per_depth", "pseudo", "grouped"), list(PLANTED)
THROUGH = [(fmt, _BUGS[(i + k) % len(_BUGS)]) for i, fmt in enumerate(_ROWS) for k in (0, 1)] + \
    [("raw_nodes", "no_underpromotion"), ("bare_total", "ep_rank_pin")]


@pytest.mark.parametrize("fmt, planted", THROUGH)
def test_planted_bugs_are_found_through_every_dialect(fmt, planted, expected, core, engine_path):
    report = _find(in_format(fmt, planted, engine_path), planted, core)
    want = expected[planted]
    assert not report.crash and not report.agree, report.error
    assert (report.path, report.fen) == (want.path, want.fen)
    if LEARNED[fmt]["rows"]:
        assert (report.missing, report.extra) == (want.missing, want.extra)
    else:                                 # totals only: bisected to the same position
        assert report.totals_only and "which moves cannot be told" in report.note


@pytest.mark.parametrize("fmt", ["per_depth", "pseudo", "grouped"])
def test_no_finding_on_a_correct_engine_in_a_fuzz_session(fmt, core, engine_path):
    # a fixed number of positions keeps this short; the 60-second sessions are in the README
    pair = EnginePair.parse(in_format(fmt, "correct", engine_path), "core", timeout=60)
    result = Fuzzer(pair, FuzzSettings(seed=3, seconds=None, positions=12, shrink_calls=0)).run()
    assert result.tested == 12 and result.findings == []


# --- xboard --------------------------------------------------------------------------------

@pytest.fixture
def xboard_file(tmp_path, engine_path):
    def make(planted, *flags):
        toml = tmp_path / f"xboard-{planted}.toml"
        args = ", ".join(f'"{a}"' for a in [engine_path(planted), *flags])
        toml.write_text(f'name = "xb-{planted}"\ncommand = ["{ENGINES / "xboard_engine.py"}", {args}]\n'
                        'protocol = "xboard"\ntimeout = 30\n')
        return f"file:{toml}"
    return make


@pytest.mark.parametrize("flags", [(), ("--usermove",)])
def test_an_xboard_dialogue_is_learned(flags, xboard_file):
    with make_oracle(xboard_file("correct", *flags)) as engine:
        calibration = engine.calibrate()
        assert engine.features["ping"] == "1" and engine.features["usermove"] == str(int(bool(flags)))
        dialect = calibration.dialect
        assert dialect.rows == ("{move} {count}",) and dialect.total == "Nodes: {total}"
        assert dialect.notation == "long algebraic" and dialect.chess960 is False     # variants="normal"
        rows = engine.divide(Request.of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["e2e4", "e7e5"]), 1)
        assert len(rows) == 29 and rows["e1e2"] == 1
        sent = [t for _, d, t in engine.log.entries() if d == ">"]
        played = ["usermove e2e4", "usermove e7e5"] if flags else ["e2e4", "e7e5"]
        assert sent[-7:] == ["new", "force", "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                             *played, "perft 1", sent[-1]] and sent[-1].startswith("ping ")


@pytest.mark.parametrize("planted", PLANTED)
def test_each_planted_bug_is_found_through_xboard(planted, xboard_file, expected, core):
    report = _find(xboard_file(planted), planted, core)
    want = expected[planted]
    assert not report.crash, report.error
    assert (report.path, report.fen, report.missing, report.extra) == (want.path, want.fen, want.missing, want.extra)


def test_a_move_the_xboard_engine_refuses_is_a_refusal_not_the_roots_count(xboard_file, core):
    # it does not generate c7c8n: `Illegal move: c7c8n`, and it would count the position before it
    with make_oracle(xboard_file("no_underpromotion")) as engine:
        report = find_mismatch(engine, core, Request.of("8/2P5/8/8/8/8/k7/7K w - - 0 1", ["c7c8n"]), 2)
    assert report.crash and report.failure.kind == "refused" and report.path == ["c7c8n"]
    assert "refused the legal move c7c8n" in report.error and "'Illegal move: c7c8n'" in report.error


def test_no_finding_on_a_correct_xboard_engine_in_a_fuzz_session(xboard_file, core):
    result = Fuzzer(EnginePair.parse(xboard_file("correct"), "core", timeout=60),
                    FuzzSettings(seed=5, seconds=None, positions=20, shrink_calls=0)).run()
    assert result.tested == 20 and result.findings == []


# --- a UCI engine without go perft -----------------------------------------------------------

def _named(tmp_path, name, program, *args) -> Path:
    """A program of this folder run with `args` under another name (as the user's engine)."""
    script = tmp_path / name
    script.write_text(f"#!/bin/sh\nexec {ENGINES / program} {' '.join(str(a) for a in args)}\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("how", ["", " --silent", " --ignores"])
def test_a_uci_engine_without_go_perft_is_told_at_once(how, engine_path, tmp_path):
    script = _named(tmp_path, "no-perft", "uci_no_perft.py", engine_path("correct"), how)
    with make_oracle(f"uci:{script}", timeout=600) as engine:
        start = time.monotonic()
        with pytest.raises(CalibrationError) as err:
            engine.divide(Request.of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 2)
        named = time.monotonic() - start
    assert named < (2 if how == " --ignores" else 10)          # not the 600-second timeout
    said = "it said nothing to 'position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 / go " \
           "perft 2' nor to `stop`, and answered `isready` at once" if how == " --ignores" else "it answered "
    assert str(err.value).startswith(f"no-perft has no `go perft` ({said}")
    assert str(err.value).endswith("): if it counts perft with a command of its own, describe that in an engine "
                                   "file (see docs/connect-your-engine.md)")


@pytest.mark.parametrize("how", ["", " --complains"])
def test_a_uci_engine_named_as_xboard_is_told_at_once(how, engine_path, tmp_path):
    # Ethereal and Toga II ignore `xboard` without a word (and Ethereal's console `perft 2` then
    # counts its own position); Stockfish and Glaurung say `Unknown command: xboard`
    script = _named(tmp_path, "a-uci-engine", "uci_no_perft.py", engine_path("correct"), how)
    start = time.monotonic()
    with pytest.raises(CalibrationError) as err:
        make_oracle(f"xboard:{script}", timeout=600)
    assert time.monotonic() - start < 8            # not a calibration of 15 s, nor the 600-second timeout
    said = ("does not speak xboard (it answered \"Unknown command: 'xboard'. Type help for more information.\" "
            "to `xboard`)" if how else "is a UCI engine (it announced no xboard features and answered `uciok` to `uci`)")
    assert str(err.value) == f"a-uci-engine {said}: " + ("for a UCI engine use" if how else "use") + f" uci:{script}"


def test_an_xboard_engine_named_as_uci_is_told_at_once(engine_path, tmp_path):
    # Phalanx and HoiChess take `uci` for a move (`Illegal move: uci`); HoiChess then exits
    script = _named(tmp_path, "an-xboard-engine", "xboard_engine.py", engine_path("correct"))
    start = time.monotonic()
    with pytest.raises(CalibrationError) as err:
        make_oracle(f"uci:{script}", timeout=600)
    assert time.monotonic() - start < 5            # not the handshake's 10-second timeout
    assert str(err.value) == ("an-xboard-engine does not speak UCI (it answered 'Illegal move: uci' to `uci`): "
                              f"for an xboard engine use xboard:{script}")


def test_a_uci_engine_without_go_perft_through_its_perft_command(tmp_path, engine_path, core, expected):
    for planted in ("ep_rank_pin",):
        toml = tmp_path / f"{planted}.toml"
        toml.write_text(f'command = ["{ENGINES / "uci_no_perft.py"}", "{engine_path(planted)}"]\n'
                        'divide = "perft {depth}"\n')
        with make_oracle(f"file:{toml}") as engine:
            assert engine.calibrate().dialect.total == "{total}" and engine.dialect.totals_only
            fen, moves, depth = PLANTED[planted]
            report = find_mismatch(engine, core, Request.of(fen, moves), depth)
        assert report.totals_only and (report.path, report.fen) == (expected[planted].path, expected[planted].fen)


def test_an_engine_file_may_give_its_dialect_and_refuse_chess960(tmp_path, engine_path, core):
    toml = tmp_path / "told.toml"
    toml.write_text(f'command = ["{ENGINES / "interactive.py"}", "{engine_path("correct")}"]\n'
                    'position = "position fen {fen} moves {moves}"\ndivide = "divide {depth}"\n'
                    'chess960 = false\n\n[dialect]\nrows = ["{move}: {count}"]\ntotal = "Total: {total}"\n')
    with make_oracle(f"file:{toml}") as engine:
        assert engine.divide(Request.of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["e2e4"]), 2) == \
            core.divide(Request.of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["e2e4"]), 2)
        assert engine.calls == 1 and engine.calibration is None          # told, not learned
        assert engine.dialect.rows == ("{move}: {count}",) and engine.dialect.chess960 is False
        with pytest.raises(CalibrationError, match="does not take Chess960 positions"):
            engine.divide(Request.of("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1"), 1)
    toml.write_text(toml.read_text().replace('total = "Total: {total}"', 'total = "Total: {total} in {secs}"'))
    with pytest.raises(EngineError, match=r"\[dialect\]: 'Total: \{total\} in \{secs\}' has a field perftscope "
                                          r"does not know"):
        make_oracle(f"file:{toml}")


# --- answers on stderr ------------------------------------------------------------------------

def test_an_answer_on_stderr_is_learned_saved_and_read(engine_path, core):
    spec = in_format("stderr", "correct", engine_path)
    with make_oracle(spec) as engine:
        calibration = engine.calibrate()
    assert calibration.dialect.stream == "stderr" and calibration.dialect.total == "Nodes searched: {total}"
    assert all(p.parsed is not None and p.parsed.nodes == p.total for p in calibration.standard)
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    with make_oracle(spec) as again:            # the saved dialect: read at once, from stderr
        assert again.divide(Request.of(kiwipete), 2) == core.divide(Request.of(kiwipete), 2)
        assert again.calibration is None and again.dialect.stream == "stderr"


def test_an_interactive_engine_answering_on_stderr_is_read(tmp_path, engine_path, core, expected):
    toml = tmp_path / "on-stderr.toml"
    toml.write_text(f'command = ["{ENGINES / "interactive.py"}", "{engine_path("ep_rank_pin")}", "--stderr"]\n'
                    'position = "position fen {fen} moves {moves}"\ndivide = "divide {depth}"\n')
    with make_oracle(f"file:{toml}", timeout=20) as engine:
        assert engine.calibrate().dialect.stream == "stderr"
        fen, moves, depth = PLANTED["ep_rank_pin"]
        report = find_mismatch(engine, core, Request.of(fen, moves), depth)
    want = expected["ep_rank_pin"]
    assert (report.path, report.fen, report.extra) == (want.path, want.fen, want.extra)


def test_an_engine_that_died_before_its_command_was_sent_is_read_first():
    # HoiChess answers a command it does not know (`perft`, `uci`) and exits at once: when it was
    # gone before perftscope wrote the next line, the error was its exit ("exited with code 1
    # ... (nothing on stderr)"), not the line it printed
    from dataclasses import replace
    from perftscope.core.engines.dialogue import UCI, run
    from perftscope.core.engines.pipes import EngineLog
    from perftscope.core.engines.process import EngineProcess
    from perftscope.core.engines.uci import UciProtocol
    engine = EngineProcess("hoi", ["sh", "-c", "echo 'Illegal move: uci'; echo 'Error (unknown command): uci'; exit 1"])
    deadline = time.monotonic() + 10
    while engine.alive and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not engine.alive
    protocol = UciProtocol("hoi", replace(UCI, command=("hoichess",)), EngineLog(), None, {})
    with pytest.raises(CalibrationError) as err:
        run(engine, protocol.handshake())
    assert str(err.value) == ("hoi does not speak UCI (it answered 'Illegal move: uci' to `uci`): "
                              "for an xboard engine use xboard:hoichess")
    assert not engine.alive
