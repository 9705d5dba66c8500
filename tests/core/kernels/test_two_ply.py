"""perft 2 without a move list (core.kernels.two_ply) and the child it builds
(core.kernels.board.make_leaf_parent), against python-chess, the move-list path and
the general make, on random positions rich in the moves that do more."""
import random

import chess
import numpy as np
import pytest

from perftscope.core import kernels
from perftscope.core.kernels import tables
from perftscope.core.kernels.board import (CASTLE, CASTLING, DOUBLE_PUSH, EN_PASSANT, FLAG_CASTLE, FLAG_EP,
                                           FLAG_PROMOTION, KING_OR_CASTLE, NO_CASTLING, PROMOTE, STANDARD_CASTLING,
                                           kind_on, make, make_leaf_parent, move_flag, move_from, move_promotion,
                                           move_to)
from perftscope.core.kernels.movegen import FIXED_KING, FIXED_KNIGHTS, FIXED_PAWNS, children_cannot_castle, \
    count_moves, count_moves_at
from perftscope.core.kernels.perft import legal_moves, new_move_stack, perft
from perftscope.core.kernels.two_ply import (boxed_in, fixed_leapers, perft2, perft2_no_castling,
                                             perft2_pawns_and_rooks, perft2_they_cannot_castle)
from perftscope.core.board.position import Position

from ..python_chess_reference import python_chess_perft
from ..random_positions import random_boards

STARTS = (chess.STARTING_FEN,
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
          "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")


def boards_with_en_passant(seed, count):
    """Random boards, and the positions after each of their double pushes (where en
    passant may answer, which random play alone rarely leaves on the board)."""
    boards = random_boards(seed, count, plies=60, starts=STARTS, pawn_bias=0.5)
    return boards + [after for board in boards for after in after_double_pushes(board)]


def after_double_pushes(board):
    """The positions after each double push of board."""
    out = []
    for m in board.legal_moves:
        if board.piece_type_at(m.from_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16:
            after = board.copy(stack=False)
            after.push(m)
            out.append(after)
    return out


def move_list_perft2(T, s):
    """perft 2 the long way: the move list, the general make, the bulk counter."""
    total = 0
    for m in legal_moves(T, s):
        child = tuple(np.uint64(x) for x in make(T, s, m))     # back from Python ints to the kernel's type
        total += int(count_moves(T, child, CASTLING))
    return total


def what_moves(state, m):
    """What make_leaf_parent is told for kernel move m: what perft2's generator knows."""
    flag = move_flag(m)
    if flag == FLAG_PROMOTION:
        return PROMOTE + move_promotion(m)
    if flag == FLAG_EP:
        return EN_PASSANT
    if flag == FLAG_CASTLE:
        return CASTLE
    frm, to = move_from(m), move_to(m)
    kind = kind_on(state[0], state[1], state[2], state[3], np.uint64(1 << frm))
    return DOUBLE_PUSH if kind == 0 and to - frm == 16 else kind


@pytest.mark.parametrize("seed", range(4))
def test_perft2_matches_python_chess_and_the_move_list_path(seed):
    T = kernels.table()
    seen = {"ep": 0, "castling": 0, "promotion": 0, "check": 0, "no rights": 0, "children cannot castle": 0}
    for board in boards_with_en_passant(seed, 60):
        s = Position.from_fen(board.fen()).state()
        expected = python_chess_perft(board, 2)
        assert int(perft2(T, s)) == expected, board.fen()
        assert move_list_perft2(T, s) == expected, board.fen()
        if s[8] == 0:
            # the kernel compiled without castling, which perft picks for these
            assert int(perft2_no_castling(T, s)) == expected, board.fen()
            seen["no rights"] += 1
        elif children_cannot_castle(s):
            # the kernel whose children are counted without castling code
            assert int(perft2_they_cannot_castle(T, s)) == expected, board.fen()
            seen["children cannot castle"] += 1
        # perft2's own rare paths are for the node's moves: count that they came up
        for m in board.legal_moves:
            seen["ep"] += board.is_en_passant(m)
            seen["castling"] += board.is_castling(m)
            seen["promotion"] += m.promotion is not None
        seen["check"] += board.is_check()
    assert min(seen.values()) > 0, seen


def test_perft_2_in_chess960_takes_the_move_list_path_and_matches_python_chess():
    """perft2 knows standard castling only: a position with Chess960 rights must be counted
    through the move list and make, which know where the rook stands."""
    T = kernels.table()
    buf = new_move_stack()
    rng = random.Random(960)
    castlings = 0
    for n in range(120):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randrange(12)):
            board.push(rng.choice(list(board.legal_moves)))
            if board.is_game_over():
                break
        s = Position.from_fen(board.fen(), chess960=True).state()
        assert int(perft(T, s, 2, buf)) == python_chess_perft(board, 2), board.fen()
        castlings += any(board.is_castling(m) for m in board.legal_moves)
    assert castlings > 0


