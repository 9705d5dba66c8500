"""The perftree script protocol around a move generator, for the test engines in this folder.

Each engine script is `run(moves_of)` where `moves_of(board)` lists the chess.Move objects its
generator produces; the perft below uses that generator at every ply, so a planted bug shows
wherever its position occurs in the tree."""
import sys

import chess


def perft(board, depth, moves_of):
    if depth == 0:
        return 1
    moves = moves_of(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1, moves_of)
        board.pop()
    return total


def request(chess960=False, board_class=chess.Board):
    """(depth, board) from the command line: DEPTH FEN [MOVES]; `board_class` a chess.Board
    whose push plants a bug in making a move."""
    depth, fen = int(sys.argv[1]), sys.argv[2]
    board = board_class(fen, chess960=chess960)
    for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        board.push_uci(uci)
    return depth, board


def run(moves_of, chess960=False, board_class=chess.Board, write=chess.Move.uci):
    """`write(move)`: how a row names its move."""
    depth, board = request(chess960, board_class)
    total = 0
    for move in moves_of(board):
        board.push(move)
        count = perft(board, depth - 1, moves_of)
        board.pop()
        total += count
        print(write(move), count)
    print()
    print(total)


def answer(engine, depth, fen, moves=""):
    """What perftree engine `engine` prints for DEPTH FEN [MOVES], for the programs of this folder
    that wrap one (a dialect, an interactive program, xboard, UCI): a script of this folder runs in
    this process (its output captured, its exit with an error raised as CalledProcessError, as
    a process of its own), without a second Python and python-chess, which cost most of a call."""
    import contextlib, io, runpy, subprocess      # here: every engine imports this module, few call this

    args = [engine, str(depth), fen] + ([moves] if moves else [])
    if not engine.endswith(".py"):
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout
    argv, sys.argv = sys.argv, args
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            runpy.run_path(engine, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            raise subprocess.CalledProcessError(e.code, args) from None
    finally:
        sys.argv = argv
    return out.getvalue()


def rows_of(out):
    """(move, count) for each row of a perftree answer, up to its blank line."""
    return [(m, int(c)) for m, c in (x.split() for x in out.split("\n\n")[0].splitlines())]


def legal(board):
    return list(board.legal_moves)


def long_algebraic(board, uci):
    """`Nb1-a3`, `Ne5xg6`, `e7-e8=Q`, `O-O`: how many console programs print a move."""
    move = chess.Move.from_uci(uci)
    if board.is_castling(move):
        return "O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "O-O-O"
    piece = board.piece_at(move.from_square)
    letter = "" if piece is None or piece.piece_type == chess.PAWN else piece.symbol().upper()
    sep = "x" if board.is_capture(move) else "-"
    promotion = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return f"{letter}{uci[:2]}{sep}{uci[2:4]}{promotion}"
