"""The Race tab's plots (pyqtgraph): nodes per second by depth for the position being raced, a
line per engine growing a point as each depth finishes; and a bar per engine on every position
finished. Both on a log scale: python-chess and the core differ by three orders of magnitude.

`add_lap` and `set_result` only store; `refresh()` (from the one bridge timer) draws.
"""
from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from . import palette
from .graphs import Plot

BAR_GROUP = 0.8                  # of the space between two positions


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks at each power of ten between log10 values low and high: (3, '1k'), (6, '1M')."""
    ticks = []
    for power in range(max(0, math.floor(low)), math.ceil(high) + 1):
        unit, scale = next(((u, p) for u, p in (("G", 9), ("M", 6), ("k", 3), ("", 0)) if power >= p))
        ticks.append((float(power), f"{10 ** (power - scale)}{unit}"))
    return ticks


class RaceGraphs(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.engines: list[str] = []
        self.positions: list[str] = []
        self.current = 0                               # the position the depth plot shows
        self.laps: dict[tuple[int, int], list[tuple[int, float]]] = {}   # (engine, position) -> (depth, nps)
        self.results: dict[tuple[int, int], float | None] = {}           # None: out on that position
        self._dirty = False
        self.depth_plot = self._plot("By depth", "depth")
        self.bar_plot = self._plot("Deepest depth, each position", "position")
        # one legend for both plots, above them: inside a plot it covered the curves
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        self.curves: list = []
        self.bars: list = []
        self.marks: list = []
        self.caption = QLabel("No race yet: choose engines and positions, then Start.")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.columns = 0
        self._arrange(2)
        self._dirty = True
        self.refresh()                     # the log axes before the first race

    def _arrange(self, columns: int):
        """The plots side by side, or one above the other when side by side would squeeze them."""
        if columns == self.columns:
            return
        self.columns = columns
        for w in (self.caption, self.legend, self.depth_plot, self.bar_plot):
            self.grid.removeWidget(w)
        self.grid.addWidget(self.caption, 0, 0, 1, columns)
        self.grid.addWidget(self.legend, 1, 0, 1, columns)
        self.grid.addWidget(self.depth_plot, 2, 0)
        self.grid.addWidget(self.bar_plot, 2 if columns == 2 else 3, 1 if columns == 2 else 0)

    def resizeEvent(self, event):
        self._arrange(2 if event.size().width() >= 2 * self.depth_plot.minimumWidth() + 30 else 1)
        super().resizeEvent(event)

    def minimumSizeHint(self):
        return QSize(self.depth_plot.minimumWidth(), super().minimumSizeHint().height())

    @staticmethod
    def _plot(title: str, xlabel: str) -> Plot:
        plot = Plot(title=title)
        plot.setLabel("bottom", xlabel)
        plot.setLabel("left", "nodes/s")
        plot.setMouseEnabled(x=False, y=False)
        plot.setMinimumSize(220, 180)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        return plot

    def colour(self, engine: int) -> str:
        return palette.SERIES[engine % len(palette.SERIES)]

    def set_race(self, engines: list[str], positions: list[str], caption: str):
        """A new race: its engines (their labels) and positions; everything earlier is cleared."""
        self.engines, self.positions = list(engines), list(positions)
        self.laps.clear()
        self.results.clear()
        self.current = 0
        self.legend.setText("&nbsp;&nbsp;&nbsp;".join(
            f"<span style='color:{self.colour(i)}'>■</span>&nbsp;{html.escape(name)}"
            for i, name in enumerate(self.engines)))
        for item in self.curves + self.bars + self.marks:
            (self.depth_plot if item in self.curves else self.bar_plot).removeItem(item)
        self.curves = []
        for i, name in enumerate(self.engines):
            pen = pg.mkPen(self.colour(i), width=2)
            curve = self.depth_plot.plot([], [], pen=pen, symbol="o", symbolSize=6, symbolBrush=self.colour(i),
                                         symbolPen=pen)
            self.curves.append(curve)
        width = BAR_GROUP / max(1, len(self.engines))
        self.bars = [pg.BarGraphItem(x=[], height=[], width=width, brush=self.colour(i))
                     for i in range(len(self.engines))]
        for bars in self.bars:
            self.bar_plot.addItem(bars)
        self.marks = []
        self.bar_plot.getAxis("bottom").setTicks([[(i, name) for i, name in enumerate(self.positions)]])
        self.bar_plot.setXRange(-0.5, max(0.5, len(self.positions) - 0.5), padding=0)
        self.caption.setText(caption)
        self._dirty = True

    def add_lap(self, engine: int, position: int, depth: int, nps: float | None):
        if nps is None or nps <= 0:
            return                          # depth 1 is the start-up: no speed of its own
        self.laps.setdefault((engine, position), []).append((depth, nps))
        self.current = position
        self._dirty = True

    def show_position(self, position: int):
        """The depth plot shows `position` (by default the one being raced)."""
        if 0 <= position < len(self.positions) and position != self.current:
            self.current = position
            self._dirty = True

    def set_result(self, engine: int, position: int, nps: float | None):
        """An engine's speed on a position once its heat ended; None: it was out there."""
        self.results[(engine, position)] = nps
        self._dirty = True

    def refresh(self):
        if not self._dirty:
            return
        self._dirty = False
        top, bottom = 3.0, 9.0
        for i, curve in enumerate(self.curves):
            points = self.laps.get((i, self.current), [])
            x = np.array([d for d, _ in points], float)
            y = np.log10([n for _, n in points]) if points else np.zeros(0)
            curve.setData(x, y)
            if points:
                top, bottom = max(top, y.max()), min(bottom, y.min())
        for (_, _), nps in self.results.items():
            if nps:
                top, bottom = max(top, math.log10(nps)), min(bottom, math.log10(nps))
        low, high = math.floor(min(bottom, top)), math.ceil(top + 0.05)
        if not self.laps and not any(self.results.values()):
            low, high = 3, 9                # nothing yet: 1k to 1G nodes/s
        width = BAR_GROUP / max(1, len(self.engines))
        for item in self.marks:
            self.bar_plot.removeItem(item)
        self.marks = []
        for i, bars in enumerate(self.bars):
            xs, heights = [], []
            for p in range(len(self.positions)):
                if (i, p) not in self.results:
                    continue
                x = p - BAR_GROUP / 2 + width * (i + 0.5)
                nps = self.results[(i, p)]
                if nps:
                    xs.append(x)
                    heights.append(math.log10(nps) - low)
                else:            # out on this position: a mark where its bar would stand
                    mark = pg.TextItem("✗", color=palette.ERROR, anchor=(0.5, 1.0))
                    mark.setPos(x, low)
                    self.bar_plot.addItem(mark)
                    self.marks.append(mark)
            bars.setOpts(x=xs, height=heights, y0=[low] * len(xs), width=width)
        depths = [d for points in self.laps.values() for d, _ in points]
        self.depth_plot.setXRange(1, max(depths + [3]) + 0.2, padding=0.02)
        ticks = log_ticks(low, high)
        for plot in (self.depth_plot, self.bar_plot):
            plot.setYRange(low, high, padding=0)
            plot.getAxis("left").setTicks([ticks])
        self.depth_plot.setTitle(f"By depth · {self.positions[self.current]}" if self.positions else "By depth")
