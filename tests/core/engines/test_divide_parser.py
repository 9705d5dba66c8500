"""Reading an answer in a learned dialect: every row read or an error quoting its line, counts
read whole whatever their digit grouping, pseudo-legal rows of 0 dropped, blocks per depth."""
import pytest

from perftscope.core.engines.dialect import Dialect
from perftscope.core.engines.divide_parser import read_divide
from perftscope.core.engines.numbers import read_whole
from perftscope.core.errors import EngineError, EngineRefused, EngineUnreadable
from perftscope.core.board.position import START_FEN

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTES = "8/2P5/8/8/8/8/k7/7K w - - 0 1"
PINNED = "k2r4/8/8/8/8/8/3N4/3K4 w - - 0 1"       # the knight on d2 is pinned
START_4 = {"a2a3": 380, "e2e4": 600, "g1f3": 440, "b1c3": 440}
STOCKFISH = Dialect(rows=("{move}: {count}",), total="Nodes searched: {total}")
LAN = Dialect(rows=("{move} {count}{rest}",), total="{depth} {total}{rest}", notation="long algebraic",
              zero_rows=True, per_depth=True)


@pytest.mark.parametrize("dialect, text", [
    (STOCKFISH, "a2a3: 380\ne2e4: 600\ng1f3: 440\nb1c3: 440\n\nNodes searched: 1860\n"),
    (Dialect(rows=("{move} {count}",)), "a2a3 380\ne2e4 600\ng1f3 440\nb1c3 440\n"),
    (Dialect(rows=("{n}. {move} {count}",), total="Perft {depth}: {total}"),
     "Divide depth 3\n1. a2a3 380\n2. e2e4 600\n3. g1f3 440\n4. b1c3 440\nPerft 3: 1860\n"),
    (Dialect(rows=("{move} {count}",), total="Nodes: {total}", notation="san"), "a3 380\ne4 600\nNf3 440\nNc3 440\nNodes: 1860\n"),
    (Dialect(rows=("{move} {count}{rest}",), total="perft({depth}) = {total}{rest}", notation="long algebraic"),
     "a2-a3 380 (1 ms)\ne2-e4 600\nNg1-f3 440\nNb1-c3 440\nperft(3) = 1860 (1.23 s)\n"),
    (Dialect(rows=("{move}: {count}",), total="Total: {total}{rest}", separator=","),
     "a2a3: 380\ne2e4: 600\ng1f3: 440\nb1c3: 440\nTotal: 1,860 | Time spent: 0.000137 seconds\n"),
    (Dialect(rows=("{move} {count}",), total="{total}"), "a2a3 380\ne2e4 600\ng1f3 440\nb1c3 440\n\n1860\ntook 3 ms\n"),
    (Dialect(json=True), '{"a2a3": 380, "e2e4": 600, "g1f3": 440, "b1c3": 440, "total": 1860}'),
    (Dialect(json=True), '{"moves": {"a2a3": 380, "E2E4": 600, "g1f3": 440, "b1c3": 440}, "nodes": 1860}'),
])
def test_each_dialect_reads_the_same_divide(dialect, text):
    parsed = read_divide(text.splitlines(), START_FEN, dialect, depth=3)
    assert parsed.moves == START_4 and parsed.nodes == 1860


@pytest.mark.parametrize("text, separator, value", [
    ("8902", "", 8902), ("8,902", ",", 8902), ("8 902", " ", 8902), ("8_902", "_", 8902),
    ("8'902", "'", 8902), ("8.902.000", ".", 8902000), ("8.902", ".", 8902), ("119,060,324", ",", 119060324),
])
def test_numbers_are_read_whole_with_their_separator(text, separator, value):
    assert read_whole(text, separator) == value


@pytest.mark.parametrize("text, separator", [
    ("8,902", ""), ("8,90", ","), ("8.902", ","), ("8,9020", ","), ("1.5", "."), ("8 902", ",")])
