"""`perftscope engine check`, and `compare` with a crashing engine, a lenient FEN and --verbose."""
import json
from pathlib import Path

import pytest

from perftscope.core.engines import calibration
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.oracle import Request

from .cli_run import run


ENGINES = Path(__file__).parent.parent / "engines"
EP_PIN = "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TYPE_ERROR = "TypeError: Cannot read properties of undefined (reading 'piece')"


def in_format(fmt, planted):
    return f"cmd:{ENGINES / 'formats.py'} {fmt} {ENGINES / planted}.py {{depth}} {{fen}} {{moves}}"


def test_engine_check_of_a_good_engine(capsys, engine_path):
    code, out, err = run(capsys, "engine", "check", in_format("numbered", "correct"), "-v")
    assert code == 0 and err == ""
    assert out.startswith("engine     formats.py (cmd:")
    assert "  start position, depth 2                         20 moves, 400 nodes     agrees\n" in out
    assert "  Kiwipete, depth 2                               48 moves, 2039 nodes    agrees\n" in out
    assert ("      ignored 'perft of r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 "
            "to depth 2'") in out
    assert out.count("    agrees\n") == 7          # the Chess960 one is not taken: it reads standard FENs
    assert "  Chess960, depth 2                               does not take Chess960 positions: " in out
    learned = out.split("\nlearned (saved to ")[1]
    assert "  rows      `{n}. {move} {count}`   e.g. " in learned
    assert "  notation  uci; castling written the king's two-square move (e1g1)" in learned
    assert "  total     `Perft {depth}: {total}`   e.g. 'Perft 2: 400'" in learned
    assert "  Chess960  does not take Chess960 positions" in learned
    assert out.rstrip().endswith("verdict    understood, and it agrees with the core")
    # saved: the next session reads it at once, with no calibration
    from perftscope.core.engines.oracles import make_oracle
    with make_oracle(in_format("numbered", "correct")) as again:
        assert again.divide(Request.of(KIWIPETE), 1)["e1g1"] == 1 and again.calls == 1 and again.calibration is None


def test_engine_check_of_a_buggy_engine_writing_castling_king_takes_rook(capsys, engine_path):
    code, out, _ = run(capsys, "engine", "check", in_format("king_rook", "castle_through_attack"))
    assert code == 1
    kiwipete = out.split("  Kiwipete, depth 2")[1].split("\n  ")[0]
    assert kiwipete.split() == ["48", "moves,", "2043", "nodes", "differs"]
    assert "      counts: e5c6 42 (core 41), e5g6 43 (core 42), e5d7 46 (core 45), e5f7 45 (core 44)\n" in out
    assert "  notation  uci; castling written king takes rook (e1h1)" in out
    assert "verdict    understood, but it disagrees with the core" in out


def test_engine_check_of_an_engine_not_understood(capsys, tmp_path):
    script = tmp_path / "chatty.sh"
    script.write_text('#!/bin/sh\necho "hello, I am a chess engine"\necho "bye"\n')
    script.chmod(0o755)
    code, out, _ = run(capsys, "engine", "check", f"cmd:{script} {{depth}} {{fen}}")
    assert code == 2
    assert "not understood: cannot learn how chatty.sh prints its divide: no line of its answers carries " in out
    assert "(its first line for the start position: 'hello, I am a chess engine')" in out
    assert "verdict    not understood" in out
    # a perftree script speaks perftree's protocol: each answer is not read
    code, out, _ = run(capsys, "engine", "check", f"perftree:{script}")
    assert code == 2
    assert ("not read: chatty.sh: no rows (rows look like `{move} {count}{rest}` or `{move}: {count}{rest}`) "
            "in its answer to the start position; it printed 2 other lines, the first 'hello, I am a chess engine'") in out
    assert "      | hello, I am a chess engine" in out


