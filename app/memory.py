"""What the window remembers between sessions, with QSettings: its size and splitters, the
overlay layers shown, the notation, the Divide depth, the run panel's depth, workers and table size, and the
run settings of the Test engine tab (suite or fuzz, its numbers), of the Race tab (engines,
yardsticks, positions, budget) and of the Suspect lines tab (source folder, depth, seconds, runs). (The engine selection remembers itself:
widgets.reference.EngineSelection.)
"""
from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSplitter

from perftscope.widgets.overlays import LAYERS

GEOMETRY_KEY = "window/geometry"
SPLITTERS_KEY = "window/splitters/"
OVERLAYS_KEY = "board/overlays"
RUN_KEYS = ("run/depth", "run/workers", "run/hash_exp")
DIVIDE_DEPTH_KEY = "divide/depth"
# panels whose choices() are kept as one JSON text each (a list of one item survives QSettings)
PANEL_KEYS = {"test_engine": "test_engine/choices", "race": "race/choices", "suspects": "suspects/choices"}


class WindowMemory:
    """`window` the QMainWindow (its geometry, its named splitters), `legend` the overlay
    legend, `notation` app.everyday.Notation, `run_panel` the RunPanel, `panels` the panels
    with choices()/set_choices(dict) by their PANEL_KEYS name (the Test engine, Race and Suspect
    lines tabs)."""

    def __init__(self, settings, window, legend, notation, run_panel, panels=None, divide_tree=None):
        self.settings, self.window, self.legend, self.notation, self.run_panel = \
            settings, window, legend, notation, run_panel
        self.divide_tree = divide_tree        # its depth box (depth(), set_depth(int))
        self.panels = dict(panels or {})
        self.restored: set[str] = set()       # the splitters put back as they were left

    def restore_overlays(self):
        """The layers shown last time ("checkers,pins", "" for none); from now on every change
        is remembered."""
        remembered = self.settings.value(OVERLAYS_KEY)
        if isinstance(remembered, str):
            on = set(remembered.split(","))
            for key, *_ in LAYERS:
                self.legend.set_enabled(key, key in on)
        self.legend.toggled.connect(
            lambda: self.settings.setValue(OVERLAYS_KEY, ",".join(sorted(self.legend.enabled()))))

    def _splitters(self) -> dict[str, QSplitter]:
        return {s.objectName(): s for s in self.window.findChildren(QSplitter) if s.objectName()}

    def restore(self):
        s = self.settings
        geometry = s.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.window.restoreGeometry(geometry)
        fit_on_screen(self.window)
        for name, splitter in self._splitters().items():
            state = s.value(SPLITTERS_KEY + name)
            if isinstance(state, QByteArray) and splitter.restoreState(state):
                self.restored.add(name)
        self.notation.restore()
        depth, workers, hash_exp = (s.value(k) for k in RUN_KEYS)
        self.run_panel.set_settings(depth=None if depth is None else int(depth),
                                    workers=None if workers is None else int(workers),
                                    hash_exp=None if hash_exp is None else int(hash_exp))
        depth = s.value(DIVIDE_DEPTH_KEY)
        if self.divide_tree is not None and depth is not None:
            try:
                self.divide_tree.set_depth(int(depth))
            except (TypeError, ValueError):
                pass            # written by hand or another version: the box keeps its default
        for name, panel in self.panels.items():
            remembered = s.value(PANEL_KEYS[name])
            try:
                choices = json.loads(remembered) if isinstance(remembered, str) else None
                if isinstance(choices, dict):
                    panel.set_choices(choices)
            except (ValueError, TypeError, KeyError):
                pass            # settings written by another version: the panel keeps its defaults

    def remember(self):
        s = self.settings
        s.setValue(GEOMETRY_KEY, self.window.saveGeometry())
        for name, splitter in self._splitters().items():
            s.setValue(SPLITTERS_KEY + name, splitter.saveState())
        for key, value in zip(RUN_KEYS, self.run_panel.settings()):
            s.setValue(key, value)
        if self.divide_tree is not None:
            s.setValue(DIVIDE_DEPTH_KEY, self.divide_tree.depth())
        for name, panel in self.panels.items():
            s.setValue(PANEL_KEYS[name], json.dumps(panel.choices()))
        s.sync()


def fit_on_screen(window, area: QRect | None = None) -> bool:
    """Keep `window` whole inside the screen's available area (`area`; default: its screen's, the
    desktop's panels left out): no larger than it, moved back inside it, so the status bar is
    never below the screen's edge (a first launch's default size on a small screen, a geometry
    saved on a larger one). True when it was resized."""
    if area is None:
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return False
        area = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()   # title bar, borders
    width = max(window.minimumWidth(), min(inner.width(), area.width() - extra_w))
    height = max(window.minimumHeight(), min(inner.height(), area.height() - extra_h))
    resized = (width, height) != (inner.width(), inner.height())
    if resized:
        window.resize(width, height)
    x = min(max(frame.x(), area.x()), area.x() + area.width() - width - extra_w)
    y = min(max(frame.y(), area.y()), area.y() + area.height() - height - extra_h)
    if (x, y) != (frame.x(), frame.y()):
        window.move(max(x, area.x()), max(y, area.y()))
    return resized
