"""`perftscope gui`: the desktop workbench."""
from __future__ import annotations

import os
import sys


def register(sub):
    g = sub.add_parser("gui", help="open the desktop workbench")
    g.add_argument("--fen", default=None, help="position to open")
    g.set_defaults(run=run_gui)


def has_display() -> bool:
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or \
        os.environ.get("QT_QPA_PLATFORM", "") in ("offscreen", "minimal", "vnc")


def run_gui(args) -> int:
    if not has_display():
        print("perftscope: error: no display found (DISPLAY is not set): run it in a desktop session, "
              "or under a virtual one with `xvfb-run -a perftscope gui`", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication.instance() or QApplication(sys.argv[:1])
    label = QLabel("perftscope: the workbench window is being built")
    label.resize(480, 120)
    label.show()
    return app.exec()
