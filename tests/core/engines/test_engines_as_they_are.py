"""Engines as they are: every planted engine of tests/engines read through a `cmd:` template in
each real engine's output format, as an interactive program through an engine file, and as a
program that prints only totals. The finder's report is the same every time."""
from pathlib import Path

import pytest

from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.oracle import Request
from perftscope.core.errors import EngineError

ENGINES = Path(__file__).parents[2] / "engines"
PLANTED = {   # engine: (FEN, moves, depth)
    "ep_rank_pin": ("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1", [], 2),
    "pinned_leaves_line": ("k2r4/8/8/8/8/8/4N3/4K3 b - - 0 1", [], 3),
    "castle_through_attack": ("4k3/8/8/8/2b5/8/8/4K2R b K - 0 1", [], 3),
    "no_underpromotion": ("8/2P5/8/8/8/8/k7/7K w - - 0 1", ["h1g1", "a2b2"], 3),
}
# each format reads one planted engine (all of them in turn): the castling bug goes through
# king-takes-rook output, so the extra castle arrives written e1h1
FORMATS = {"stockfish": "ep_rank_pin", "spaces": "pinned_leaves_line", "footer": "no_underpromotion",
           "numbered": "ep_rank_pin", "san": "pinned_leaves_line", "dash": "no_underpromotion",
           "equals": "castle_through_attack", "json": "ep_rank_pin", "king_rook": "castle_through_attack"}


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


@pytest.fixture(scope="module")
def expected(core):
    """Each planted engine's report through the perftree protocol: what every other way must give."""
    reports = {name: _find(f"perftree:{ENGINES / name}.py", name, core) for name in PLANTED}
    assert not any(r.crash for r in reports.values())
    return reports


def _find(spec, planted, core):
    fen, moves, depth = PLANTED[planted]
    with make_oracle(spec, timeout=60) as engine:
        return find_mismatch(engine, core, Request.of(fen, moves), depth).raise_unless_finding()


def _summary(report):
    return {"path": report.path, "fen": report.fen, "missing": report.missing, "extra": report.extra,
            "explanations": report.explanations, "agree": report.agree,
            "levels": [lv.to_json() for lv in report.levels]}


def test_the_planted_bugs_are_found_through_perftree(expected):
    assert expected["ep_rank_pin"].extra == ["e4d3"]
    assert expected["castle_through_attack"].extra == ["e1g1"]
    assert expected["no_underpromotion"].missing == ["c7c8n"]
    assert len(expected["pinned_leaves_line"].extra) == 6


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_output_format_gives_the_same_report(fmt, expected, core, engine_path):
    planted = FORMATS[fmt]
    spec = f"cmd:{ENGINES / 'formats.py'} {fmt} {engine_path(planted)} {{depth}} {{fen}} {{moves}}"
    report = _find(spec, planted, core)
    assert _summary(report) == _summary(expected[planted])
    assert report.engine == "formats.py"


@pytest.mark.parametrize("planted", ["ep_rank_pin", "castle_through_attack"])
def test_an_interactive_program_through_an_engine_file(planted, expected, core, engine_path, tmp_path):
    toml = tmp_path / "my-engine.toml"
    toml.write_text(f'''name = "interactive {planted}"
command = ["./interactive.py", "{engine_path(planted)}"]
cwd = "{ENGINES}"
position = "position fen {{fen}} moves {{moves}}"
divide = "divide {{depth}}"
sentinel = "echo done"
timeout = 30
''')
    with make_oracle(f"file:{toml}") as engine:
        assert engine.name == f"interactive {planted}" and engine.timeout == 30
        fen, moves, depth = PLANTED[planted]
        report = find_mismatch(engine, core, Request.of(fen, moves), depth)
        pid = engine.pid
        assert engine.divide(Request.of(fen, moves), 1) == core.divide(Request.of(fen, moves), 1) or planted == "castle_through_attack"
        assert engine.pid == pid            # one process across every call
    assert _summary(report) == _summary(expected[planted])


@pytest.mark.parametrize("planted", list(PLANTED))
def test_a_totals_only_program_is_bisected_to_the_same_position(planted, expected, core, engine_path):
    # the planted engine's own output cut down to its last line, the total (a shell pipe: one
    # program start per call, as there are many calls)
    spec = (f"""cmd:sh -c 'echo "Nodes searched: $("$0" "$@" | tail -n 1)"' {engine_path(planted)} """
            "{depth} {fen} {moves}")
    report = _find(spec, planted, core)
    want = expected[planted]
    assert report.totals_only and not report.agree
    assert (report.path, report.fen) == (want.path, want.fen)
    assert report.missing == report.extra == []        # totals cannot say which moves
    assert "prints only totals, so which moves cannot be told" in report.note
    if planted == "no_underpromotion":    # one missing move: its subtree is exactly the difference
        assert report.note.endswith("(the difference is exactly the count below c7c8n)")


def test_a_totals_only_divide_that_does_not_add_up_fails_with_the_finders_note(core, engine_path):
    # the same engine asked for a divide where the finder stopped: the oracle refuses to present
    # rows that would agree, with the one sentence the report gives (core/engines/totals.py)
    planted = "no_underpromotion"
    spec = (f"""cmd:sh -c 'echo "Nodes searched: $("$0" "$@" | tail -n 1)"' {engine_path(planted)} """
            "{depth} {fen} {moves}")
    report = _find(spec, planted, core)
    fen = PLANTED[planted][0]        # the report's path starts at this FEN, its moves included
    with make_oracle(spec, timeout=60) as engine:
        with pytest.raises(EngineError) as refused:
            engine.divide(Request.of(fen, report.path), report.levels[-1].depth)
    assert str(refused.value) == report.note
    assert "or its count below a move depends on how that position was reached" in report.note


def test_a_promotion_without_its_piece_letter_is_reported_as_ambiguous(core, engine_path):
    spec = f"cmd:{ENGINES / 'formats.py'} bare_promo {engine_path('no_underpromotion')} {{depth}} {{fen}} {{moves}}"
    report = _find(spec, "no_underpromotion", core)
    assert report.crash and report.failure.kind == "unreadable"
    assert "ambiguous promotion c7c8 (no piece letter) listed 3 times" in report.error