@pytest.mark.parametrize("seed", range(3))
def test_make_leaf_parent_builds_the_child_make_builds_but_for_the_key(seed):
    T = kernels.table()
    kinds = set()
    for board in boards_with_en_passant(seed, 40):
        pos = Position.from_fen(board.fen())
        s = pos.state()
        for move in board.legal_moves:
            m = np.uint16(pos.kernel_move(move.uci()))
            what = what_moves(s, m)
            kinds.add(int(what))
            expected = make(T, s, m)
            child = make_leaf_parent(T, s, move_from(m), move_to(m), what, STANDARD_CASTLING)
            assert child[9] == 0                  # no key: the leaf parents are never hashed
            # the rights: the child's own only (the side to move's), all that counting reads
            assert child[8] == expected[8] & 3, (board.fen(), move.uci())
            assert child[:8] + child[10:] == expected[:8] + expected[10:], (board.fen(), move.uci())
            if s[8] == 0:
                # as compiled into perft2_no_castling
                assert make_leaf_parent(T, s, move_from(m), move_to(m), what, NO_CASTLING) == child, board.fen()
            if what in (5, CASTLE):
                # perft 2 counts castlings with the king's moves: KING_OR_CASTLE builds both
                assert make_leaf_parent(T, s, move_from(m), move_to(m), KING_OR_CASTLE, STANDARD_CASTLING) == child, \
                    (board.fen(), move.uci())
    # every kind of move was built: six piece kinds, double push, castling, en passant, four promotions
    assert kinds == set(range(PROMOTE + 4)), sorted(kinds)


