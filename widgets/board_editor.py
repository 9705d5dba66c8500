"""Setting up a position by hand: a palette of pieces to drag (or pick and click) onto the
board, clear, start position, side to move, castling rights and the en-passant square.

What is being built need not be a legal position until OK: the FEN it makes is checked by
core.board.position at every change, and its field-by-field message (the same the FEN box shows)
says what the core cannot take; OK stays disabled until there is none.
"""
from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QDrag, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QGridLayout,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QSizePolicy, QToolButton,
                               QVBoxLayout, QWidget)

from perftscope.core.errors import FenError
from perftscope.core.board.position import START_FEN, Position, placement

from . import palette as colours          # `palette` here is the editor's pieces
from .board import DARK, LIGHT, piece_renderer

PIECES = "KQRBNPkqrbnp"
ERASE = ""                                 # the palette's empty square
MIME = "application/x-perftscope-piece"
EP_SQUARES = ["-"] + [f"{f}{r}" for r in "36" for f in "abcdefgh"]
ERROR_LINES = 3                            # the message's room under the board (its tooltip has it all)


def piece_icon(symbol: str, size: int = 40) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(Qt.transparent)
    if symbol:
        p = QPainter(pm)
        piece_renderer(symbol).render(p, QRectF(0, 0, size, size))
        p.end()
    return QIcon(pm)


class EditorBoard(QWidget):
    """64 squares that take pieces: a click puts the palette's piece (right-click empties the
    square), a drop puts the dragged one, and a piece dragged off the board is removed."""
    changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.board = [""] * 64
        self.current = "P"                 # the palette's piece for clicks; ERASE empties
        self.flipped = False
        self.setAcceptDrops(True)
        self.setMinimumSize(320, 320)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def sizeHint(self):
        return QSize(440, 440)

    def _side(self) -> float:
        return min(self.width(), self.height()) / 8.0

    def square_rect(self, sq: int) -> QRectF:
        s = self._side()
        ox, oy = (self.width() - 8 * s) / 2, (self.height() - 8 * s) / 2
        col, row = (7 - (sq & 7), sq >> 3) if self.flipped else (sq & 7, 7 - (sq >> 3))
        return QRectF(ox + col * s, oy + row * s, s, s)

    def square_at(self, point) -> int | None:
        for sq in range(64):
            if self.square_rect(sq).contains(point):
                return sq
        return None

    def put(self, sq: int, piece: str):
        if self.board[sq] != piece:
            self.board[sq] = piece
            self.update()
            self.changed.emit()

    def paintEvent(self, _event):
        p = QPainter(self)
        for sq in range(64):
            light = (sq & 7) % 2 != (sq >> 3) % 2
            p.fillRect(self.square_rect(sq), LIGHT if light else DARK)
            if self.board[sq]:
                piece_renderer(self.board[sq]).render(p, self.square_rect(sq))
        p.end()

    def mousePressEvent(self, e):
        sq = self.square_at(e.position())
        if sq is None:
            return
        if e.button() == Qt.RightButton:
            self.put(sq, ERASE)
        elif e.button() == Qt.LeftButton:
            self._press = (sq, e.position())

    def mouseMoveEvent(self, e):
        press = getattr(self, "_press", None)
        if press is None or (e.position() - press[1]).manhattanLength() < 6 or not self.board[press[0]]:
            return
        sq, self._press = press[0], None
        piece = self.board[sq]
        self.put(sq, ERASE)                  # lifted: dropped elsewhere, or off the board and gone
        start_drag(self, piece)

    def mouseReleaseEvent(self, e):
        press, self._press = getattr(self, "_press", None), None
        if press is not None and e.button() == Qt.LeftButton:
            sq = press[0]
            # clicking the palette's piece onto itself empties the square: a quick toggle
            self.put(sq, ERASE if self.board[sq] == self.current else self.current)

    def dragEnterEvent(self, e):
        if e.mimeData().hasFormat(MIME):
            e.acceptProposedAction()

    dragMoveEvent = dragEnterEvent

    def dropEvent(self, e):
        sq = self.square_at(e.position())
        if sq is not None and e.mimeData().hasFormat(MIME):
            self.put(sq, bytes(e.mimeData().data(MIME)).decode())
            e.acceptProposedAction()


def start_drag(source: QWidget, piece: str):
    mime = QMimeData()
    mime.setData(MIME, piece.encode())
    drag = QDrag(source)
    drag.setMimeData(mime)
    drag.setPixmap(piece_icon(piece, 48).pixmap(48, 48))
    drag.setHotSpot(QPoint(24, 24))
    drag.exec(Qt.CopyAction)


