"""Live graphs of a perft run (pyqtgraph): nodes per second and hash hit rate over time,
nodes per worker, and hash-table fill.

The NPS line is a moving average over about a second, the raw samples faint behind it (and
within the plot): a sample covers one timer tick, and ticks that land between work items swing
from zero to twice the rate. The hit rate is drawn only where a sample had enough probes behind
it. A run without a hash table says so where the table's plots would be.

Samples go into numpy buffers bounded however long the run lasts (Series: the older half
thinned when full; `add_sample` is cheap and called by the one refresh timer); `refresh()`
hands them to the curves with setData.
Curves downsample by peak and clip to the view so a long run stays fast to draw.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from . import palette

pg.setConfigOptions(antialias=False, background="w", foreground="#333")

CURVE = palette.CURVE
RAW = (31, 95, 168, 70)          # CURVE, faint
SMOOTH_SECONDS = 1.0
SAMPLE_LIMIT = 16_384           # samples kept per series: 27 minutes of 100 ms ticks one by one
NO_TABLE = "no hash table in this run"
HIT = palette.GREEN
WORKER_BAR = palette.YELLOW
FILL_BAR = palette.RED


class Series:
    """A float buffer of at most `limit` kept samples, however long the run. Each kept sample
    is the mean of `stride` ticks; when the buffer is full every pair becomes its mean and the
    stride doubles, so all kept samples stand for the same stretch of the run (a run of N ticks
    is drawn from samples of under 2N / limit ticks each: a pixel of a plot hours wide covers
    that many anyway) and the mean of any stretch is what it was. The ticks of a stride not yet
    complete are shown as their mean, so the newest reading is always on the plot. Series
    appended in step (time beside values) thin at the same moments and stay aligned."""

    def __init__(self, capacity: int = 1024, limit: int = SAMPLE_LIMIT):
        self.limit = max(2, limit - limit % 2)
        self._data = np.zeros(min(capacity, self.limit), np.float64)
        self.size = 0               # kept samples
        self.stride = 1             # ticks per kept sample
        self._open_sum, self._open = 0.0, 0      # ticks of the stride under way

    def append(self, value: float):
        self._open_sum += value
        self._open += 1
        if self._open < self.stride:
            return
        if self.size == self.limit:
            half = self.size // 2
            self._data[:half] = self._data[:self.size].reshape(-1, 2).mean(axis=1)
            self.size, self.stride = half, self.stride * 2
        elif self.size == self._data.shape[0]:
            self._data = np.concatenate([self._data, np.zeros_like(self._data)])[:self.limit]
        self._data[self.size] = self._open_sum / self._open
        self.size += 1
        self._open_sum, self._open = 0.0, 0

    def values(self) -> np.ndarray:
        kept = self._data[:self.size]
        return np.append(kept, self._open_sum / self._open) if self._open else kept

    def clear(self):
        self.size, self.stride = 0, 1
        self._open_sum, self._open = 0.0, 0


def moving_average(t: np.ndarray, y: np.ndarray, window: float = SMOOTH_SECONDS) -> np.ndarray:
    """Each y averaged with the samples of the `window` seconds before it (time-weighted by
    position, not by count: ticks are not evenly spaced on a loaded machine)."""
    if y.size == 0:
        return y.copy()
    csum = np.concatenate([[0.0], np.cumsum(y)])
    start = np.searchsorted(t, t - window, side="right")
    start = np.minimum(start, np.arange(y.size))        # at least the sample itself
    return (csum[1:] - csum[start]) / (np.arange(1, y.size + 1) - start)


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


class Plot(pg.PlotWidget):
    """A PlotWidget asking for what reads well (pyqtgraph asks 600x480, which in a scroll area
    means scrolling on any laptop screen); the layout grows it into the room there is."""

    def sizeHint(self):
        return QSize(300, 220)


class LiveGraphs(QWidget):
    """Four plots fed by `add_sample`; `refresh` redraws them (call it from one timer)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.t, self.nps, self.hit_rate = Series(), Series(), Series()
        self.worker_nodes = np.zeros(0)
        self.fill = 0.0
        self.has_table = True
        self._dirty = False
        self._limits: dict = {}      # plot name -> (x max, y max) last given to the axes

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.nps_plot = self._plot("Nodes per second", "time", "s", "rate", "nodes/s")
        self.hit_plot = self._plot("Hash hit rate", "time", "s", "hits", "%")
        self.hit_plot.setYRange(0, 100)
        self.worker_plot = self._plot("Nodes per worker", "worker", "#", "searched", "nodes")
        # worker numbers are labels: never "worker (x0.001)"
        self.worker_plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.fill_plot = self._plot("Hash table fill", "table", "", "entries used", "%")
        self.fill_plot.setYRange(0, 100)
        self.fill_plot.getAxis("bottom").setTicks([[(0, "")]])
        self.nps_raw = self.nps_plot.plot(pen=pg.mkPen(RAW, width=1))
        self.nps_curve = self.nps_plot.plot(pen=pg.mkPen(CURVE, width=2))
        self.hit_curve = self.hit_plot.plot(pen=pg.mkPen(HIT, width=2))
        for curve in (self.nps_raw, self.nps_curve, self.hit_curve):
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
        self.worker_bars = pg.BarGraphItem(x=[], height=[], width=0.6, brush=WORKER_BAR)
        self.worker_plot.addItem(self.worker_bars)
        self.fill_bar = pg.BarGraphItem(x=[0], height=[0], width=0.6, brush=FILL_BAR)
        self.fill_plot.addItem(self.fill_bar)
        self.fill_plot.setXRange(-1, 1)
        for plot in (self.nps_plot, self.hit_plot, self.worker_plot, self.fill_plot):
            plot.disableAutoRange()
        self.no_table = QLabel(NO_TABLE)
        self.no_table.setAlignment(Qt.AlignCenter)
        self.no_table.setStyleSheet(f"color:{palette.MUTED}; font-style:italic; border:1px dashed {palette.FRAME};")
        self.no_table.hide()
        # which run the plots belong to, and its final figures once it ends
        self.caption = QLabel("No run yet: press Start perft.")
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.grid = grid
        self.columns = 0
        self._arrange(2)

    def set_caption(self, text: str):
        self.caption.setText(text)

    def _arrange(self, columns: int):
        """Two columns of plots, or one when two would squeeze them below their minimum width."""
        if columns == self.columns:
            return
        self.columns = columns
        grid = self.grid
        for w in (self.caption, self.nps_plot, self.hit_plot, self.worker_plot, self.fill_plot, self.no_table):
            grid.removeWidget(w)
        grid.addWidget(self.caption, 0, 0, 1, columns)
        if columns == 2:
            places = {self.nps_plot: (1, 0), self.hit_plot: (1, 1), self.worker_plot: (2, 0),
                      self.fill_plot: (2, 1)}
            grid.addWidget(self.no_table, 1, 1, 2, 1)
        else:          # the table's plots last, so "no table" takes their place
            places = {self.nps_plot: (1, 0), self.worker_plot: (2, 0), self.hit_plot: (3, 0),
                      self.fill_plot: (4, 0)}
            grid.addWidget(self.no_table, 3, 0, 2, 1)
        for w, (row, col) in places.items():
            grid.addWidget(w, row, col)
        for row in range(1, 5):
            grid.setRowStretch(row, 1 if row <= (2 if columns == 2 else 4) else 0)

    def resizeEvent(self, event):
        two = 2 * self.nps_plot.minimumWidth() + 3 * self.grid.spacing() + 40
        self._arrange(2 if event.size().width() >= two else 1)
        super().resizeEvent(event)

    def set_table(self, has_table: bool):
        """Show the table's plots, or say there is no table in their place."""
        self.has_table = has_table
        self.hit_plot.setVisible(has_table)
        self.fill_plot.setVisible(has_table)
        self.no_table.setVisible(not has_table)

    @staticmethod
    def _plot(title, xlabel, xunits, ylabel, yunits) -> pg.PlotWidget:
        w = Plot(title=title)
        w.setLabel("bottom", xlabel, units=xunits or None)
        w.setLabel("left", ylabel, units=yunits or None)
        # no grid: its lines cost three quarters of every repaint (13 of 17 ms CPU)
        w.setMouseEnabled(x=True, y=False)
        w.setMinimumSize(180, 170)     # below that titles and tick labels collide: scroll instead
        return w

    def clear(self):
        for s in (self.t, self.nps, self.hit_rate):
            s.clear()
        self.worker_nodes = np.zeros(0)
        self.fill = 0.0
        self._limits.clear()
        self._dirty = True
        self.refresh()

    def add_sample(self, t: float, nps: float, hit_rate: float | None, worker_nodes, fill: float):
        """One reading of the run's counters: hit_rate and fill as fractions 0..1; hit_rate
        None when this reading has no hit-rate sample (too few probes since the last one)."""
        self.t.append(t)
        self.nps.append(nps)
        self.hit_rate.append(np.nan if hit_rate is None else 100.0 * hit_rate)
        self.set_totals(worker_nodes, fill)

    def set_totals(self, worker_nodes, fill: float):
        """The counters that are totals, not rates: also read once more when the run ends, so a
        run shorter than a tick still shows what each worker searched."""
        self.worker_nodes = np.asarray(worker_nodes, np.float64)
        self.fill = 100.0 * fill
        self._dirty = True

    def refresh(self):
        if not self._dirty:
            return
        self._dirty = False
        t = self.t.values()
        self.nps_raw.setData(t, self.nps.values())
        self.nps_curve.setData(t, moving_average(t, self.nps.values()))
        hits = self.hit_rate.values()
        sampled = ~np.isnan(hits)
        self.hit_curve.setData(t[sampled], hits[sampled])
        n = self.worker_nodes.shape[0]
        self.worker_bars.setOpts(x=np.arange(n), height=self.worker_nodes, width=0.6)
        self.fill_bar.setOpts(x=[0], height=[self.fill], width=0.6)
        # Axes change only when the data outgrows them: regenerating tick labels on every
        # refresh was most of the cost of a repaint.
        t_max = nice_ceiling(t[-1]) if t.size else 1.0
        # the raw samples stay on the plot: the scale is set by the highest of them
        self._set_limits("nps", self.nps_plot, t_max, nice_ceiling(self.nps.values().max(initial=0) * 1.05))
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
            # max(.., 1): an all-zero run would give the range 0..0, which pyqtgraph widens to -500..500
            self.nps_plot.setYRange(0, max(self.nps.values().max() * 1.05, 1.0), padding=0)
        if self.worker_nodes.size:
            self.worker_plot.setYRange(0, max(self.worker_nodes.max() * 1.05, 1.0), padding=0)

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