def pawn_and_rook_endings(seed, count):
    """Random legal positions with kings, rooks and pawns only, pawns often one step from
    promoting and kings often on a rook's or pawn's line, and the positions after each of
    their double pushes (en passant, and its rank pin, with rooks on the board)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board(None)
        board.turn = rng.random() < 0.5
        squares = rng.sample(range(64), 12)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:2 + rng.randrange(5)]:
            board.set_piece_at(sq, chess.Piece(chess.ROOK, rng.random() < 0.5))
        for sq in squares[6:6 + rng.randrange(7)]:
            colour = rng.random() < 0.5
            rank = chess.square_rank(sq)
            if 0 < rank < 7:
                board.set_piece_at(sq, chess.Piece(chess.PAWN, colour))
        if not board.is_valid():
            continue
        boards.append(board)
        boards += after_double_pushes(board)
    return boards


@pytest.mark.parametrize("seed", range(3))
def test_the_pawns_and_rooks_kernel_matches_python_chess(seed):
    """perft2_pawns_and_rooks, which perft picks wherever no castling right, knight, bishop
    or queen is left, is compiled without any of their code: its counts, and perft 3 through
    it (where a promotion below makes a child it was not built for), against python-chess."""
    T = kernels.table()
    buf = new_move_stack()
    seen = {"ep": 0, "promotion": 0, "check": 0, "pin": 0}
    for board in pawn_and_rook_endings(seed, 150):
        s = Position.from_fen(board.fen()).state()
        assert s[1] == s[2] == s[8] == 0
        assert int(perft2_pawns_and_rooks(T, s)) == python_chess_perft(board, 2), board.fen()
        assert int(perft(T, s, 3, buf)) == python_chess_perft(board, 3), board.fen()
        for m in board.legal_moves:
            seen["ep"] += board.is_en_passant(m)
            seen["promotion"] += m.promotion is not None
        seen["check"] += board.is_check()
        for m in board.legal_moves:           # pins: those of the children, counted by perft2
            child = board.copy(stack=False)
            child.push(m)
            pieces = chess.SquareSet(child.occupied_co[child.turn] & ~child.kings)
            seen["pin"] += any(child.is_pinned(child.turn, sq) for sq in pieces)
    assert min(seen.values()) > 0, seen


def test_children_cannot_castle_is_never_said_of_a_position_with_a_child_that_castles():
    """The test that picks perft2_they_cannot_castle, against python-chess: over random
    boards with rights, it must be false wherever some child has a legal castling, and
    true of a good share of the rest (the openings' shut paths)."""
    said = castling_children = 0
    for board in random_boards(33, 300, plies=16, starts=STARTS, pawn_bias=0.2):
        if not board.castling_rights:
            continue
        s = Position.from_fen(board.fen()).state()
        children_castle = False
        for m in board.legal_moves:
            board.push(m)
            children_castle |= any(board.is_castling(reply) for reply in board.legal_moves)
            board.pop()
        castling_children += children_castle
        if children_cannot_castle(s):
            said += 1
            assert not children_castle, board.fen()
    assert said > 50 and castling_children > 50, (said, castling_children)


def test_perft_calls_the_bound_kernels_and_a_table_bind_never_saw_still_counts():
    """_perft calls perft 2 through the addresses two_ply.bind wrote into the process's table
    (which stays read-only for every kernel); a table without them counts through the move
    list instead of jumping to address 0."""
    T = kernels.table()
    slots = slice(tables.PERFT2_KERNELS, tables.PERFT2_KERNELS + 4)
    assert not T.flags.writeable and T[slots].all()
    unbound = T.copy()
    unbound[slots] = 0
    unbound.setflags(write=False)
    buf = new_move_stack()
    for fen, nodes in (("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 197281),
                       ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 43238)):
        s = Position.from_fen(fen).state()
        assert int(perft(T, s, 4, buf)) == int(perft(unbound, s, 4, buf)) == nodes


# a pawn pinned along a file (it may push, never capture), along a diagonal (it may take the
# pinner, never push), along a rank (it may not move), and by a checker's line: count_moves
# takes another way for these than for the boards where no pawn is pinned
PINNED_PAWNS = ("k3r3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1",
                "k7/8/8/8/6b1/5P2/8/3K4 w - - 0 1",
                "k7/8/8/8/1K1P3r/8/8/8 w - - 0 1",
                "4k3/8/8/1b6/8/3P4/4K3/r7 w - - 0 1",
                "4k3/4r3/8/3b4/4P3/8/6P1/4K3 w - - 0 1",
                "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1")


@pytest.mark.parametrize("seed", range(2))
def test_pinned_and_free_pawns_count_as_python_chess_says(seed):
    T = kernels.table()
    pinned = free = 0
    boards = [chess.Board(fen) for fen in PINNED_PAWNS] + boards_with_en_passant(seed, 40)
    for board in boards:
        s = Position.from_fen(board.fen()).state()
        assert int(count_moves(T, s, CASTLING)) == board.legal_moves.count(), board.fen()
        if any(board.is_pinned(board.turn, sq) for sq in board.pieces(chess.PAWN, board.turn)):
            pinned += 1
        else:
            free += 1
    assert pinned >= len(PINNED_PAWNS) - 1 and free > 0      # the last is the rank pin of en passant


@pytest.mark.parametrize("seed", range(3))
def test_a_child_counted_with_its_fixed_leapers_counts_as_the_child_alone(seed):
    """perft 2 counts the children of one kind of move with the attacks of our other leapers
    found once for the node (two_ply.fixed_leapers) and no look for their checks: each child
    counted so must give the count of the child made and counted from scratch, for every kind."""
    T = kernels.table()
    by_kind = {}
    for board in boards_with_en_passant(seed, 40):
        pos = Position.from_fen(board.fen())
        s = pos.state()
        ksq = int(s[4] & s[5]).bit_length() - 1
        their_king = (int(s[4] & (s[6] ^ s[5])).bit_length() - 1) ^ 56
        pawns, knights, king = fixed_leapers(T, s, np.int64(ksq))
        fixed = {5: (FIXED_PAWNS | FIXED_KNIGHTS, pawns | knights), 0: (FIXED_KNIGHTS | FIXED_KING, knights | king),
                 1: (FIXED_PAWNS | FIXED_KING, pawns | king)}
        for move in board.legal_moves:
            m = np.uint16(pos.kernel_move(move.uci()))
            what = what_moves(s, m)
            kind = {DOUBLE_PUSH: 0, 2: 2, 3: 2, 4: 2}.get(what, what)
            if kind == 2:
                fixed[2] = (FIXED_PAWNS | FIXED_KNIGHTS | FIXED_KING, pawns | knights | king)
            if kind not in fixed:
                continue                     # castling, en passant, promotions: counted without
            child = tuple(np.uint64(x) for x in make(T, s, m))
            expected = int(count_moves(T, child, CASTLING))
            kinds, attacks = fixed[kind]
            got = count_moves_at(T, child, CASTLING, np.int64(their_king), (np.int64(kinds), np.uint64(attacks)))
            assert int(got) == expected, (board.fen(), move.uci())
            by_kind[kind] = by_kind.get(kind, 0) + 1
    assert sorted(by_kind) == [0, 1, 2, 5], by_kind


# positions whose opponent has boxed sliders (every square next to them on their lines holds a
# piece of their own) and where a move of ours captures one of those pieces, opening the box
BOXES_OPENED = ("rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPPBP/RNBQK1NR w KQkq - 0 1",      # Bxb7: c8's box
                "rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPPBP/RNBQK1NR b KQkq - 0 1",      # none of theirs can
                "r1bqkbnr/pppppppp/2n5/1N6/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",    # Nxa7, Nxc7: a8's box
                "rnbqkb1r/pppppppp/8/8/4n3/2N5/PPPPPPPP/R1BQKBNR b KQkq - 0 1",    # Nxd2, Nxf2: c1, f1, d1
                "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",    # Qh5 and more: pawns
                "rnbqkbnr/pppppppp/8/8/2B5/8/PPPPPPPP/RN1QK1NR w KQkq - 0 1")      # Bxf7+: f8, d8's boxes


def opening_boards(seed, count):
    """Boards a few random plies from the start, where most sliders are boxed in, and captures."""
    rng = random.Random(seed)
    boards = [chess.Board(fen) for fen in BOXES_OPENED]
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 11)):
            moves = list(board.legal_moves)
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            if board.is_game_over():
                break
        boards.append(board)
    return boards


