"""The planted engines' python-chess (tests/engines/chess.py) is the installed python-chess, its
slider tables filled on first use: every entry equals the one python-chess builds at import."""
import subprocess
import sys
from pathlib import Path

import chess

ENGINES = Path(__file__).parents[2] / "engines"
# in an engine's process: every entry of the three tables looked up, over every subset of its mask
EVERY_ENTRY = """
import chess
print(chess.__file__)
print(type(chess.BB_DIAG_ATTACKS[0]).__name__, len(chess.BB_DIAG_ATTACKS[0]))
for masks, table in ((chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS), (chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS),
                     (chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS)):
    print(masks)
    print([sorted((occupied, table[square][occupied]) for occupied in chess._carry_rippler(masks[square]))
           for square in chess.SQUARES])
print(chess.BB_RAYS)
"""


def test_the_engines_python_chess_is_the_installed_one_with_the_same_tables():
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ENGINES)!r})\n{EVERY_ENTRY}"],
                         capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    assert out[0] == chess.__file__
    assert out[1] == "LazyAttacks 1"          # filled on first use: only the empty board's entry so far (the rays)
    tables = ((chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS), (chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS),
              (chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS))
    for (masks, table), (their_masks, their_table) in zip(tables, zip(out[2::2], out[3::2])):
        assert their_masks == str(masks)
        assert their_table == str([sorted(table[square].items()) for square in chess.SQUARES])
    assert out[8] == str(chess.BB_RAYS)
