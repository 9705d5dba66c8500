"""What a result belongs to: the position (root FEN and the moves played from it) and the
engines, shown above the result; greyed with "computed for another position" and a
"Show that position" button once the board has moved elsewhere.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from . import palette


def describe(fen: str, moves=(), engines: str = "") -> str:
    """'8/2p5/… w - - 0 1 + e2e4 e7e5 · my-perft.sh against core' in HTML."""
    line = f"<tt>{html.escape(fen)}</tt>"
    if moves:
        line += f" + <b>{html.escape(' '.join(moves))}</b>"
    return line + (f" · {html.escape(engines)}" if engines else "")


class ContextBar(QWidget):
    showRequested = Signal()

    def __init__(self, hint: str = "", parent=None):
        super().__init__(parent)
        self.label = QLabel(hint)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.RichText)
        self.label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.show_button = QPushButton("Show that position")
        self.show_button.setToolTip("Put the position this result was computed for back on the board")
        self.show_button.hide()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.show_button, 0, Qt.AlignTop)
        self.show_button.clicked.connect(self.showRequested)
        self._about = ""
        self._subject = None
        self.stale = False
        self.other_engines = False    # the selector holds other engines than the result's

    def set_about(self, fen: str, moves=(), engines: str = ""):
        """The result below is for this position and these engines."""
        self._about = describe(fen, moves, engines)
        self.set_stale(False)

    def watch(self, state):
        """Say what a tab's long work belongs to: its JobState's Subject (app.model.JobState), told
        there once, shown here whenever it names another one."""
        state.changed.connect(lambda: self.show_subject(state.subject))

    def show_subject(self, subject):
        """The result below belongs to `subject` (a core.job.Subject; None: nothing new), its `what`
        said after its engines ("core alone (no engine chosen)")."""
        if subject is None or subject == self._subject:
            return
        self._subject = subject
        self.set_about(subject.fen or "", subject.moves, " ".join(w for w in (subject.engines_line(), subject.what) if w))

    def clear(self, hint: str = ""):
        self._about = ""
        self.stale = False
        self.show_button.hide()
        self.label.setStyleSheet("")
        self.label.setText(hint)

    def set_stale(self, stale: bool):
        """Grey the result: the board shows a position it was not computed for."""
        if not self._about:
            return
        self.stale = stale
        self.show_button.setVisible(stale)
        self._show()

    def set_other_engines(self, other: bool):
        """Mark the result as other engines' than the selector holds (it keeps its own: a row
        expanded or a Which line? on it uses them)."""
        self.other_engines = other
        if self._about:
            self._show()

    def _show(self):
        other = " — <b>not the engines chosen now</b>" if self.other_engines else ""
        if self.stale or self.other_engines:
            self.label.setStyleSheet(f"color:{palette.STALE}; background:{palette.STALE_BG};")
        else:
            self.label.setStyleSheet("")
        self.label.setText((f"<b>computed for another position</b> — {self._about}" if self.stale
                            else f"computed for {self._about}") + other)

    def text(self) -> str:
        return self.label.text()


STALE_WORDS = "computed for another position — "


def grey_caption(label, stale: bool):
    """Grey a result's one-line caption (a QLabel saying what it belongs to) while the board shows
    another position, its words kept after STALE_WORDS; as it was once the board is back."""
    text = label.text()
    fresh = text[len(STALE_WORDS):] if text.startswith(STALE_WORDS) else text
    if not fresh:
        return
    label.setText(STALE_WORDS + fresh if stale else fresh)
    label.setStyleSheet(f"color:{palette.STALE}; background:{palette.STALE_BG};" if stale
                        else f"color:{palette.MUTED}")