@pytest.mark.parametrize("seed", range(3))
def test_the_opponents_boxed_sliders_are_left_out_only_while_their_box_stands(seed):
    """perft 2 counts the children without the opponent's boxed sliders (two_ply.boxed_in), unless
    the move captures one of the pieces boxing them in: perft 2 and 3 must stay python-chess's on
    boards where sliders are boxed and where such captures are among the moves."""
    T = kernels.table()
    buf = new_move_stack()
    boxed = opened = 0
    for board in opening_boards(seed, 50):
        s = Position.from_fen(board.fen()).state()
        D, O, walls = boxed_in(T, s)
        them = int(s[6] ^ s[5])
        # what boxed_in says, from python-chess: a slider of theirs with every neighbour on its lines theirs
        for sq in chess.SquareSet(them & (int(s[2]) | int(s[3]))):
            for kind, lines, left in ((2, tables.BISHOP_RAYS, int(D)), (3, tables.ROOK_RAYS, int(O))):
                if (int(s[kind]) >> sq) & 1:
                    box = int(T[tables.KING + sq]) & int(T[lines + sq])
                    assert ((left >> sq) & 1) == (box & ~them != 0), (board.fen(), sq)
        if int(s[2] ^ D) | int(s[3] ^ O):
            boxed += 1
            pos = Position.from_fen(board.fen())
            # the kernel's squares, seen from the side to move, as walls is
            targets = [move_to(np.uint16(pos.kernel_move(m.uci()))) for m in board.legal_moves if board.is_capture(m)]
            opened += any((int(walls) >> int(to)) & 1 for to in targets)
        assert int(perft(T, s, 2, buf)) == python_chess_perft(board, 2), board.fen()
        assert int(perft(T, s, 3, buf)) == python_chess_perft(board, 3), board.fen()
    assert boxed >= 25 and opened >= 4, (boxed, opened)
