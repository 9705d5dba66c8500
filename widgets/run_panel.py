"""The run panel: depth, workers, hash size, start and stop, progress, and the result.

A pure view: it asks for runs through `startRequested` / `stopRequested` and watches the run's
state (app.model's "run" JobState: running, progress, result, error); whoever owns the run
(app.perft_runs, sampled by app.bridge's timer) does the work off the GUI thread.
"""
from __future__ import annotations

import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QProgressBar,
                               QPushButton, QSpinBox, QVBoxLayout, QWidget)

from perftscope.core.limits import RUN_DEPTH_LIMIT, table_bytes
from perftscope.core.units import format_bytes, format_rate

from . import palette
from .start_stop import StartStop

MAX_DEPTH = RUN_DEPTH_LIMIT


def format_count(n: float) -> str:
    """1234567 -> '1,234,567'."""
    return f"{int(n):,}"



def progress_line(nodes: int, seconds: float) -> str:
    """A running count as the panel says it: nodes, seconds, rate."""
    rate = nodes / seconds if seconds > 0 else 0.0
    return f"{format_count(nodes)} nodes · {seconds:.1f} s · {format_rate(rate)}"


class RunPanel(StartStop, QWidget):
    startRequested = Signal(int, int, int)     # depth, workers, log2 of hash entries (-1: no table)
    stopRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.depth = QSpinBox()
        self.depth.setRange(1, MAX_DEPTH)
        self.depth.setValue(5)
        self.workers = QSpinBox()
        self.workers.setRange(1, max(1, os.cpu_count() or 1) * 2)
        self.workers.setValue(max(1, os.cpu_count() or 1))
        self.hash_size = QComboBox()
        self.hash_size.addItem("no hash table", -1)
        for exp in range(16, 27, 2):
            self.hash_size.addItem(format_bytes(table_bytes(exp)), exp)
        self.hash_size.setCurrentIndex(3)
        self.start_button = QPushButton("Start perft")
        self.start_button.setDefault(True)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat("idle")
        self.status = QLabel("Choose a depth and press Start.")
        self.status.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.status.setWordWrap(True)

        for w in (self.depth, self.workers, self.hash_size):
            w.setMaximumWidth(180)
        form = QFormLayout()
        form.addRow("Depth", self.depth)
        form.addRow("Workers", self.workers)
        form.addRow("Hash table", self.hash_size)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.progress)
        box.addWidget(self.status)
        box.addStretch(1)

        self.start_button.clicked.connect(lambda: self.startRequested.emit(*self.settings()))
        self.stop_button.clicked.connect(self.stopRequested)

    # --- what the owner asks of the panel ---------------------------------------------
    def settings(self) -> tuple[int, int, int]:
        """(depth, workers, log2 of the table's entries or -1 for no table), as chosen."""
        return self.depth.value(), self.workers.value(), int(self.hash_size.currentData())

    def set_settings(self, depth: int | None = None, workers: int | None = None, hash_exp: int | None = None):
        """Choose what a run uses, as the user would (None: leave it); a table size the box
        does not offer is left as it is."""
        if depth is not None:
            self.depth.setValue(depth)
        if workers is not None:
            self.workers.setValue(workers)
        if hash_exp is not None:
            i = self.hash_size.findData(hash_exp)
            if i >= 0:
                self.hash_size.setCurrentIndex(i)

    def progress_text(self) -> str:
        return self.progress.format()

    def set_running(self, running: bool):
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        for w in (self.depth, self.workers, self.hash_size):
            w.setEnabled(not running)
        if running:
            self.progress.setValue(0)
            self.progress.setFormat("starting…")
            self.status.setStyleSheet("")
            self.status.setText("Running…")

    def show_state(self, state):
        """The window's "run" JobState: running with its progress, the result, or the error."""
        if state.running:
            if not self.stop_button.isEnabled():
                self.set_running(True)
            progress = state.progress
            if progress is not None:
                fraction = progress.done / progress.total if progress.total else 0.0
                self.show_progress(fraction, progress.text)
        elif state.error:
            self.show_error(state.status)
        elif state.result is not None:
            result = state.result
            self.show_result(result.nodes or 0, result.seconds, cancelled=result.cancelled)
        self.status.setToolTip(state.subject.caption() if state.subject is not None else "")

    def show_progress(self, fraction: float, text: str):
        self.progress.setValue(int(1000 * max(0.0, min(1.0, fraction))))
        self.progress.setFormat(f"{100 * fraction:.0f}%")
        self.status.setText(text)

    def show_result(self, nodes: int, seconds: float, cancelled: bool = False):
        self.set_running(False)
        rate = nodes / seconds if seconds > 0 else 0.0
        if cancelled:
            self.progress.setFormat("stopped")
            self.status.setText(f"Stopped after {seconds:.2f} s: a partial count is not a result")
        else:
            self.progress.setValue(1000)
            self.progress.setFormat("done")
            self.status.setText(f"<b>{format_count(nodes)}</b> nodes in {seconds:.3f} s · "
                                f"<b>{format_rate(rate)}</b>")

    def set_stale(self, stale: bool):
        """Grey the result: the board now shows another position than the one counted."""
        self.status.setEnabled(not stale)
        self.progress.setEnabled(not stale)

    def set_preparing(self, text: str | None):
        """Say in place that the kernels a run needs are still being prepared (`text`), with
        Start disabled; None: they are ready, Start works."""
        self.start_button.setEnabled(text is None and not self.stop_button.isEnabled())
        if text is not None:
            self.progress.setFormat(text)
            self.status.setText("Runs start once the kernels are compiled for this CPU (first run only).")
        elif self.progress.format().startswith("preparing"):
            self.progress.setFormat("idle")
            self.status.setText("Choose a depth and press Start.")

    def show_error(self, message: str):
        self.set_running(False)
        self.progress.setFormat("failed")
        self.status.setStyleSheet(f"color:{palette.ERROR};")
        self.status.setText(message)
