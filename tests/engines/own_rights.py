"""A perftree engine that keeps its own castling rights, as most engines do: read from the FEN's
castling field as written (python-chess would drop a right whose rook is missing) and updated by
its own make. The two engines built on it plant a bug in that bookkeeping each."""
import sys

import chess

# right -> (king from, king to, rook from, rook to, squares that must be empty)
CASTLES = {"K": (chess.E1, chess.G1, chess.H1, chess.F1, (chess.F1, chess.G1)),
           "Q": (chess.E1, chess.C1, chess.A1, chess.D1, (chess.D1, chess.C1, chess.B1)),
           "k": (chess.E8, chess.G8, chess.H8, chess.F8, (chess.F8, chess.G8)),
           "q": (chess.E8, chess.C8, chess.A8, chess.D8, (chess.D8, chess.C8, chess.B8))}


def castles(board, rights, needs_rook):
    """(right, castling move) for each castle the rights allow."""
    if board.is_check():
        return []
    colour = board.turn
    out = []
    for letter in sorted(rights):
        if letter.isupper() != (colour == chess.WHITE):
            continue
        king, to, rook, rook_to, empty = CASTLES[letter]
        if board.piece_at(king) != chess.Piece(chess.KING, colour):
            continue
        if needs_rook and board.piece_at(rook) != chess.Piece(chess.ROOK, colour):
            continue
        if any(board.piece_at(sq) is not None for sq in empty):
            continue
        lifted = board.occupied & ~chess.BB_SQUARES[king]
        if any(board.attackers_mask(not colour, sq, lifted) for sq in (rook_to, to)):
            continue
        out.append((letter, chess.Move(king, to)))
    return out


def rights_after(rights, move, capture_clears):
    """The rights after a move: a king or rook leaving its square ends them; so does a capture
    on a rook's corner, unless the make forgets it (`capture_clears` false)."""
    out = set(rights)
    for letter, (king, _, rook, _, _) in CASTLES.items():
        if move.from_square in (king, rook) or (capture_clears and move.to_square == rook):
            out.discard(letter)
    return out


def children(board, rights, needs_rook, capture_clears):
    """(uci, child board, child rights) for each move the engine generates."""
    for move in board.legal_moves:                 # the board itself has no castling rights
        child = board.copy(stack=False)
        child.push(move)
        yield move.uci(), child, rights_after(rights, move, capture_clears)
    for letter, move in castles(board, rights, needs_rook):
        king, to, rook, rook_to, _ = CASTLES[letter]
        child = board.copy(stack=False)
        child.remove_piece_at(king)
        child.set_piece_at(to, chess.Piece(chess.KING, board.turn))
        if child.piece_at(rook) == chess.Piece(chess.ROOK, board.turn):
            child.remove_piece_at(rook)
            child.set_piece_at(rook_to, chess.Piece(chess.ROOK, board.turn))
        child.turn, child.ep_square = not board.turn, None
        yield move.uci(), child, {r for r in rights if r.isupper() != (board.turn == chess.WHITE)}


def perft(board, rights, depth, flags):
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in children(board, rights, *flags))
    return sum(perft(child, r, depth - 1, flags) for _, child, r in children(board, rights, *flags))


def run(needs_rook=True, capture_clears=True):
    depth, fen = int(sys.argv[1]), sys.argv[2]
    flags = (needs_rook, capture_clears)
    rights = {c for c in fen.split()[2] if c in "KQkq"}
    board = chess.Board(fen)
    board.castling_rights = chess.BB_EMPTY
    for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        board, rights = next((child, r) for m, child, r in children(board, rights, *flags) if m == uci)
    total = 0
    for uci, child, r in children(board, rights, *flags):
        count = perft(child, r, depth - 1, flags)
        total += count
        print(uci, count)
    print()
    print(total)