def test_an_engine_crashing_on_every_fen_is_a_finding_not_an_engine_not_understood(capsys, engine_path):
    # its FEN reader raises on every FEN (as chess-game 0.2.4's does): perftscope understood it
    engine = f"perftree:{engine_path('fen_reader_crash')}"
    said = "ValueError: invalid literal for int() with base 10: '-'"
    code, out, _ = run(capsys, "engine", "check", engine)
    assert code == 1, out
    assert "\ncrashes on the start position: fen_reader_crash.py exited with code 1 while answering " in out
    assert f"\n      | {said}\n" in out
    assert "not understood" not in out
    assert out.rstrip().endswith("verdict    understood, but it crashes on the start position: a finding about "
                                 "the engine, see above")
    # compare says the same of it
    code, out, _ = run(capsys, "compare", "-d", "2", "--reference", "core", "--engine", engine)
    assert code == 1 and f"crash      fen_reader_crash.py crashed at the root (FEN {START}): {said}\n" in out, out
    # and as a command template, which it crashes on while its dialect is learned, before the position asked
    template = f"cmd:{engine_path('fen_reader_crash')} {{depth}} {{fen}} {{moves}}"
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--reference", "core", "--engine", template)
    assert code == 1 and (f"crash      fen_reader_crash.py crashed on the start position ({START}), the first one "
                          f"asked to learn how it prints a divide, before the position asked: {said}\n") in out, out
    # fuzz: one finding, said of the start position, not one per position tried nor shrunk elsewhere
    code, out, _ = run(capsys, "fuzz", "--engine", template, "--positions", "3")
    assert code == 1 and "3 findings (1 distinct)" in out and "minimal" not in out, out
    assert (f"crash: the engine crashed on the start position ({START}), the first one asked to learn how "
            f"it prints a divide: {said}\n") in out


def test_compare_reports_a_crash_as_a_finding(capsys, engine_path):
    code, out, err = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--reference", "core",
                         "--engine", f"perftree:{engine_path('node_crash')}")
    assert code == 1 and err == ""
    assert "depth 2  " + EP_PIN in out and "<- followed" in out      # the level found first is kept
    assert (f"crash      node_crash.py crashed at path d2d4 (FEN 8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1): "
            f"{TYPE_ERROR}\n") in out
    assert "command    " in out and "node_crash.py 1 " in out and "Node.js" not in out
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--reference", "core", "--json",
                       "--engine", f"perftree:{engine_path('node_crash')}")
    report = json.loads(out)
    assert code == 1 and report["crash"] is True and report["agree"] is False
    assert report["path"] == ["d2d4"] and report["error"].endswith(TYPE_ERROR)
    assert len(report["levels"]) == 1 and report["levels"][0]["chosen"] == "d2d4"


def test_compare_on_a_fen_with_a_castling_right_and_no_rook(capsys, engine_path):
    # python-chess drops the 'k' (no black king on e8) and the 'Q' (no rook on a1)
    fen = "8/2P5/8/8/8/8/k7/4K2R w KQk - 0 1"
    code, out, err = run(capsys, "compare", "-d", "2", "-f", fen, "--reference", "stockfish",
                         "--engine", f"perftree:{engine_path('no_underpromotion')}")
    assert code == 1 and err == ""
    assert ("warning    the FEN's castling right 'Q' dropped: no white rook on a1 (for the truth, as "
            "python-chess drops it; no_underpromotion.py is given the FEN as written)\n") in out
    assert "warning    the FEN's castling right 'k' dropped: the black king is not on e8" in out
    assert "fen        8/2P5/8/8/8/8/k7/4K2R w K - 0 1\n" in out
    assert out.split("not generated: legal but missing from")[1].splitlines()[1].split()[0] == "c7c8n"


# a standard FEN (king on e1) whose 'Q' has no rook on a1; read as X-FEN it would name c1's rook
RIGHT_WITHOUT_ROOK = "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1"


@pytest.mark.parametrize("reference", ["core", "python-chess", "stockfish"])
def test_a_standard_fen_is_read_as_standard_chess(capsys, engine_path, reference):
    # the engine trusts the FEN's 'Q' and castles with no rook on a1 once the c1 rook has moved:
    # that is its bug, not a Chess960 castle it fails to generate
    code, out, err = run(capsys, "compare", "-d", "3", "-f", RIGHT_WITHOUT_ROOK, "--reference", reference,
                         "--engine", f"perftree:{engine_path('castle_without_rook')}")
    assert code == 1 and err == "" and "Chess960" not in out
    assert "warning    the FEN's castling right 'Q' dropped: no white rook on a1" in out
    illegal = out.split("illegal: generated by castle_without_rook.py but not legal:\n")[1].splitlines()
    assert illegal[0].split() == ["e1c1", "white", "has", "no", "queen-side", "castling", "right",
                                  "(and", "no", "rook", "on", "a1)"]
    assert "not generated" not in out


@pytest.mark.parametrize("fen, complaint", [
    ("8/2P5/8/8/8/8/k7/4K2R w KQk - 0 1 extra", "FEN needs 4 to 6 fields"),
    ("8/8/8/8/8/8/k7/7R w K - 0 1", "white has 0 kings"),
    ("P7/8/8/8/8/8/k7/4K3 w - - 0 1", "pawn on a8"),
])
def test_what_no_tool_accepts_is_still_refused(capsys, fen, complaint):
    code, out, err = run(capsys, "compare", "-d", "1", "-f", fen, "--engine", "core", "--reference", "core")
    assert code == 2 and complaint in err and out == ""