def test_a_number_that_cannot_be_read_whole_is_not_read_in_part(text, separator):
    with pytest.raises(ValueError, match="is not a whole count"):
        read_whole(text, separator)


@pytest.mark.parametrize("separator, line", [
    (",", "Total: 8,90 | Time spent: 0.000137 seconds"),     # a group short
    ("", "Total: 8,902 | Time spent: 0.000137 seconds"),     # grouped, but it never grouped before
])
def test_a_total_that_cannot_be_read_whole_is_an_error_quoting_the_line(separator, line):
    dialect = Dialect(rows=("{move}: {count}",), total="Total: {total}{rest}", separator=separator)
    rows = [f"{m}: {c}" for m, c in START_4.items()]
    with pytest.raises(EngineUnreadable, match="cannot be read whole") as err:
        read_divide(rows + [line], START_FEN, dialect, "my-perft", "divide 3")
    assert repr(line) in str(err.value)


def test_a_total_grouped_by_spaces_is_never_cut_to_its_first_digits():
    dialect = Dialect(rows=("{move}: {count}",), total="Total: {total}{rest}")
    with pytest.raises(EngineUnreadable, match="no total line"):
        read_divide(["e2e4: 8902", "Total: 8 902 nodes"], START_FEN, dialect)
    spaced = Dialect(rows=("{move}: {count}",), total="Total: {total}{rest}", separator=" ")
    assert read_divide(["e2e4: 8 902", "Total: 8 902 nodes"], START_FEN, spaced).total == 8902


def test_long_algebraic_with_pieces_pseudo_legal_zeros_and_a_block_per_depth():
    answer = ["  Nd2-b1    0    0", "  Nd2-f3    0    0", "  Kd1-c1    1    1", "  Kd1-e1    1    2",
              "  Kd1-c2    1    3", "  Kd1-e2    1    4", " 1     4  0.00   606.34nps",
              "  Nd2-b1    0    0", "  Nd2-f3    0    0", "  Kd1-c1   15   15", "  Kd1-e1   15   30",
              "  Kd1-c2   15   45", "  Kd1-e2   15   60", " 2    60  0.00  1052631.58nps"]
    parsed = read_divide(answer, PINNED, LAN, depth=2)
    assert parsed.moves == {"d1c1": 15, "d1e1": 15, "d1c2": 15, "d1e2": 15} and parsed.total == 60
    assert parsed.dropped == ["d2b1", "d2f3"]
    # at depth 2 a 0 may be an illegal move with nothing below it: only depth 1 tells (the finder asks)
    assert parsed.notes == ["2 moves listed with 0 that are not legal (nothing below them at depth 2): d2b1 d2f3"]
    with pytest.raises(EngineUnreadable, match="1 blocks of rows in its answer to .*, expected one per depth"):
        read_divide(answer[7:], PINNED, LAN, "sjaak", "perft 2 1", depth=2)


def test_a_legal_move_listed_with_0_is_kept():
    # at depth 1 a legal move counts 1: 0 says the engine rejects it, a finding (not generated)
    parsed = read_divide(["Kd1-c1 0 0", "Kd1-e1 1 1", " 1 1 0.0 1nps"], PINNED,
                         Dialect(rows=("{move} {count}{rest}",), total="{depth} {total}{rest}",
                                 notation="long algebraic"), depth=1)
    assert parsed.moves == {"d1c1": 0, "d1e1": 1}


def test_castling_written_every_way_reads_as_the_position_writes_it():
    dialect = Dialect(rows=("{move}: {count}",))
    assert list(read_divide(["e1h1: 1", "e1a1: 1", "a1b1: 1"], CASTLES, dialect).moves) == ["e1g1", "e1c1", "a1b1"]
    assert list(read_divide(["O-O: 1", "0-0-0: 1", "Ke1-f1: 1"], CASTLES, dialect).moves) == ["e1g1", "e1c1", "e1f1"]
    san = Dialect(rows=("{move} {count}",), notation="san")
    assert list(read_divide(["c8=N+ 1", "c8Q 1"], PROMOTES, san).moves) == ["c7c8n", "c7c8q"]
    lan = Dialect(rows=("{move} {count}",), notation="long algebraic")
    assert list(read_divide(["c7-c8=N 1", "c7-c8Q 1", "Kh1-g1 1"], PROMOTES, lan).moves) == ["c7c8n", "c7c8q", "h1g1"]


