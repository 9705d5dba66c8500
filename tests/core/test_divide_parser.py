"""The tolerant divide parser on outputs written the way real engines write them."""
import pytest

from perftscope.core.engines.divide_parser import parse_divide
from perftscope.core.errors import EngineError
from perftscope.core.board.position import START_FEN

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTES = "8/2P5/8/8/8/8/k7/7K w - - 0 1"
START_4 = {"a2a3": 380, "e2e4": 600, "g1f3": 440, "b1c3": 440}


@pytest.mark.parametrize("name, text", [
    ("stockfish", "a2a3: 380\ne2e4: 600\ng1f3: 440\nb1c3: 440\n\nNodes searched: 1860\n"),
    ("spaces, no total", "a2a3 380\ne2e4 600\ng1f3 440\nb1c3 440\n"),
    ("footer, no blank line", "a2a3: 380\ne2e4: 600\ng1f3: 440\nb1c3: 440\nTotal: 1860 | Time spent: 1.2 s\n"),
    ("numbered", "Divide depth 3\n1. a2a3 380\n2. e2e4 600\n3. g1f3 440\n4. b1c3 440\nPerft 3: 1860\n"),
    ("san", "a3: 380\ne4: 600\nNf3: 440\nNc3: 440\nNodes: 1860\n"),
    ("dash and trailing words", "a2a3 - 380 nodes\ne2-e4 - 600 nodes\ng1f3 - 440\nb1c3 - 440\nTotal nodes: 1860\n"),
    ("equals", "a2a3=380\ne2e4 = 600 (1 ms)\ng1f3 = 440\nb1c3 = 440\nNodes searched = 1860\n"),
    ("perftree", "a2a3 380\ne2e4 600\ng1f3 440\nb1c3 440\n\n1860\ntook 3 ms\n"),
    ("json", '{"a2a3": 380, "e2e4": 600, "g1f3": 440, "b1c3": 440, "total": 1860}'),
    ("json with a moves table", '{"moves": {"a2a3": 380, "E2E4": 600, "g1f3": 440, "b1c3": 440}, "nodes": 1860}'),
])
def test_every_format_reads_the_same_divide(name, text):
    parsed = parse_divide(text.splitlines(), START_FEN)
    assert parsed.moves == START_4 and parsed.nodes == 1860
    if "total" in name:
        assert parsed.total is None and parsed.notes == ["no total line: the sum of the moves is used"]
    else:
        assert parsed.total == 1860


def test_ignored_lines_are_listed_not_fatal():
    parsed = parse_divide(["info string hello", "e7e5: 1", "the moon is made of cheese", "Nodes searched: 1"],
                          AFTER_E4)
    assert parsed.moves == {"e7e5": 1}
    assert parsed.ignored == ["info string hello", "the moon is made of cheese"]


def test_king_takes_rook_castling_is_read_as_the_kings_move():
    parsed = parse_divide(["e1h1: 1", "e1a1: 1", "a1b1: 1", "Nodes searched: 3"], CASTLES)
    assert list(parsed.moves) == ["e1g1", "e1c1", "a1b1"]
    assert any("king-takes-rook" in n for n in parsed.notes)
    # with the king not on the rook's rank it is an ordinary (illegal) move, kept as written
    assert list(parse_divide(["h1h8: 1"], CASTLES).moves) == ["h1h8"]


def test_san_castling_and_promotion():
    assert list(parse_divide(["O-O: 1", "0-0-0: 1", "Kf1 1"], CASTLES).moves) == ["e1g1", "e1c1", "e1f1"]
    assert list(parse_divide(["c8=N+ 1", "c8Q 1"], PROMOTES).moves) == ["c7c8n", "c7c8q"]


def test_san_of_an_illegal_move_is_resolved_pseudo_legally():
    pinned = "k2r4/8/8/8/8/8/3N4/3K4 w - - 0 1"        # the knight on d2 is pinned
    assert list(parse_divide(["Nf3: 1", "Kc1: 1"], pinned).moves) == ["d2f3", "d1c1"]


@pytest.mark.parametrize("lines, times", [
    (["c7c8: 1"] * 4 + ["h1g1: 1"], 4),
    (["c7c8: 1", "h1g1: 1"], 1),
])
def test_promotion_without_a_piece_letter_is_ambiguous(lines, times):
    with pytest.raises(EngineError, match=f"ambiguous promotion c7c8 .*listed {times} time"):
        parse_divide(lines, PROMOTES, "my-perft", "divide 1")


@pytest.mark.parametrize("lines, complaint", [
    (["e2e4: 20", "E2E4: 20"], "e2e4 listed twice"),
    (["e2e4: 20", "Nodes searched: 21"], "add up to 20 but the engine reports 21"),
    (["hello", "world"], "nothing understood in the answer to divide 2: 2 lines, the first 'hello'"),
    (["Qh5: 1"], "cannot read the SAN move 'Qh5'"),
    (['{"e2e4": "lots"}'], "'e2e4' maps to 'lots', not a count"),
])
def test_broken_answers_name_what_is_wrong(lines, complaint):
    with pytest.raises(EngineError, match="^my-perft: ") as err:
        parse_divide(lines, START_FEN, "my-perft", "divide 2")
    assert complaint in str(err.value)


def test_totals_only_and_empty_answers():
    parsed = parse_divide(["searching...", "Nodes searched: 8902"], START_FEN)
    assert parsed.moves is None and parsed.total == 8902 and parsed.nodes == 8902
    assert parse_divide([], "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1").moves == {}
