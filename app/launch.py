"""The first second of `perftscope gui`: a splash screen at once, the kernels prepared on a
background thread while it says how far that is, then the window.

On an empty compile cache preparing the kernels takes tens of seconds; the splash (and a
line on the terminal) says so instead of leaving a black screen, and because every kernel
is compiled before the window exists, no perft run's clock ever includes compile time.
"""
from __future__ import annotations

import sys
import threading
import time

from PySide6.QtCore import QEventLoop, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QLabel

from . import warmup

SPLASH_W, SPLASH_H = 520, 200


class Splash(QLabel):
    """The perftscope icon, a title, what is being prepared and a progress bar. A QLabel with
    the splash-screen window flags, not a QSplashScreen: that one's show() waits up to a second
    for the window manager to report the window exposed, the very second it is there to fill."""

    def __init__(self):
        super().__init__()
        self.setWindowFlags(Qt.SplashScreen | Qt.FramelessWindowHint | Qt.WindowStaysOnTopHint)
        self.setFixedSize(SPLASH_W, SPLASH_H)
        screen = self.screen().availableGeometry()
        self.move(screen.center().x() - SPLASH_W // 2, screen.center().y() - SPLASH_H // 2)
        self.done, self.total, self.label = 0, len(warmup.STEPS), "starting"
        self.cold = False
        self.started = time.monotonic()
        self.setWindowTitle("perftscope")
        # the first step alone can take half a minute: a clock that moves says nothing hangs
        self.clock = QTimer(self)
        self.clock.timeout.connect(self._draw)
        self.clock.start(500)
        self._draw()

    def hideEvent(self, event):
        self.clock.stop()
        super().hideEvent(event)

    def finish(self, window):
        """The window is up: the splash goes."""
        self.close()

    def show_step(self, done: int, total: int, label: str):
        self.done, self.total, self.label = done, total, label
        self._draw()

    def text(self) -> str:
        head = warmup.MESSAGE if self.cold else "starting…"
        return f"{head}\n{self.done}/{self.total}: {self.label} · {time.monotonic() - self.started:.0f} s"

    def _draw(self):
        from perftscope import resources
        from PySide6.QtSvg import QSvgRenderer

        pm = QPixmap(SPLASH_W, SPLASH_H)
        pm.fill(QColor("#fbf7f0"))
        p = QPainter(pm)
        p.setRenderHint(QPainter.Antialiasing)
        p.setPen(QColor("#c8b89a"))
        p.drawRect(0, 0, SPLASH_W - 1, SPLASH_H - 1)
        QSvgRenderer(str(resources.DIR / "icons" / "perftscope.svg")).render(p, QRectF(20, 24, 72, 72))
        title = QFont(self.font())
        title.setPixelSize(28)
        title.setBold(True)
        p.setFont(title)
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(110, 24, SPLASH_W - 130, 40), Qt.AlignLeft | Qt.AlignVCenter, "perftscope")
        body = QFont(self.font())
        body.setPixelSize(14)
        p.setFont(body)
        p.drawText(QRectF(110, 64, SPLASH_W - 130, 60), Qt.AlignLeft | Qt.AlignTop | Qt.TextWordWrap,
                   self.text())
        bar = QRectF(20, SPLASH_H - 44, SPLASH_W - 40, 16)
        p.fillRect(bar, QColor("#e8e0d0"))
        p.fillRect(QRectF(bar.x(), bar.y(), bar.width() * self.done / max(1, self.total), bar.height()),
                   QColor("#d18b47"))
        p.end()
        self.setPixmap(pm)
        self.repaint()


class _Relay(QObject):
    """Carries the worker thread's progress to the GUI thread (queued signals)."""
    progress = Signal(int, int, str)
    finished = Signal()


def prepare_kernels(splash: Splash | None = None, terminal=sys.stderr) -> float:
    """Run app.warmup on a background thread while the event loop keeps the splash painted.
    Returns the seconds it took; re-raises the warm-up's error."""
    cold = not warmup.cache_is_warm()
    relay = _Relay()
    loop = QEventLoop()
    outcome: dict = {}

    def report(done, total, label):
        relay.progress.emit(done, total, label)
        if cold and terminal is not None:
            print(f"perftscope: {warmup.MESSAGE} {done}/{total} {label}", file=terminal, flush=True)

    def work():
        try:
            outcome["seconds"] = warmup.warm(report)
        except BaseException as e:        # handed to the GUI thread, raised there
            outcome["error"] = e
        finally:
            relay.finished.emit()

    if splash is not None:
        splash.cold = cold
        relay.progress.connect(splash.show_step)
    relay.finished.connect(loop.quit)
    thread = threading.Thread(target=work, name="kernel-warmup", daemon=True)
    thread.start()
    loop.exec()                            # quit by the queued `finished`, even if already sent
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["seconds"]
