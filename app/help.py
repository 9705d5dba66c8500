"""Help (a short guide and the keyboard shortcuts) and About (what this copy is running on).

The shortcut table is read from the window's own actions, so it cannot drift from the menus.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

GUIDE = """
<h2>perftscope</h2>
<p>Your engine's perft is off. perftscope finds the position and the move where it goes wrong.</p>
<ol>
<li><b>Set up a position</b>: pick one in the <i>Position library</i>, paste a FEN (Ctrl+V), type it
in the FEN field under the board, play moves on the board, or set it up by hand in
<i>Edit → Edit position…</i> (Ctrl+E).</li>
<li><b>Name your engine and the reference</b>: the <i>Engine</i> selector is the engine you are
debugging, the <i>Reference</i> the truth it is compared with (the core by default). Either can be
any of: %(kinds)s. Each call has a timeout.</li>
<li><b>Divide</b> at a depth: every root move with your engine's count, the reference's and the
verdict. Expand a marked row to divide below it, or press <b>Find first mismatch</b> and let
perftscope descend to the position where the move lists differ. A move your engine generates and
should not is <i>illegal</i>; one it fails to generate is <i>not generated</i>; each comes with the
reason.</li>
<li><b>Test engine</b> tab: your engine on a whole suite or in a fuzz session of edge positions and
random play. Findings appear as they are found, alike ones merged with a count, each with its class
and minimal position; a click opens one in the divide tree. A crash or a hang is a finding too.</li>
<li><b>Look at the overlays</b>: checkers, pins, discovered-check candidates, attacked squares, king
zones and en-passant verdicts, read from the generator's own masks.</li>
<li><b>Perft run</b>: a counting run on every core with live graphs, to see how fast the core is.</li>
<li><b>Race</b>: your engines on the standard positions beside the core and Stockfish, nodes per
second as each depth finishes, every count checked against the core (a wrong one is shown as
<i>illegal</i> or <i>not generated</i>); export the table as Markdown for your README.</li>
</ol>
<p>Right-click a divide row to copy its FEN, the FEN before its move, the move path with its root
FEN or the move itself, or to make it the new root; <i>Divide → Copy divide</i> gives Stockfish's
<code>go perft</code> format, and the divide can be saved as CSV or JSON with each row's verdict and
reason.</p>
"""



def kinds_html() -> str:
    """Every kind of engine (core.engines.spec.KINDS), as the guide lists them."""
    from perftscope.core.engines.spec import KINDS
    return "; ".join(f"<code>{html.escape(k.written)}</code> ({html.escape(k.about)})" for k in KINDS)


GUIDE = GUIDE % {"kinds": kinds_html()}

EXTRA_KEYS = (("Left / Right", "back / forward one move (board focused)"),
              ("Home / End", "first position / last move played (board focused)"),
              ("F", "flip the board (board focused)"),
              ("Enter in the FEN field", "load the FEN typed"))


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(keys, what) for every menu action of the window that has a shortcut."""
    rows = []
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        for action in menu.actions() if menu else ():
            keys = action.shortcut().toString(QKeySequence.NativeText)
            if keys:
                rows.append((keys, f"{menu_action.text()} → {action.text()}".replace("&", "")))
    return rows + list(EXTRA_KEYS)


def help_html(window) -> str:
    table = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>"
                    for k, v in shortcut_rows(window))
    return GUIDE + f"<h3>Keyboard shortcuts</h3><table cellspacing=4>{table}</table>"


def about_rows() -> list[tuple[str, str]]:
    from importlib.metadata import PackageNotFoundError, version

    import chess
    import numba
    import PySide6
    from PySide6.QtCore import qVersion

    from perftscope.core import kernels

    try:
        ours = version("perftscope")
    except PackageNotFoundError:
        ours = "not installed (run from the source tree)"
    return [("perftscope", ours),
            ("numba", numba.__version__),
            ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
            ("python-chess", chess.__version__),
            ("slider attacks", f"{kernels.SLIDER_MODE} ({'BMI2 PEXT' if kernels.SLIDER_MODE == 'pext' else 'magic bitboards'})"),
            ("compile cache", str(kernels.CACHE_DIR))]


def about_html() -> str:
    rows = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>"
                   for k, v in about_rows())
    return ("<h2>perftscope</h2><p>A workbench for people who write chess move generators.</p>"
            f"<table cellspacing=4>{rows}</table>")


def show_text(parent, title: str, text: str, size=(640, 560)) -> QDialog:
    """A non-modal dialog with rich text and a Close button; returned so tests can read it."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setAttribute(Qt.WA_DeleteOnClose)
    browser = QTextBrowser()
    browser.setOpenExternalLinks(True)
    browser.setHtml(text)
    buttons = QDialogButtonBox(QDialogButtonBox.Close)
    buttons.rejected.connect(dialog.close)
    box = QVBoxLayout(dialog)
    box.addWidget(browser)
    box.addWidget(buttons)
    dialog.browser = browser
    dialog.resize(*size)
    dialog.show()
    return dialog
