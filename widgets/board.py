"""The board: python-chess's SVG pieces, coordinates, flip, last move, click-or-drag moves
(legal moves only, from the core's generator), back/forward through the moves played,
undo/redo of every change to what the board holds, moves in SAN or UCI, and a FEN field
that validates as you type.

`BoardView` is the drawing and the mouse; `BoardPanel` adds history, navigation and the
FEN field around it.
"""
from __future__ import annotations

from dataclasses import replace

import chess
import chess.svg
from PySide6.QtCore import QByteArray, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QMenu, QSizePolicy, QStyle, QToolButton,
                               QVBoxLayout, QWidget)

from perftscope.core.errors import FenError
from perftscope.core.board.position import START_FEN, Position, parse_square

from . import palette
from .notation import san_line
from .overlays import Arrow, Badge, Glow, Outline, Ring, Tint, paint_layers

LIGHT, DARK = QColor(palette.LIGHT_SQUARE), QColor(palette.DARK_SQUARE)      # python-chess SVG board
LAST_LIGHT, LAST_DARK = QColor(palette.LAST_LIGHT), QColor(palette.LAST_DARK)
SELECTED = QColor(20, 85, 30, 110)
TARGET = QColor(20, 85, 30, 90)
DRAG_THRESHOLD = 4
# the FEN field's font shrinks from 13 to 10 px to show the whole FEN, then the field scrolls (its
# tooltip has the whole FEN): at 8 px and below it could not be read
FEN_FONT_PX = (13, 10)
UNDO_LIMIT = 200


_renderers: dict[str, QSvgRenderer] = {}


def piece_renderer(symbol: str) -> QSvgRenderer:
    """One QSvgRenderer per piece letter, from python-chess's SVG set."""
    if symbol not in _renderers:
        svg = chess.svg.piece(chess.Piece.from_symbol(symbol))
        _renderers[symbol] = QSvgRenderer(QByteArray(svg.encode()))
    return _renderers[symbol]