def test_compare_verbose_shows_ignored_lines_and_notes(capsys, engine_path):
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--reference", "core", "-v",
                       "--engine", in_format("spaces", "correct"))
    assert code == 0
    assert "note       formats.py: no total line: the sum of the moves is used\n" in out
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--reference", "core", "--verbose",
                       "--engine", in_format("numbered", "correct"))
    assert f"ignored    formats.py: 'perft of {EP_PIN} to depth 2'\n" in out


# --- Chess960 never decides a standard-chess engine's verdict --------------------------------

def _chess960_line(out: str) -> str:
    return out.split("  Chess960, depth 2")[1].split("\n")[0].strip()


@pytest.mark.parametrize("spec", ["perftree:{engines}/correct.py", "cmd:{engines}/correct.py {{depth}} {{fen}} {{moves}}"],
                         ids=["perftree", "cmd"])
def test_a_correct_standard_chess_engine_is_understood_and_agrees_whatever_its_kind(capsys, engine_path, spec):
    code, out, _ = run(capsys, "engine", "check", spec.format(engines=ENGINES))
    assert code == 0, out
    assert out.count("    agrees\n") == 7
    assert _chess960_line(out).startswith("does not take Chess960 positions: its answer is not this "
                                          "position's divide (0 of 23 moves with the core's count)")
    assert "  Chess960  does not take Chess960 positions" in out
    assert out.rstrip().endswith("verdict    understood, and it agrees with the core")


def _trouble(tmp_path, mode) -> str:
    """A perftree script: c960_trouble.py in `mode`."""
    script = tmp_path / f"{mode}.sh"
    script.write_text(f'#!/bin/sh\nexec {ENGINES}/c960_trouble.py {mode} "$@"\n')
    script.chmod(0o755)
    return f"perftree:{script}"


def test_a_malformed_chess960_answer_says_so_and_the_engine_is_understood(capsys, engine_path, tmp_path):
    code, out, _ = run(capsys, "engine", "check", _trouble(tmp_path, "malformed"))
    assert code == 0, out
    assert out.count("    agrees\n") == 7
    line = _chess960_line(out)
    assert line.startswith("does not take Chess960 positions: its answer cannot be read as this position's "
                           "divide: malformed.sh: move c1b2 listed twice"), line
    assert out.rstrip().endswith("verdict    understood, and it agrees with the core")


def test_an_engine_hanging_on_a_chess960_fen_costs_seconds_not_the_timeout(capsys, engine_path, tmp_path, monkeypatch):
    # the Chess960 probe's own bound, 1 s here (at least 5 s in use): two calibrations wait it out
    monkeypatch.setattr(calibration, "CHESS960_SECONDS", (1.0, 1.0))
    spec = _trouble(tmp_path, "hang")
    code, out, _ = run(capsys, "engine", "check", spec, "--timeout", "120")
    assert code == 0, out
    assert out.count("    agrees\n") == 7
    line = _chess960_line(out)
    assert line.startswith("does not take Chess960 positions: hang.sh: no answer within 1 s to "), line
    assert "its stderr ends with 'ValueError: no rook on h1 for the castling right K'" in line
    assert out.rstrip().endswith("verdict    understood, and it agrees with the core")
    # the Chess960 position is the last one asked: from it to the end of the check
    with make_oracle(spec, timeout=120) as engine:
        probe = engine.calibrate().chess960_probe
    assert probe.error and probe.seconds < 10


def test_a_spec_option_says_an_engine_does_not_take_chess960(capsys, engine_path):
    spec = f"perftree[chess960=false]:{ENGINES}/correct.py"
    code, out, _ = run(capsys, "engine", "check", spec)
    assert code == 0 and _chess960_line(out) == "not asked: said not to take Chess960 (chess960 = false)"
    code, _, err = run(capsys, "compare", "--960", "-d", "1", "-f", "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
                       "--engine", spec, "--reference", "core")
    assert code == 2 and "correct.py does not take Chess960 positions (its calibration, its engine file or its " \
                         "spec says so)" in err
    code, _, err = run(capsys, "engine", "check", f"perftree[chess960=no]:{ENGINES}/correct.py")
    assert code == 2 and "unknown option 'chess960=no' (expected chess960=false)" in err