class PaletteButton(QToolButton):
    """A piece of the palette: click to pick it for clicks on the board, or drag it there."""

    def __init__(self, piece: str):
        super().__init__()
        self.piece = piece
        self.setCheckable(True)
        self.setIcon(piece_icon(piece))
        self.setIconSize(QSize(36, 36))
        names = dict(k="king", q="queen", r="rook", b="bishop", n="knight", p="pawn")
        self.setToolTip(f"{'white' if piece.isupper() else 'black'} {names[piece.lower()]}" if piece
                        else "empty square")

    def mousePressEvent(self, e):
        self._start = e.position()
        super().mousePressEvent(e)

    def mouseMoveEvent(self, e):
        if self.piece and (e.position() - self._start).manhattanLength() > 6:
            self.setDown(False)
            start_drag(self, self.piece)
            return
        super().mouseMoveEvent(e)


class BoardEditor(QDialog):
    """Edit a position; `fen()` is the result once accepted."""

    def __init__(self, fen: str = START_FEN, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Edit position")
        self.board = EditorBoard()
        self.palette = QButtonGroup(self)
        self.palette.setExclusive(True)
        grid = QGridLayout()
        grid.setSpacing(2)
        for i, piece in enumerate([*PIECES, ERASE]):
            b = PaletteButton(piece)
            self.palette.addButton(b, i)
            if piece:
                grid.addWidget(b, i % 6, i // 6)
            else:
                b.setText("✕ empty")
                b.setToolButtonStyle(Qt.ToolButtonTextOnly)
                grid.addWidget(b, 6, 0, 1, 2)
        self.palette.buttons()[PIECES.index("P")].setChecked(True)
        self.palette.buttonToggled.connect(self._picked)

        self.side = QComboBox()
        self.side.addItem("White to move", "w")
        self.side.addItem("Black to move", "b")
        self.castling = {c: QCheckBox(label) for c, label in
                         (("K", "White O-O"), ("Q", "White O-O-O"), ("k", "Black O-O"), ("q", "Black O-O-O"))}
        self.ep = QComboBox()
        self.ep.addItems(EP_SQUARES)
        self.ep.setToolTip("the square a pawn skipped with a double push on the move just made")
        clear = QPushButton("Clear")
        start = QPushButton("Start position")
        self.fen_line = QLineEdit()
        self.fen_line.setReadOnly(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.error.setStyleSheet(f"color:{colours.ERROR};")
        # its room is kept while there is no message: the board must not move under a drag when
        # one appears (a drop would land a square off)
        self.error.setFixedHeight(ERROR_LINES * self.error.fontMetrics().lineSpacing() + 2)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)

        side_box = QVBoxLayout()
        side_box.addLayout(grid)
        side_box.addWidget(self.side)
        for box in self.castling.values():
            side_box.addWidget(box)
        ep_row = QHBoxLayout()
        ep_row.addWidget(QLabel("En passant"))
        ep_row.addWidget(self.ep)
        side_box.addLayout(ep_row)
        side_box.addWidget(clear)
        side_box.addWidget(start)
        side_box.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.board, 1)
        top.addLayout(side_box)
        box = QVBoxLayout(self)
        box.addLayout(top, 1)
        box.addWidget(self.fen_line)
        box.addWidget(self.error)
        box.addWidget(self.buttons)

        clear.clicked.connect(self.clear)
        start.clicked.connect(lambda: self.load(START_FEN))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.board.changed.connect(self._check)
        self.side.currentIndexChanged.connect(self._check)
        self.ep.currentIndexChanged.connect(self._check)
        for b in self.castling.values():
            b.toggled.connect(self._check)
        self.load(fen)

    def _picked(self, button, checked):
        if checked:
            self.board.current = button.piece

    def load(self, fen: str):
        pos = Position.from_fen(fen)
        self._loading = True
        self.board.board = list(pos.board)
        self.board.update()
        self.side.setCurrentIndex(0 if pos.white_to_move else 1)
        for c, box in self.castling.items():
            box.setChecked(c in (pos.castling or ""))
        self.ep.setCurrentText(pos.fen().split()[3])
        self._loading = False
        self._check()

    def clear(self):
        self._loading = True
        self.board.board = [""] * 64
        self.board.update()
        for box in self.castling.values():
            box.setChecked(False)
        self.ep.setCurrentIndex(0)
        self._loading = False
        self._check()

    def fen(self) -> str:
        rights = "".join(c for c, box in self.castling.items() if box.isChecked()) or "-"
        return f"{placement(self.board.board)} {self.side.currentData()} {rights} {self.ep.currentText()} 0 1"

    def problem(self) -> str:
        """What core.board.position says is wrong with the FEN being built, '' when nothing."""
        try:
            Position.from_fen(self.fen())
        except FenError as e:
            return str(e)
        return ""

    def _check(self, *_):
        if getattr(self, "_loading", False):
            return
        self.fen_line.setText(self.fen())
        message = self.problem()
        self.error.setText(message)
        self.error.setToolTip(message)
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not message)

    def accept(self):
        if not self.problem():               # never hand back a position the core refuses
            super().accept()
