"""Live graphs of a perft run (pyqtgraph): nodes per second and hash hit rate over time,
nodes per worker, and hash-table fill.

Samples go into growing numpy buffers that keep the whole run (`add_sample` is cheap
and called by the one refresh timer); `refresh()` hands them to the curves with setData.
Curves downsample by peak and clip to the view so a long run stays fast to draw.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGridLayout, QWidget

pg.setConfigOptions(antialias=False, background="w", foreground="#333")

CURVE = "#1f5fa8"
HIT = "#15781B"
WORKER_BAR = "#e68f00"
FILL_BAR = "#882020"


class Series:
    """An append-only float buffer that doubles when full: the whole run, amortised O(1)."""

    def __init__(self, capacity: int = 1024):
        self._data = np.zeros(capacity, np.float64)
        self.size = 0

    def append(self, value: float):
        if self.size == self._data.shape[0]:
            self._data = np.concatenate([self._data, np.zeros_like(self._data)])
        self._data[self.size] = value
        self.size += 1

    def values(self) -> np.ndarray:
        return self._data[:self.size]

    def clear(self):
        self.size = 0


def nice_ceiling(value: float) -> float:
    """The next 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten above value: axes move in
    steps, not on every sample."""
    if value <= 0:
        return 1.0
    power = 10.0 ** np.floor(np.log10(value))
    for step in (1, 1.5, 2, 3, 4, 5, 6, 8, 10):
        if step * power >= value:
            return float(step * power)
    return float(10 * power)


class LiveGraphs(QWidget):
    """Four plots fed by `add_sample`; `refresh` redraws them (call it from one timer)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.t, self.nps, self.hit_rate = Series(), Series(), Series()
        self.worker_nodes = np.zeros(0)
        self.fill = 0.0
        self._dirty = False
        self._limits: dict = {}      # plot name -> (x max, y max) last given to the axes

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.nps_plot = self._plot("Nodes per second", "time", "s", "rate", "nodes/s")
        self.hit_plot = self._plot("Hash hit rate", "time", "s", "hits", "%")
        self.hit_plot.setYRange(0, 100)
        self.worker_plot = self._plot("Nodes searched per worker", "worker", "", "count", "nodes")
        self.fill_plot = self._plot("Hash table fill", "", "", "fill", "%")
        self.fill_plot.setYRange(0, 100)
        self.fill_plot.getAxis("bottom").setTicks([[(0, "table")]])
        self.nps_curve = self.nps_plot.plot(pen=pg.mkPen(CURVE, width=2))
        self.hit_curve = self.hit_plot.plot(pen=pg.mkPen(HIT, width=2))
        for curve in (self.nps_curve, self.hit_curve):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.worker_bars = pg.BarGraphItem(x=[], height=[], width=0.6, brush=WORKER_BAR)
        self.worker_plot.addItem(self.worker_bars)
        self.fill_bar = pg.BarGraphItem(x=[0], height=[0], width=0.6, brush=FILL_BAR)
        self.fill_plot.addItem(self.fill_bar)
        self.fill_plot.setXRange(-1, 1)
        for plot in (self.nps_plot, self.hit_plot, self.worker_plot, self.fill_plot):
            plot.disableAutoRange()
        grid.addWidget(self.nps_plot, 0, 0)
        grid.addWidget(self.hit_plot, 0, 1)
        grid.addWidget(self.worker_plot, 1, 0)
        grid.addWidget(self.fill_plot, 1, 1)

    @staticmethod
    def _plot(title, xlabel, xunits, ylabel, yunits) -> pg.PlotWidget:
        w = pg.PlotWidget(title=title)
        w.setLabel("bottom", xlabel, units=xunits or None)
        w.setLabel("left", ylabel, units=yunits or None)
        # no grid: its lines cost three quarters of every repaint (13 of 17 ms CPU)
        w.setMouseEnabled(x=True, y=False)
        w.setMinimumHeight(150)
        return w

    def clear(self):
        for s in (self.t, self.nps, self.hit_rate):
            s.clear()
        self.worker_nodes = np.zeros(0)
        self.fill = 0.0
        self._limits.clear()
        self._dirty = True
        self.refresh()

    def add_sample(self, t: float, nps: float, hit_rate: float, worker_nodes, fill: float):
        """One reading of the run's counters: hit_rate and fill as fractions 0..1."""
        self.t.append(t)
        self.nps.append(nps)
        self.hit_rate.append(100.0 * hit_rate)
        self.worker_nodes = np.asarray(worker_nodes, np.float64)
        self.fill = 100.0 * fill
        self._dirty = True

    def refresh(self):
        if not self._dirty:
            return
        self._dirty = False
        t = self.t.values()
        self.nps_curve.setData(t, self.nps.values())
        self.hit_curve.setData(t, self.hit_rate.values())
        n = self.worker_nodes.shape[0]
        self.worker_bars.setOpts(x=np.arange(n), height=self.worker_nodes, width=0.6)
        self.fill_bar.setOpts(x=[0], height=[self.fill], width=0.6)
        # Axes change only when the data outgrows them: regenerating tick labels on every
        # refresh was most of the cost of a repaint.
        t_max = nice_ceiling(t[-1]) if t.size else 1.0
        self._set_limits("nps", self.nps_plot, t_max, nice_ceiling(self.nps.values().max(initial=0) * 1.1))
        self._set_limits("hit", self.hit_plot, t_max, 100.0)
        if n and self._limits.get("workers", (None,))[0] != n:
            self.worker_plot.getAxis("bottom").setTicks([[(i, str(i + 1)) for i in range(n)]])
        self._set_limits("workers", self.worker_plot, n, nice_ceiling(self.worker_nodes.max(initial=0) * 1.1))

    def fit(self):
        """At the end of a run: the axes end where the data does."""
        t = self.t.values()
        if t.size:
            for plot in (self.nps_plot, self.hit_plot):
                plot.setXRange(0, t[-1], padding=0.01)
            self.nps_plot.setYRange(0, self.nps.values().max() * 1.05, padding=0)
        if self.worker_nodes.size:
            self.worker_plot.setYRange(0, self.worker_nodes.max() * 1.05, padding=0)

    def _set_limits(self, name: str, plot: pg.PlotWidget, x_max: float, y_max: float):
        old_x, old_y = self._limits.get(name, (None, 0.0))
        y_max = max(y_max, old_y)                   # never shrink during a run
        if (x_max, y_max) == (old_x, old_y):
            return
        self._limits[name] = (x_max, y_max)
        if name == "workers":
            plot.setXRange(-0.6, max(x_max, 1) - 0.4, padding=0)
        else:
            plot.setXRange(0, x_max, padding=0)
        plot.setYRange(0, y_max, padding=0.02)
