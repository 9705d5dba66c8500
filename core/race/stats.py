"""Two builds compared from alternating timed runs: the median, the spread and a verdict.

    >>> compare([1.00, 1.02, 0.99, 1.01, 1.00, 1.03], [0.90, 0.92, 0.91, 0.93, 0.90, 0.91]).text
    'B is 10.9 % faster (95 % interval 8.6 to 13.2 %, 6 runs each)'

Method. Run i of A and run i of B are a pair: they ran back to back, so whatever the shared
machine was doing then slowed both. Each pair gives d_i = ln(time_A / time_B), the log of how many
times faster B was (logs make "A is x % faster" and "B is x % slower" one symmetric scale). The
estimate is the Hodges-Lehmann median of the pairwise means of the d_i and the interval is the
exact Wilcoxon signed-rank interval around it: distribution-free, and one run a busy neighbour
slowed moves it by one rank, where it would drag a mean and widen a t interval on ten runs.
Needs 6 pairs or more for a 95 % interval; fewer say so and name no faster build (a median of
three runs a neighbour slowed is no direction).
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

LEVEL = 0.95
MIN_PAIRS = 6         # with 5 pairs the most extreme outcome already has probability 1/16 > 5 %


@dataclass(frozen=True)
class Spread:
    """A sample of run times: its median and its range."""
    median: float
    low: float
    high: float
    runs: int

    @classmethod
    def of(cls, values) -> "Spread":
        values = list(values)
        return cls(statistics.median(values), min(values), max(values), len(values))

    @property
    def relative(self) -> float:
        """The range as a fraction of the median: (high - low) / median."""
        return (self.high - self.low) / self.median if self.median else 0.0

    def to_json(self) -> dict:
        return {"median": self.median, "low": self.low, "high": self.high, "runs": self.runs}


@dataclass(frozen=True)
class Verdict:
    """B against A. `speedup` is how many times faster B is (below 1: slower), `low` and `high`
    the interval's ends on the same scale (all three None with too few runs for an interval: no
    direction is claimed then); `text` says it in words."""
    a: Spread
    b: Spread
    speedup: float | None
    low: float | None
    high: float | None
    text: str

    @property
    def faster(self) -> str | None:
        """'A' or 'B' when the interval leaves no doubt, None otherwise."""
        if self.low is None:
            return None
        return "B" if self.low > 1 else "A" if self.high < 1 else None

    def to_json(self) -> dict:
        return {"a": self.a.to_json(), "b": self.b.to_json(), "speedup": self.speedup,
                "interval": [self.low, self.high] if self.low is not None else None,
                "level": LEVEL, "faster": self.faster, "text": self.text}


def signed_rank_counts(n: int) -> list[int]:
    """How many of the 2^n sign choices give each Wilcoxon signed-rank sum 0 .. n(n+1)/2."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for rank in range(1, n + 1):
        for total in range(len(counts) - 1, rank - 1, -1):
            counts[total] += counts[total - rank]
    return counts


def _critical(n: int, level: float) -> int | None:
    """The largest k with P(W <= k) <= (1 - level) / 2, None when even k = 0 is too likely."""
    counts, cumulative, k = signed_rank_counts(n), 0, None
    for total, count in enumerate(counts):
        cumulative += count
        if cumulative / 2 ** n > (1 - level) / 2:
            return k
        k = total
    return k


def compare(a_times, b_times, level: float = LEVEL) -> Verdict:
    """The verdict on paired run times of A and B (run i of each back to back)."""
    a_times, b_times = list(a_times), list(b_times)
    if len(a_times) != len(b_times) or not a_times:
        raise ValueError("compare needs the same number of runs of A and B, at least one")
    a, b = Spread.of(a_times), Spread.of(b_times)
    n = len(a_times)
    d = [math.log(x / y) for x, y in zip(a_times, b_times)]
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    estimate = math.exp(statistics.median(walsh))
    k = _critical(n, level)
    runs = f"{n} run{'s' * (n != 1)} each"
    if k is None:         # no interval, so no direction: neither the words nor `speedup` name a faster build
        return Verdict(a, b, None, None, None,
                       f"no verdict: {runs} are too few for a {level * 100:g} % interval "
                       f"(at least {MIN_PAIRS})")
    low, high = math.exp(walsh[k]), math.exp(walsh[-k - 1])
    interval = f"{level * 100:g} % interval"
    if low <= 1 <= high:
        text = (f"no difference beyond the noise ({interval}: B's speed {_signed(low)} to {_signed(high)} "
                f"against A's, {runs})")
    elif low > 1:
        text = f"B is {_pct(estimate)} % faster ({interval} {_pct(low)} to {_pct(high)} %, {runs})"
    else:      # A is faster: the same interval seen from A
        text = f"A is {_pct(1 / estimate)} % faster ({interval} {_pct(1 / high)} to {_pct(1 / low)} %, {runs})"
    return Verdict(a, b, estimate, low, high, text)


def _pct(ratio: float) -> str:
    return f"{(ratio - 1) * 100:.1f}"


def _signed(ratio: float) -> str:
    return f"{(ratio - 1) * 100:+.1f} %"


