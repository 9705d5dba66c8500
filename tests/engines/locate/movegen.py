#!/usr/bin/env python3
"""A small 0x88 move generator in perftree's protocol (DEPTH FEN [MOVES]) with one planted bug,
for locate's tests: a pawn promoting straight ahead becomes a queen, rook or bishop, never a
knight (the line marked PLANTED). Nothing but the standard library, so any Python runs it."""
import sys

KNIGHT = (33, 31, 18, 14, -14, -18, -31, -33)
KING = (17, 16, 15, 1, -1, -15, -16, -17)
BISHOP = (17, 15, -15, -17)
ROOK = (16, 1, -1, -16)
CORNERS = ((0x04, "KQ"), (0x00, "Q"), (0x07, "K"), (0x74, "kq"), (0x70, "q"), (0x77, "k"))


def parse(fen):
    parts = fen.split()
    board, rank, file = {}, 7, 0
    for ch in parts[0]:
        if ch == "/":
            rank, file = rank - 1, 0
        elif ch.isdigit():
            file += int(ch)
        else:
            board[rank * 16 + file] = ch
            file += 1
    castling = "" if parts[2] == "-" else parts[2]
    ep = None if parts[3] == "-" else (int(parts[3][1]) - 1) * 16 + ord(parts[3][0]) - 97
    return board, parts[1] == "w", castling, ep


def name(sq):
    return "abcdefgh"[sq & 7] + str((sq >> 4) + 1)


def own(piece, white):
    return piece.isupper() == white


def attacked(board, sq, by_white):
    for d in ((-15, -17) if by_white else (15, 17)):
        if board.get(sq + d) == ("P" if by_white else "p"):
            return True
    for steps, piece in ((KNIGHT, "N"), (KING, "K")):
        for d in steps:
            if board.get(sq + d) == (piece if by_white else piece.lower()):
                return True
    for dirs, pieces in ((BISHOP, "BQ"), (ROOK, "RQ")):
        for d in dirs:
            t = sq + d
            while not t & 0x88:
                p = board.get(t)
                if p:
                    if p.upper() in pieces and own(p, by_white):
                        return True
                    break
                t += d
    return False


def pawn_moves(board, sq, white, ep, out):
    step, last = (16, 7) if white else (-16, 0)
    t = sq + step
    if not t & 0x88 and t not in board:
        if t >> 4 == last:
            for promo in "qrb":                                  # PLANTED: no knight
                out.append((sq, t, promo))
        else:
            out.append((sq, t, ""))
            if sq >> 4 == (1 if white else 6) and t + step not in board:
                out.append((sq, t + step, ""))
    for d in (step - 1, step + 1):
        t = sq + d
        if t & 0x88:
            continue
        if t in board and not own(board[t], white):
            if t >> 4 == last:
                for promo in "qrbn":
                    out.append((sq, t, promo))
            else:
                out.append((sq, t, ""))
        elif t == ep:
            out.append((sq, t, "ep"))


def piece_moves(board, sq, kind, white, out):
    if kind in "NK":
        for d in (KNIGHT if kind == "N" else KING):
            t = sq + d
            if not t & 0x88 and (t not in board or not own(board[t], white)):
                out.append((sq, t, ""))
        return
    for d in (BISHOP if kind == "B" else ROOK if kind == "R" else BISHOP + ROOK):
        t = sq + d
        while not t & 0x88:
            if t in board:
                if not own(board[t], white):
                    out.append((sq, t, ""))
                break
            out.append((sq, t, ""))
            t += d


def castling_moves(board, white, castling, out):
    row = 0 if white else 0x70
    king, rook = ("K", "R") if white else ("k", "r")
    if board.get(row + 4) != king or attacked(board, row + 4, not white):
        return
    short, long = ("K", "Q") if white else ("k", "q")
    if short in castling and board.get(row + 7) == rook and row + 5 not in board and row + 6 not in board:
        if not attacked(board, row + 5, not white):
            out.append((row + 4, row + 6, "castle"))
    if long in castling and board.get(row) == rook and not any(row + f in board for f in (1, 2, 3)):
        if not attacked(board, row + 3, not white):
            out.append((row + 4, row + 2, "castle"))


def make(pos, move):
    board, white, castling, ep = pos
    sq, t, flag = move
    board = dict(board)
    piece = board.pop(sq)
    if flag == "ep":
        del board[t - 16 if white else t + 16]
    if flag == "castle":
        rook_from, rook_to = (t + 1, t - 1) if t & 7 == 6 else (t - 2, t + 1)
        board[rook_to] = board.pop(rook_from)
    board[t] = (flag.upper() if white else flag) if flag in ("q", "r", "b", "n") else piece
    for corner, rights in CORNERS:
        if corner in (sq, t):
            castling = "".join(c for c in castling if c not in rights)
    double = piece in "Pp" and abs(t - sq) == 32
    return board, not white, castling, (sq + t) // 2 if double else None


def legal_moves(pos):
    board, white, castling, ep = pos
    out = []
    for sq, piece in list(board.items()):
        if own(piece, white):
            if piece in "Pp":
                pawn_moves(board, sq, white, ep, out)
            else:
                piece_moves(board, sq, piece.upper(), white, out)
    castling_moves(board, white, castling, out)
    legal = []
    for move in out:
        after = make(pos, move)
        king = next(s for s, p in after[0].items() if p == ("K" if white else "k"))
        if not attacked(after[0], king, not white):
            legal.append(move)
    return legal


def uci(move):
    return name(move[0]) + name(move[1]) + (move[2] if move[2] in ("q", "r", "b", "n") else "")


def perft(pos, depth):
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(make(pos, m), depth - 1) for m in moves)


def play(pos, text):
    """A move as the request writes it, made the way the engine reads it: by its squares."""
    sq = (int(text[1]) - 1) * 16 + ord(text[0]) - 97
    t = (int(text[3]) - 1) * 16 + ord(text[2]) - 97
    piece = pos[0][sq]
    flag = text[4] if len(text) > 4 else ""
    if piece in "Kk" and abs(t - sq) == 2:
        flag = "castle"
    elif piece in "Pp" and t == pos[3] and (t - sq) % 16:
        flag = "ep"
    return make(pos, (sq, t, flag))


def main():
    depth, pos = int(sys.argv[1]), parse(sys.argv[2])
    for text in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        pos = play(pos, text)
    total = 0
    for move in legal_moves(pos):
        count = 1 if depth == 1 else perft(make(pos, move), depth - 1)
        total += count
        print(uci(move), count)
    print()
    print(total)


if __name__ == "__main__":
    main()