def test_compare_on_an_engine_that_never_answers_is_a_hang_finding(capsys, engine_path):
    code, out, err = run(capsys, "compare", "-d", "2", "-f", EP_PIN, "--engine", f"uci:{engine_path('uci_hang')}",
                         "--reference", "core", "--timeout", "3")
    assert code == 1, (out, err)
    assert "timeout    uci_hang.py hung on the start position (rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w " \
           "KQkq - 0 1), the first one asked to learn how it prints a divide, before the position asked: " \
           "no answer within 3 s to " in out


PINS = "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"


def test_a_move_listed_with_0_is_called_rejected_only_once_depth_1_says_so(capsys, engine_path):
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", PINS, "--engine", in_format("pseudo", "correct"),
                       "--reference", "core", "--json")
    report = json.loads(out)
    assert code == 0 and report["agree"]
    assert report["notes"] == ["2 moves listed with 0 that are not legal (pseudo-legal moves it rejects, and at "
                               "depth 1 it does not count them either): h4h3 f4e3"]


def test_a_move_listed_with_0_that_it_counts_at_depth_1_is_an_illegal_move(capsys, engine_path):
    spec = f"perftree:{engine_path('zero_then_one')}"
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", PINS, "--engine", spec, "--reference", "core")
    assert code == 1 and "pseudo-legal moves it rejects)" not in out
    assert "note       zero_then_one.py: at depth 2 it listed h4h3 f4e3 with 0, as it would a pseudo-legal move " \
           "it rejects, but at depth 1 it counts them: it generates these illegal moves\n" in out
    assert "  f4e3  en passant f4e3 exposes king h4 to rook b4 along rank 4\n" in out
    code, out, _ = run(capsys, "compare", "-d", "2", "-f", PINS, "--engine", spec, "--reference", "core", "--json")
    report = json.loads(out)
    assert code == 1 and report["extra"] == ["h4h3", "f4e3"] and "it generates these illegal moves" in report["notes"][0]


def test_binary_output_from_a_program_that_did_not_die_is_unreadable_not_a_crash(capsys, tmp_path):
    script = tmp_path / "noise.sh"
    script.write_text("#!/bin/sh\nprintf 'a2a3: 1\\n\\377\\376\\000\\001\\002\\003\\004\\005\\006\\007\\n'\n"
                      "head -c 2000 /dev/zero\n")
    script.chmod(0o755)
    code, out, _ = run(capsys, "compare", "-d", "1", "-f", EP_PIN, "--engine", f"perftree:{script}", "--reference", "core")
    assert code == 1 and "crash" not in out
    line = next(x for x in out.splitlines() if x.startswith("unreadable "))
    assert line.startswith("unreadable noise.sh answered what cannot be read at the root (FEN "), line
    assert "noise.sh printed binary data, not text, while answering noise.sh 1 " in line
    assert "starting 'a2a3: 1'" in line


def test_compare_with_a_totals_only_engine_that_agrees_says_the_count(capsys, engine_path):
    code, out, _ = run(capsys, "compare", "-d", "3", "--engine", in_format("raw_nodes", "correct"), "--reference", "core")
    assert code == 0 and "agree      8902 nodes at depth 3\n" in out, out


def test_engine_check_asks_depth_1_before_calling_a_zero_a_rejected_move(capsys, engine_path):
    code, out, _ = run(capsys, "engine", "check", in_format("pseudo", "correct"))
    assert code == 0 and "      note: 2 moves listed with 0 that are not legal (pseudo-legal moves it rejects, and " \
                         "at depth 1 it does not count them either): h4h3 f4e3\n" in out
    code, out, _ = run(capsys, "engine", "check", f"perftree:{engine_path('zero_then_one')}")
    assert code == 1 and "pseudo-legal moves it rejects" not in out
    assert "differs\n      at depth 1 it counts h4h3 f4e3, listed with 0 here: it generates these illegal moves\n" in out


def test_a_uci_engine_silent_on_a_chess960_fen_is_a_hang_there_not_an_engine_without_go_perft(capsys, engine_path):
    spec = f"uci:{engine_path('uci_c960_hang')}"
    code, out, _ = run(capsys, "engine", "check", spec, "--timeout", "120")
    assert code == 0 and out.count("    agrees\n") == 7, out
    line = _chess960_line(out)
    assert line.startswith("does not take Chess960 positions: uci_c960_hang.py: no answer within 5 s to "), line
    with make_oracle(spec, timeout=120) as engine:
        probe = engine.calibrate().chess960_probe
    assert probe.error and probe.seconds < 10