class BoardView(QWidget):
    """Draws a Position and turns clicks and drags into legal UCI moves (`moveMade`)."""
    moveMade = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.position = Position.from_fen(START_FEN)
        self.last_move: str | None = None
        self.flipped = False
        self.interactive = True
        self.layers = []
        self.selected: int | None = None
        self._targets: dict[int, dict[int, list[str]]] = {}   # from -> to -> [uci, ...]
        self._press: QPointF | None = None
        self._drag: QPointF | None = None
        # returns one of the UCI strings offered, or None; replaced in tests
        self.promotion_chooser = self._ask_promotion
        self.setMinimumSize(240, 240)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.key_actions = {}                 # Qt.Key -> callable, filled by the panel
        self.setFocusPolicy(Qt.ClickFocus)    # a click on the board lets F and the arrows reach it
        self.setMouseTracking(False)
        self._index_moves()

    # --- state -------------------------------------------------------------------
    def set_position(self, pos: Position, last_move: str | None = None):
        self.position, self.last_move, self.selected = pos, last_move, None
        self._index_moves()
        self.update()

    def set_flipped(self, flipped: bool):
        self.flipped = flipped
        self.update()

    def set_layers(self, layers):
        self.layers = list(layers)
        self.update()

    def targets_from(self, sq: int) -> list[int]:
        return sorted(self._targets.get(sq, {}))

    def _index_moves(self):
        self._targets = {}
        for uci in self.position.legal_moves():
            a, b = parse_square(uci[:2]), parse_square(uci[2:4])
            self._targets.setdefault(a, {}).setdefault(b, []).append(uci)
        # Chess960 castling is king takes rook; dropping the king on g1 / c1 castles too
        for uci, landing in self.position.castling_moves().items():
            self._targets[parse_square(uci[:2])].setdefault(landing, [uci])

    # --- geometry ----------------------------------------------------------------
    def sizeHint(self):
        return QSize(560, 560)

    def heightForWidth(self, w):
        return w

    def _square_size(self) -> float:
        return min(self.width(), self.height()) / 8.0

    def _origin(self) -> QPointF:
        s = self._square_size() * 8
        return QPointF((self.width() - s) / 2, (self.height() - s) / 2)

    def square_rect(self, sq: int) -> QRectF:
        s, o = self._square_size(), self._origin()
        col, row = (7 - (sq & 7), sq >> 3) if self.flipped else (sq & 7, 7 - (sq >> 3))
        return QRectF(o.x() + col * s, o.y() + row * s, s, s)

    def square_at(self, point: QPointF) -> int | None:
        s, o = self._square_size(), self._origin()
        col, row = int((point.x() - o.x()) // s), int((point.y() - o.y()) // s)
        if not (0 <= col < 8 and 0 <= row < 8):
            return None
        return (7 - col) + 8 * row if self.flipped else col + 8 * (7 - row)

    # --- painting ----------------------------------------------------------------
    def paintEvent(self, _event):
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        last = {parse_square(self.last_move[:2]), parse_square(self.last_move[2:4])} \
            if self.last_move else set()
        for sq in range(64):
            light = (sq & 7) % 2 != (sq >> 3) % 2
            color = (LAST_LIGHT if light else LAST_DARK) if sq in last else (LIGHT if light else DARK)
            p.fillRect(self.square_rect(sq), color)
        if self.selected is not None:
            p.fillRect(self.square_rect(self.selected), SELECTED)
        self._paint_coordinates(p)
        # tints and glows under the pieces, arrows and marks over them
        paint_layers(p, [_only(layer, Tint, Glow) for layer in self.layers], self.square_rect)
        for sq, piece in enumerate(self.position.board):
            if piece and not (self._drag is not None and sq == self.selected):
                piece_renderer(piece).render(p, self.square_rect(sq))
        self._paint_targets(p)
        paint_layers(p, [_only(layer, Outline, Ring, Arrow, Badge) for layer in self.layers], self.square_rect)
        if self._drag is not None and self.selected is not None:
            s = self._square_size()
            piece = self.position.board[self.selected]
            piece_renderer(piece).render(p, QRectF(self._drag.x() - s / 2, self._drag.y() - s / 2, s, s))
        p.end()

    def _paint_coordinates(self, p: QPainter):
        s = self._square_size()
        font = QFont(self.font())
        font.setPixelSize(max(8, int(s * 0.16)))
        font.setBold(True)
        p.setFont(font)
        bottom_rank = 7 if self.flipped else 0
        left_file = 7 if self.flipped else 0
        for f in range(8):
            sq = f + 8 * bottom_rank
            r = self.square_rect(sq)
            p.setPen(DARK if (sq & 7) % 2 != (sq >> 3) % 2 else LIGHT)
            p.drawText(r.adjusted(0, 0, -3, -1), Qt.AlignRight | Qt.AlignBottom, "abcdefgh"[f])
        for rank in range(8):
            sq = left_file + 8 * rank
            r = self.square_rect(sq)
            p.setPen(DARK if (sq & 7) % 2 != (sq >> 3) % 2 else LIGHT)
            p.drawText(r.adjusted(3, 1, 0, 0), Qt.AlignLeft | Qt.AlignTop, str(rank + 1))

    def _paint_targets(self, p: QPainter):
        if self.selected is None:
            return
        p.setPen(Qt.NoPen)
        p.setBrush(TARGET)
        for to in self._targets.get(self.selected, {}):
            r = self.square_rect(to)
            if self.position.board[to]:
                # occupied target: a ring in the corners, so the piece stays visible
                pen = QPen(TARGET, r.width() * 0.09)
                p.setPen(pen)
                p.setBrush(Qt.NoBrush)
                p.setClipRect(r)
                p.drawEllipse(r.center(), r.width() * 0.62, r.width() * 0.62)
                p.setClipping(False)
                p.setPen(Qt.NoPen)
                p.setBrush(TARGET)
            else:
                p.drawEllipse(r.center(), r.width() * 0.16, r.width() * 0.16)

    # --- keys and mouse -----------------------------------------------------------
    def keyPressEvent(self, e):
        action = self.key_actions.get(e.key()) if e.modifiers() == Qt.NoModifier else None
        if action is None:
            super().keyPressEvent(e)
            return
        action()

    def mousePressEvent(self, e):
        self.setFocus(Qt.MouseFocusReason)
        if not self.interactive or e.button() != Qt.LeftButton:
            return
        sq = self.square_at(e.position())
        if self.selected is not None and sq in self._targets.get(self.selected, {}):
            self._play(self.selected, sq)
            return
        if sq is not None and sq in self._targets:
            self.selected, self._press = sq, e.position()
        else:
            self.selected = None
        self.update()

    def mouseMoveEvent(self, e):
        if self._press is None or self.selected is None:
            return
        if self._drag is None and (e.position() - self._press).manhattanLength() < DRAG_THRESHOLD:
            return
        self._drag = e.position()
        self.update()

    def mouseReleaseEvent(self, e):
        dragged = self._drag is not None
        self._press = self._drag = None
        if dragged and self.selected is not None:
            sq = self.square_at(e.position())
            if sq in self._targets.get(self.selected, {}):
                self._play(self.selected, sq)
                return
            if sq != self.selected:
                self.selected = None
        self.update()

    def _play(self, a: int, b: int):
        choices = self._targets[a][b]
        uci = choices[0] if len(choices) == 1 else self.promotion_chooser(choices)
        self.selected = None
        self._press = self._drag = None
        self.update()
        if uci:
            self.moveMade.emit(uci)

    def _ask_promotion(self, choices: list[str]) -> str | None:
        menu = QMenu(self)
        names = {"q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight"}
        actions = {menu.addAction(names[u[4]]): u for u in sorted(choices, key=lambda u: "qrbn".index(u[4]))}
        chosen = menu.exec(self.cursor().pos())
        return actions.get(chosen)


def _only(layer, *kinds):
    """A copy of layer keeping only some shape kinds."""
    return replace(layer, shapes=[s for s in layer.shapes if isinstance(s, kinds)])


def _read_fen(fen: str, chess960: bool = False) -> tuple[Position, list[str]]:
    """(the position, what was dropped): a castling right or an en-passant square that cannot
    stand is dropped with a warning each, as every comparison drops it (core.engines.lenient_fen);
    FenError for the rest."""
    try:
        return Position.from_fen(fen, chess960=chess960), []
    except FenError:
        from perftscope.core.engines.lenient_fen import lenient_fen
        normal, warnings = lenient_fen(fen)          # the first error again where it cannot help
        return Position.from_fen(normal, chess960=chess960), warnings


class BoardPanel(QWidget):
    """BoardView with the moves played (back/forward), undo/redo, flip, and a FEN field."""
    positionChanged = Signal(object)      # the Position now shown
    # (FEN, FEN as written, warnings): a FEN loaded with a right or en-passant square that cannot
    # stand, which the engine under test is asked about as written (core.engines.lenient_fen)
    fenWritten = Signal(str, str, object)
    historyChanged = Signal()             # undo/redo availability may have changed

    def __init__(self, parent=None):
        super().__init__(parent)
        self.view = BoardView()
        self.positions: list[Position] = [self.view.position]
        self.moves: list[str] = []
        self.index = 0
        self.san = True                   # moves in SAN (False: UCI)
        self._undo: list[tuple] = []      # (positions, moves, index) before each change
        self._redo: list[tuple] = []

        self.fen_edit = QLineEdit()
        self.fen_edit.setPlaceholderText("FEN: paste a position and press Enter")
        self.fen_edit.setFont(QFont("DejaVu Sans Mono", 9))
        self.fen_error = QLabel()
        self.fen_error.setWordWrap(True)
        self.fen_error.setStyleSheet(f"color:{palette.ERROR};")
        self.fen_error.hide()
        self.moves_label = QLabel()
        self.moves_label.setWordWrap(True)
        self.moves_label.setTextFormat(Qt.RichText)
        self.moves_label.setStyleSheet("color:#333;")
        self.moves_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.caption = QLabel()            # what the board shows when it is not the user's own position
        self.caption.setStyleSheet(f"color:{palette.BLUE}; font-style:italic;")
        self.caption.hide()

        nav = QHBoxLayout()
        nav.setSpacing(2)
        self.buttons = {}
        style = self.style()
        for name, icon, tip, slot in (
                ("first", QStyle.SP_MediaSkipBackward, "First position (Home)", lambda: self.go(0)),
                ("back", QStyle.SP_MediaSeekBackward, "Back one move (Left)", lambda: self.go(self.index - 1)),
                ("forward", QStyle.SP_MediaSeekForward, "Forward one move (Right)",
                 lambda: self.go(self.index + 1)),
                ("last", QStyle.SP_MediaSkipForward, "Last move played (End)", lambda: self.go(len(self.moves))),
                ("flip", QStyle.SP_BrowserReload, "Flip the board (Ctrl+F; F once the board is clicked)",
                 self.flip)):
            b = QToolButton()
            b.setIcon(style.standardIcon(icon))
            b.setToolTip(tip)
            b.setAutoRaise(True)
            b.clicked.connect(slot)
            nav.addWidget(b)
            self.buttons[name] = b
        self.turn_label = QLabel()
        self.turn_label.setStyleSheet("font-weight:bold; padding:0 6px;")
        nav.addWidget(self.turn_label)
        nav.addStretch(1)

        # the board takes every pixel the panel has; the view draws it square and centred
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.view, 1)
        box.addLayout(nav)
        box.addWidget(self.moves_label)
        box.addWidget(self.caption)
        box.addWidget(self.fen_edit)
        box.addWidget(self.fen_error)
        box.addStretch(0)                 # what the square board leaves goes below the FEN

        self.view.moveMade.connect(self.play)
        self.fen_edit.textEdited.connect(self._validate)
        self.fen_edit.textChanged.connect(self._fit_fen)
        self.fen_edit.returnPressed.connect(self._load_typed)
        # plain keys act on the focused board (a click focuses it); Ctrl+F is the window's menu
        self.view.key_actions = {Qt.Key_Left: lambda: self.go(self.index - 1),
                                 Qt.Key_Right: lambda: self.go(self.index + 1),
                                 Qt.Key_Home: lambda: self.go(0),
                                 Qt.Key_End: lambda: self.go(len(self.moves)),
                                 Qt.Key_F: self.flip}
        self._show()

    @property
    def position(self) -> Position:
        return self.positions[self.index]

    def start(self) -> Position:
        """The first position, the moves played from it lead to the one shown."""
        return self.positions[0]

    def root(self) -> tuple[str, tuple[str, ...]]:
        """The first position's FEN and the moves played from it to the one shown."""
        return self.positions[0].fen(), tuple(self.moves[:self.index])

    def resizeEvent(self, event):
        # the board as large as the panel allows and square: a wide panel centres it, a tall
        # one keeps the controls right under it
        below = sum(w.sizeHint().height() for w in (self.fen_edit, self.moves_label, self.buttons["flip"]))
        below += sum(w.sizeHint().height() for w in (self.caption, self.fen_error) if not w.isHidden())
        below += 5 * self.layout().spacing()
        self.view.setMaximumHeight(max(self.view.minimumHeight(), min(event.size().width(),
                                                                      event.size().height() - below)))
        super().resizeEvent(event)
        self._fit_fen()

    def _fit_fen(self, *_):
        """The largest font from FEN_FONT_PX that shows the whole FEN; if none does, the smallest,
        and the field scrolls, the whole FEN in its tooltip."""
        room = self.fen_edit.width() - 14
        font = QFont(self.fen_edit.font())
        big, small = FEN_FONT_PX
        for px in range(big, small - 1, -1):
            font.setPixelSize(px)
            if QFontMetrics(font).horizontalAdvance(self.fen_edit.text()) <= room:
                break
        if font.pixelSize() != self.fen_edit.font().pixelSize():
            self.fen_edit.setFont(font)
        cut = QFontMetrics(font).horizontalAdvance(self.fen_edit.text()) > room
        self.fen_edit.setToolTip(self.fen_edit.text() if cut else "")

    # --- changes (each one can be undone) ----------------------------------------
    def _checkpoint(self):
        self._undo.append((list(self.positions), list(self.moves), self.index))
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self):
        """Back to what the board held before the last move played, FEN loaded or edit."""
        if self._undo:
            self._redo.append((self.positions, self.moves, self.index))
            self.positions, self.moves, self.index = self._undo.pop()
            self._show()

    def redo(self):
        if self._redo:
            self._undo.append((self.positions, self.moves, self.index))
            self.positions, self.moves, self.index = self._redo.pop()
            self._show()

    def set_position(self, pos: Position, moves=()):
        """Show pos with `moves` played from it; back/forward walk along them."""
        positions, played = [pos], []
        for uci in moves:
            positions.append(positions[-1].push(uci))
            played.append(uci)
        if (positions[-1].fen(), played) != (self.position.fen(), self.moves[:self.index]):
            self._checkpoint()
        self.positions, self.moves = positions, played
        self.index = len(self.moves)
        self._show()

    def set_fen(self, fen: str):
        """Load a FEN; FenError propagates to the caller (and is shown under the field). A
        castling right or en-passant square that cannot stand is dropped, as a comparison drops
        it, and said under the field."""
        try:
            pos, warnings = _read_fen(fen)
        except FenError as e:
            self._show_error(str(e))
            raise
        self.set_position(pos)
        self._show_error("; ".join(warnings), warning=True)
        self._written(pos, fen, warnings)

    def play(self, uci: str):
        """Play a legal move from the shown position, dropping any moves ahead of it."""
        child = self.position.push(uci)
        self._checkpoint()
        self.positions = self.positions[:self.index + 1] + [child]
        self.moves = self.moves[:self.index] + [uci]
        self.index += 1
        self._show()

    def go(self, index: int):
        index = max(0, min(index, len(self.moves)))
        if index != self.index:
            self.index = index
            self._show()

    def set_layers(self, layers):
        """Draw these overlay layers (widgets.overlays.Layer) over the pieces."""
        self.view.set_layers(layers)

    def set_caption(self, text: str):
        """Say what the board shows ("showing the divide row e2e4 f4e3"); "" hides it."""
        self.caption.setText(text)
        self.caption.setVisible(bool(text))

    def flip(self):
        self.view.set_flipped(not self.view.flipped)

    def set_san(self, san: bool):
        self.san = san
        self.moves_label.setText(self._moves_html())

    def _show(self):
        last = self.moves[self.index - 1] if self.index else None
        self.view.set_position(self.position, last)
        self.fen_edit.setText(self.position.fen())
        self.fen_edit.setCursorPosition(0)
        self._show_error("")
        self.buttons["back"].setEnabled(self.index > 0)
        self.buttons["first"].setEnabled(self.index > 0)
        self.buttons["forward"].setEnabled(self.index < len(self.moves))
        self.buttons["last"].setEnabled(self.index < len(self.moves))
        self.moves_label.setText(self._moves_html())
        white = self.position.white_to_move
        self.turn_label.setText(("○ White" if white else "● Black") + " to move")
        self.historyChanged.emit()
        self.positionChanged.emit(self.position)

    def move_texts(self) -> list[str]:
        """The moves played, as the notation toggle says."""
        if not self.san:
            return list(self.moves)
        try:
            return san_line(self.positions[0], self.moves)
        except ValueError:                 # a position python-chess reads differently: UCI is exact
            return list(self.moves)

    def _moves_html(self) -> str:
        if not self.moves:
            return "<i>no moves played</i>"
        parts = []
        first = self.positions[0]
        number = first.fullmove
        white = first.white_to_move
        for i, text in enumerate(self.move_texts()):
            prefix = f"{number}. " if white else (f"{number}… " if i == 0 else "")
            text = f"<b><u>{text}</u></b>" if i == self.index - 1 else text
            parts.append(prefix + text)
            if not white:
                number += 1
            white = not white
        return " ".join(parts)

    def _typed_position(self, text: str) -> tuple[Position, list[str]]:
        """A typed FEN reads as Chess960 while the board shows Chess960 (the Chess960 box is
        ticked), else as standard chess unless it needs Chess960."""
        return _read_fen(text.strip(), chess960=self.position.chess960)

    def _validate(self, text: str) -> bool:
        try:
            _, warnings = self._typed_position(text)
        except FenError as e:
            self._show_error(str(e))
            return False
        self._show_error("; ".join(warnings), warning=True)
        return True

    def _load_typed(self):
        text = self.fen_edit.text().strip()
        if self._validate(text):
            pos, warnings = self._typed_position(text)
            self.set_position(pos)
            self._written(pos, text, warnings)

    def _written(self, pos: Position, text: str, warnings):
        if warnings:
            from perftscope.core.engines.lenient_fen import fen_as_written
            self.fenWritten.emit(pos.fen(), fen_as_written(text), tuple(warnings))

    def _show_error(self, message: str, warning: bool = False):
        """Under the FEN field: what is wrong with it (red), or what was dropped from it."""
        self.fen_error.setText(message)
        self.fen_error.setStyleSheet(f"color:{palette.YELLOW if warning else palette.ERROR};")
        self.fen_error.setVisible(bool(message))
        self.fen_edit.setStyleSheet("QLineEdit { border: 1px solid #c02020; background:#fff4f4; }"
                                    if message and not warning else "")
