"""The workbench's colours, named by what they mean, in one place.

Hex strings (usable in style sheets and QColor alike). Arrow and board colours follow
lichess / python-chess so chess players read them without a legend; verdict colours are
the same in the tree, on the board and in the finder report.
"""
from __future__ import annotations

# chess marks (lichess / python-chess SVG arrows)
RED = "#882020"
BLUE = "#003088"
YELLOW = "#e68f00"
GREEN = "#15781B"

# verdicts of the user's engine against the reference
ERROR = "#a01010"              # an error message's text
BAD = "#8a1010"                # a mismatching row's text, "✗"
GOOD = GREEN                   # "✔ agree"
ILLEGAL = RED                  # a move the engine generates and should not
NOT_GENERATED = "#7a3b00"      # a legal move the engine fails to generate
ILLEGAL_BG = "#fff1d6"
NOT_GENERATED_BG = "#fde2e2"
DIFF_BG = "#fff8c4"            # both generate the move, counts below it differ

# neutral text and frames
MUTED = "#666666"              # hints and notes under a heading
STALE = "#8a8a8a"              # a result computed for another position than the board's
STALE_BG = "#eeeeee"
FRAME = "#c8c8c8"
RULE = "#d0d0d0"

# the board (python-chess SVG)
LIGHT_SQUARE, DARK_SQUARE = "#ffce9e", "#d18b47"
LAST_LIGHT, LAST_DARK = "#cdd16a", "#aaa23b"

# the run graphs
CURVE = "#1f5fa8"
# one colour per engine in the race graphs, told apart in colour-blind palettes too (Okabe-Ito)
SERIES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
