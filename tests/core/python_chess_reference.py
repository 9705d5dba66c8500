"""python-chess as the reference the property tests count against: perft and divide on a
chess.Board, straight from its legal-move generator."""


def python_chess_perft(board, depth):
    """Leaf nodes `depth` plies below board (the board is left as it was)."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def python_chess_divide(board, depth):
    """{uci: perft(depth - 1)} for every legal move of board."""
    out = {}
    for move in board.legal_moves:
        board.push(move)
        out[move.uci()] = python_chess_perft(board, depth - 1)
        board.pop()
    return out
