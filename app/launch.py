"""The first seconds of `perftscope gui`: a splash at once, the window as soon as Qt has built
it, and the kernels prepared behind it.

On an empty compile cache the kernels take tens of seconds of CPU to compile. The window does
not wait for them: app.warmup.Preparation compiles them in helper processes from the first
moment (two cores: the window's own start-up does not slow them) and loads each group here
when it is done. Meanwhile python-chess answers the board's rules (legal moves, check, the
position after a move), so the board, the FEN field, paste, the library, the editor, and
divides and the finder with an engine against Stockfish or python-chess work at once; what
needs a kernel that is not loaded yet says so in place and enables itself when it is. No
perft run starts before its kernels are loaded, so no run's clock includes a compile.
"""
from __future__ import annotations

import sys
import threading
import time

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QLabel

from . import warmup

SPLASH_W, SPLASH_H = 520, 160


class Splash(QLabel):
    """The perftscope icon and a title while Qt builds the window. A QLabel with the
    splash-screen window flags, not a QSplashScreen: that one's show() waits up to a second
    for the window manager to report the window exposed, the very second it is there to fill."""

    def __init__(self):
        super().__init__()
        self.setWindowFlags(Qt.SplashScreen | Qt.FramelessWindowHint | Qt.WindowStaysOnTopHint)
        self.setFixedSize(SPLASH_W, SPLASH_H)
        screen = self.screen().availableGeometry()
        self.move(screen.center().x() - SPLASH_W // 2, screen.center().y() - SPLASH_H // 2)
        self.setWindowTitle("perftscope")
        self._draw()

    def finish(self, window):
        """The window is up: the splash goes."""
        self.close()

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
                   "starting…")
        p.end()
        self.setPixmap(pm)
        self.repaint()


class KernelNews(QObject):
    """The preparation's news, carried from its thread to the GUI thread (queued signals)."""
    progress = Signal(int, int, str)
    ready = Signal(str)
    failed = Signal(str, str)


def start_preparation(terminal=sys.stderr) -> tuple[warmup.Preparation, KernelNews]:
    """Start preparing every kernel the window calls, behind whatever comes next; one line per
    step on the terminal when that means compiling."""
    news = KernelNews()
    started = time.monotonic()
    preparation = None

    def progress(done, total, label):
        news.progress.emit(done, total, label)
        if preparation.cold and terminal is not None:
            print(f"perftscope: {warmup.MESSAGE} {done}/{total} {label} "
                  f"({time.monotonic() - started:.0f} s)", file=terminal, flush=True)

    # nothing is loaded into this process before the window is shown (attach)
    preparation = warmup.Preparation(on_progress=progress, on_ready=news.ready.emit,
                                     on_error=news.failed.emit, hold=threading.Event())
    warmup.begin(preparation)
    return preparation, news


def preparing_text(preparation: warmup.Preparation) -> str:
    done, total = preparation.progress()
    return f"preparing perft: {done} of {total} kernels"


def attach(window, preparation: warmup.Preparation, news: KernelNews):
    """Show the preparation in the window: the run panel says it is preparing and enables
    itself when the pool's kernels are loaded; the overlays appear when theirs are."""
    panel = window.run_panel

    def show_progress(*_):
        if not preparation.ready("pool"):
            panel.set_preparing(preparing_text(preparation))

    def on_ready(name):
        if name == "pool":
            panel.set_preparing(None)
        elif name == "analysis":
            window.main_model.reanalyse()
        show_progress()

    def on_failed(name, message):
        window.main_model.say(f"perftscope could not prepare the {warmup.STEPS[name].label}: {message}",
                              error=True)

    news.progress.connect(show_progress)
    news.ready.connect(on_ready)
    news.failed.connect(on_failed)
    window.destroyed.connect(preparation.stop)
    # what happened before the connections were made (applying it twice is harmless)
    for name in preparation.steps:
        if preparation.ready(name):
            on_ready(name)
    show_progress()


def window_shown(app, preparation: warmup.Preparation):
    """The window is on screen: paint it, then let the kernels be loaded into this process."""
    app.processEvents()
    if preparation.hold is not None:
        preparation.hold.set()


def when_ready(preparation: warmup.Preparation, news: KernelNews, name: str, action):
    """Call action() on the GUI thread once step `name` is loaded (at once if it is)."""
    if preparation.ready(name):
        action()
        return

    def check(ready_name):
        if ready_name == name:
            news.ready.disconnect(check)
            action()
    news.ready.connect(check)
    if preparation.ready(name):      # it became ready before the connection was made
        news.ready.disconnect(check)
        action()


def wait_in_event_loop(preparation: warmup.Preparation, seconds: float):
    """Keep the event loop running until every step is ready (or failed), at most `seconds`."""
    from PySide6.QtCore import QEventLoop
    loop = QEventLoop()
    deadline = time.monotonic() + seconds
    while not preparation.done.is_set() and time.monotonic() < deadline:
        QTimer.singleShot(50, loop.quit)
        loop.exec()
