"""core.locate.paths: a make-move bug's failing path made by the engine from other starts, so that
it has more than the finder's one failing run."""
from pathlib import Path

import chess

from perftscope.core.engines.oracle import Request
from perftscope.core.locate.job import LocateJob, LocateSettings
from perftscope.core.locate.paths import other_starts, path_siblings

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
# a bishop leaving a8 gives black back the right q it no longer has (chess.js's castling XOR)
BISHOP_LEAVES_A8 = Request.of("b3k2r/8/8/8/8/8/8/4K3 b k - 0 1", ["a8f3", "e1d2"])


def test_siblings_play_one_ply_otherwise_and_keep_the_later_moves():
    siblings = [r.moves for r in path_siblings(BISHOP_LEAVES_A8)]
    assert ("a8f3", "e1f1") in siblings                  # the state after a8f3 made by the engine again
    assert ("a8b7", "e1d2") in siblings and ("h8h2", "e1d2") not in siblings   # the rook on h2 guards d2
    assert BISHOP_LEAVES_A8.moves not in siblings and len(set(siblings)) == len(siblings)
    assert siblings[0][0] == "a8f3"                       # the last ply's first
    assert path_siblings(Request.of("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == []


def test_other_starts_differ_by_one_piece_and_keep_the_moves_legal():
    failing = Request.of("4k3/8/5n2/3pPp2/8/8/8/4K3 w - d6 0 1", ["e5f6"])   # Chessnut's pawn removed behind f6
    starts = other_starts(failing)
    assert starts and len({r.root for r in starts}) == len(starts)
    root = chess.Board(failing.root)
    for request in starts:
        assert request.moves == ("e5f6",) and request.root.split()[1:4] == ["w", "-", "d6"]
        board = chess.Board(request.root)
        differ = [sq for sq in chess.SQUARES if board.piece_at(sq) != root.piece_at(sq)]
        assert len(differ) == 1 and differ[0] not in (chess.E5, chess.F6), request.root
    # taken away: the pawn behind f6 (where the buggy update removes a piece); the pawn d5 holds
    # the en-passant square, the knight is what e5f6 captures: both stay
    assert "4k3/8/5n2/3pP3/8/8/8/4K3 w - d6 0 1" in [r.root for r in starts]


def test_a_make_move_bug_gets_failing_runs_from_other_starts(tmp_path):
    """Capturing the rook on h8 takes away black's right q instead of k: black's long castling
    goes missing only after the engine itself made the capture; the finder's run is one failing
    run, the same capture from other starts gives more, the path played otherwise passes."""
    text = (HERE / "movegen.py").read_text().replace('for promo in "qrb":  ', 'for promo in "qrbn": ')
    text = text.replace('(0x77, "k")', '(0x77, "q")')
    engine = tmp_path / "movegen.py"
    engine.write_text(text)
    engine.chmod(0o755)
    result = LocateJob(LocateSettings(f"perftree:{engine}", fen="r3k2r/8/8/8/8/8/1B6/4K3 w kq - 0 1", depth=2,
                                      runs=8, seconds=120.0, mutants=0)).run()
    paths = [r for r in result.runs if r.origin == "paths"]
    assert sum(r.failed for r in paths) >= 2, [(r.fen, r.moves, r.verdict) for r in paths]
    assert all(r.wrong == ("e8c8",) for r in result.runs if r.failed)
    assert any(not r.failed for r in paths)              # the path played otherwise passes
