#!/usr/bin/env python3
"""A UCI 'engine' that never answers `go perft`, except on the positions perftscope calibrates
with (core.engines.calibration.probes), which it answers right so that it can be read at all."""
import time

from fake_uci import divide_lines, serve

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
CALIBRATION = {   # (FEN without its clocks, depth): kept in step with calibration.probes()
    (START, 2), (START, 1),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 2),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6", 2),
    ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3", 2),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - -", 2),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq -", 2),
    ("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq -", 2),
}


def answer(board, depth, moves):
    if moves or (" ".join(board.fen().split()[:4]), depth) not in CALIBRATION:
        time.sleep(3600)
    print("\n".join(divide_lines(board, depth)), flush=True)


serve("hang", answer)
