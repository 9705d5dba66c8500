"""What the totals of an engine that prints only totals can say about its move list.

Such an engine's divide is read one legal move at a time (its total below each), so the one
fact it gives about the moves themselves is whether those totals add up to its own total here.
When they do not, the wording below is the single sentence both the oracle (core/engines/oracle.py,
which refuses such a divide rather than present rows that would agree where the engine does not)
and the mismatch finder (core/mismatch/finder.py, which reports it) give."""
from __future__ import annotations


def sum_mismatch(engine: str, total: int, depth: int, below: dict[str, int]) -> str:
    """Why `engine`'s own `total` here at `depth` is not the sum of its totals `below` each legal
    move, with the moves whose subtree is exactly the difference (likely, not certain)."""
    legal = sum(below.values())
    what = "moves" if depth == 1 else f"leaves at depth {depth}"
    # two causes give the same sums: moves it plays here other than the legal ones, or a count
    # below a move that changes with how the position was reached (its own search's make and
    # unmake here, the moves sent to it when asked about the move alone)
    text = (f"{engine} counts {total} {what} here, but its counts below each legal move add up to "
            f"{legal} ({total - legal:+}): its move list here is not the legal one, or its count "
            f"below a move depends on how that position was reached; it prints only totals, so "
            f"which moves cannot be told")
    if depth > 1 and total < legal:
        fits = [m for m, n in below.items() if n == legal - total]
        if 0 < len(fits) <= 4:
            text += f" (the difference is exactly the count below {' or '.join(fits)})"
    return text