def test_san_of_an_illegal_move_is_resolved_pseudo_legally():
    san = Dialect(rows=("{move}: {count}",), notation="san")
    assert list(read_divide(["Nf3: 1", "Kc1: 1"], PINNED, san).moves) == ["d2f3", "d1c1"]


def test_a_promotion_without_its_piece_once_is_kept_as_written_four_times_ambiguous():
    dialect = Dialect(rows=("{move}: {count}",))
    parsed = read_divide(["c7c8: 1", "h1g1: 1"], PROMOTES, dialect)
    assert parsed.moves == {"c7c8": 1, "h1g1": 1} and parsed.bare_promotions == ["c7c8"]
    with pytest.raises(EngineUnreadable, match="ambiguous promotion c7c8 .*listed 4 times"):
        read_divide(["c7c8: 1"] * 4 + ["h1g1: 1"], PROMOTES, dialect, "my-perft", "divide 1")


def test_rows_of_the_other_side_after_moves_are_a_refused_move():
    with pytest.raises(EngineRefused, match="are not moves of the side to move after e2e4: it did not play"):
        read_divide(["a2a3: 1", "b2b3: 1", "Nodes searched: 2"], AFTER_E4, STOCKFISH, "my-perft", "x",
                    moves_sent=["e2e4"])


@pytest.mark.parametrize("lines, complaint", [
    (["e2e4: 20", "E2E4: 20", "Nodes searched: 40"], "e2e4 listed twice"),
    (["e2e4: 20", "Nodes searched: 21"], "add up to 20 but it reports 21"),
    (["e2e4: 20", "d2d4 20", "Nodes searched: 40"], "has a move and a number but is not a row as learned "
                                                    "(rows look like `{move}: {count}`): 'd2d4 20'"),
    (["e2e4: 20"], "no total line in its answer to divide 2 (expected a line like `Nodes searched: {total}`)"),
    (["hello", "world"], "no rows (rows look like `{move}: {count}`) and no total line in its answer to "
                         "divide 2 (expected a line like `Nodes searched: {total}`); it printed 2 other lines, "
                         "the first 'hello'"),
    (["Qh5: 1", "Nodes searched: 1"], "cannot read the move 'Qh5' in rnbqkbnr/"),
])
def test_broken_answers_name_what_is_wrong(lines, complaint):
    with pytest.raises(EngineError, match="^my-perft: ") as err:
        read_divide(lines, START_FEN, STOCKFISH, "my-perft", "divide 2")
    assert complaint in str(err.value)


def test_json_that_is_no_divide_is_an_error():
    with pytest.raises(EngineUnreadable, match="'e2e4' maps to 'lots', not a count"):
        read_divide(['{"e2e4": "lots"}'], START_FEN, Dialect(json=True), "my-perft", "divide 2")


def test_totals_only_and_empty_answers():
    totals = Dialect(total="Raw nodes for depth {depth}: {total}")
    parsed = read_divide(["searching...", "Raw nodes for depth 3: 8902", "Time : 0.00"], START_FEN, totals, depth=3)
    assert parsed.moves is None and parsed.total == 8902 and parsed.nodes == 8902
    with pytest.raises(EngineUnreadable, match="has no total for depth 3"):
        read_divide(["Raw nodes for depth 2: 400"], START_FEN, totals, depth=3)
    assert read_divide([], "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", Dialect(rows=("{move}: {count}",))).moves == {}
    mate = read_divide(["Nodes searched: 0"], "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", STOCKFISH)
    assert mate.moves == {} and mate.total == 0
