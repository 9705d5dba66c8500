"""Overlay layers over the board: what core.board.analysis found, drawn the way chess players
already read it (lichess / python-chess colours), each layer toggled from a legend.

`layers_from_analysis(analysis)` turns an Analysis into plain shapes (testable without
painting); `paint_layers` draws them; `OverlayLegend` is the toggle-and-explain panel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QRadialGradient
from PySide6.QtWidgets import QCheckBox, QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from perftscope.core.board.position import parse_square, square_name

from . import palette

# Arrow colours of lichess / python-chess SVG; alpha keeps the pieces readable under them.
RED, BLUE, YELLOW, GREEN = palette.RED, palette.BLUE, palette.YELLOW, palette.GREEN
ATTACK_TINT = QColor(220, 30, 30, 55)
ZONE = "#8a4500"


# --- shapes: plain data, so tests can read a layer without painting it ----------------
@dataclass(frozen=True)
class Arrow:
    tail: int
    head: int
    color: str
    dashed: bool = False


@dataclass(frozen=True)
class Tint:
    square: int
    color: QColor


@dataclass(frozen=True)
class Glow:
    square: int
    color: str


@dataclass(frozen=True)
class Ring:
    square: int
    color: str


@dataclass(frozen=True)
class Outline:
    """A thin frame inside a square: the extent of a region (a king zone)."""
    square: int
    color: str


@dataclass(frozen=True)
class Badge:
    """A short text in a square's corner: counts, and marks that do not rely on colour."""
    square: int
    text: str
    color: str
    corner: str = "top-right"      # or "bottom-left", to keep an arrow's head visible


@dataclass
class Layer:
    key: str
    title: str
    color: str
    shapes: list = field(default_factory=list)
    notes: list = field(default_factory=list)     # sentences shown under the legend entry

    def squares(self, kind) -> set:
        return {getattr(s, "square", None) for s in self.shapes if isinstance(s, kind)}

    def arrows(self) -> set:
        return {(s.tail, s.head) for s in self.shapes if isinstance(s, Arrow)}


# key, title, colour, on by default
LAYERS = (
    ("checkers", "Checkers", RED, True),
    ("pins", "Pins", BLUE, True),
    ("discovered", "Discovered-check candidates", YELLOW, False),
    ("attacked", "Squares the opponent attacks", "#dc2828", False),
    ("king_zone", "King zones (attackers per square)", "#b35900", False),
    ("ep", "En passant", GREEN, True),
)


def layers_from_analysis(analysis) -> dict[str, Layer]:
    """One Layer per entry of LAYERS, from a core.board.analysis.Analysis (real squares)."""
    layers = {key: Layer(key, title, color) for key, title, color, _ in LAYERS}
    us = "white" if analysis.fen.split()[1] == "w" else "black"
    own_king = analysis.king_zone[us].king

    lay = layers["checkers"]
    checkers = list(analysis.checkers)
    for sq in checkers:
        lay.shapes.append(Arrow(sq, own_king, RED))
    if checkers:
        lay.shapes.append(Glow(own_king, "#ff0000"))
        kind = "double check" if len(checkers) > 1 else "check"
        lay.notes.append(f"{kind} from {', '.join(square_name(s) for s in checkers)}")

    lay = layers["pins"]
    for pin in analysis.pinned:
        # from the pinner through the pinned piece to the king it shields
        lay.shapes.append(Arrow(pin.pinner, own_king, BLUE))
        lay.shapes.append(Ring(pin.square, BLUE))
        lay.notes.append(f"{square_name(pin.square)} pinned by {square_name(pin.pinner)}")

    lay = layers["discovered"]
    for shield in analysis.discovered:
        # the opponent's piece alone between its slider and our king: moving it checks us
        lay.shapes.append(Arrow(shield.slider, own_king, YELLOW))
        lay.shapes.append(Ring(shield.square, YELLOW))
        lay.notes.append(f"{square_name(shield.square)} moving away uncovers "
                         f"{square_name(shield.slider)} on the {us} king")

    lay = layers["attacked"]
    for sq in analysis.attacked:
        lay.shapes.append(Tint(sq, ATTACK_TINT))
    if analysis.attacked:
        lay.notes.append(f"{len(analysis.attacked)} squares attacked by the side not to move (our king lifted)")

    lay = layers["king_zone"]
    for side, zone in analysis.king_zone.items():
        counts = _zone_counts(zone)
        for sq, n in counts.items():
            lay.shapes.append(Outline(sq, ZONE))
            if n:
                lay.shapes.append(Tint(sq, QColor(179, 89, 0, min(60 + 45 * n, 200))))
                lay.shapes.append(Badge(sq, str(n), "#7a1f00"))
        attacked = sum(1 for n in counts.values() if n)
        lay.notes.append(f"{side} king zone: {attacked} of {len(counts)} squares attacked")

    lay = layers["ep"]
    if analysis.ep is not None:
        for cap in analysis.ep.captures:
            tail, head = _uci_squares(cap.move)
            color = GREEN if cap.legal else RED
            lay.shapes.append(Arrow(tail, head, color))
            lay.shapes.append(Badge(head, "ok" if cap.legal else "✗", color, "bottom-left"))
            checks = _ep_checks(cap)
            lay.notes.append(f"{cap.move} {'legal' if cap.legal else 'illegal'}: {cap.reason}"
                             + _check_words(*checks))
            _add_discovered(layers["discovered"], cap.move, checks[1], analysis.fen)
        if not analysis.ep.captures:
            lay.notes.append(f"{square_name(analysis.ep.square)} may be taken en passant, but no pawn can")
    for note in analysis.unreachable:
        layers["checkers"].notes.append(f"unreachable in a real game: {note}")
    for key, nothing in EMPTY_NOTES.items():
        if not layers[key].notes:
            layers[key].notes.append(nothing)
    return layers


# what an enabled layer says when it finds nothing: silence would read as "not working"
EMPTY_NOTES = {"checkers": "no check", "pins": "no pinned piece",
               "discovered": "no discovered-check candidate",
               "attacked": "no square attacked", "ep": "no en-passant square in this position"}


def _ep_checks(capture) -> tuple[list[int], list[int]]:
    """(direct, discovered) checkers after an en-passant capture: the capturing pawn itself, or
    the sliders the two vanished pawns uncover."""
    landing = parse_square(capture.move[2:4])
    return [s for s in capture.checks if s == landing], [s for s in capture.checks if s != landing]


def _check_words(direct, discovered) -> str:
    words = []
    if direct:
        words.append("gives check")
    if discovered:
        words.append(f"gives discovered check from {', '.join(square_name(s) for s in discovered)}")
    return f"; {' and '.join(words)}" if words else ""


def _add_discovered(lay: Layer, move: str, sliders, fen: str):
    """The side to move's en-passant capture that uncovers its own slider on the other king."""
    if not sliders:
        return
    from perftscope.core.board.position import Position
    board = Position.from_fen(fen).board
    king = board.index("k" if fen.split()[1] == "w" else "K")
    tail = parse_square(move[:2])
    for slider in sliders:
        lay.shapes.append(Arrow(slider, king, YELLOW))
        lay.shapes.append(Ring(tail, YELLOW))
        lay.notes.append(f"{move} en passant uncovers {square_name(slider)} on the "
                         f"{'black' if fen.split()[1] == 'w' else 'white'} king (discovered check)")


def mismatch_layer(move: str, verdict, engine: str, why: str = "") -> Layer:
    """The move the engine and the reference disagree on, drawn from the position before it:
    solid for an illegal move the engine plays, dashed for a legal one it does not generate,
    with the verdict written on the target square (never colour alone)."""
    from perftscope.core.mismatch.verdicts import ILLEGAL
    a, b = _uci_squares(move)
    color = RED if verdict is ILLEGAL else palette.NOT_GENERATED
    note = f"{move} {verdict.word}: {verdict.by(engine)}" + (f"; {why}" if why else "")
    return Layer("mismatch", "Mismatch", color,
                 [Arrow(a, b, color, dashed=verdict is not ILLEGAL), Badge(b, verdict.label, color)], [note])


def _zone_counts(zone) -> dict[int, int]:
    """Every zone square with its attacker count (the analysis lists attacked ones only)."""
    return {int(sq): int(zone.attacks.get(sq, 0)) for sq in zone.squares}


def _uci_squares(uci: str) -> tuple[int, int]:
    return parse_square(uci[:2]), parse_square(uci[2:4])


# --- painting ------------------------------------------------------------------------
def paint_layers(p: QPainter, layers, square_rect) -> None:
    """Draw layers in a fixed order (tints under glows under arrows under text).
    `square_rect(sq) -> QRectF` maps squares to the board's geometry."""
    shapes = [s for layer in layers for s in layer.shapes]
    for kind in (Tint, Glow, Outline, Ring, Arrow, Badge):
        for s in shapes:
            if isinstance(s, kind):
                _PAINTERS[kind](p, s, square_rect)


def _paint_tint(p, s, rect):
    p.fillRect(rect(s.square), s.color)


def _paint_glow(p, s, rect):
    r = rect(s.square)
    g = QRadialGradient(r.center(), r.width() * 0.6)
    c = QColor(s.color)
    for stop, alpha in ((0.0, 255), (0.25, 230), (0.9, 0)):
        c.setAlpha(alpha)
        g.setColorAt(stop, QColor(c))
    p.fillRect(r, QBrush(g))


def _paint_outline(p, s, rect):
    r = rect(s.square)
    width = max(1.5, r.width() * 0.035)
    p.setPen(QPen(QColor(s.color), width, Qt.DashLine))
    p.setBrush(Qt.NoBrush)
    p.drawRect(r.adjusted(width, width, -width, -width))


def _paint_ring(p, s, rect):
    r = rect(s.square)
    pen = QPen(QColor(s.color), max(2.0, r.width() * 0.07))
    p.setPen(pen)
    p.setBrush(Qt.NoBrush)
    inset = r.width() * 0.06
    p.drawEllipse(r.adjusted(inset, inset, -inset, -inset))


def _paint_arrow(p, s, rect):
    a, b = rect(s.tail).center(), rect(s.head).center()
    size = rect(s.tail).width()
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head_len, head_w, shaft = size * 0.42, size * 0.38, size * 0.16
    if length < size * 1.5:
        head_len = size * 0.32
    # stop the shaft short of the target's centre so the head sits on the square
    tip = QPointF(b.x() - ux * size * 0.12, b.y() - uy * size * 0.12)
    base = QPointF(tip.x() - ux * head_len, tip.y() - uy * head_len)
    color = QColor(s.color)
    color.setAlpha(170)
    pen = QPen(color, shaft, Qt.DashLine if s.dashed else Qt.SolidLine, Qt.FlatCap)
    p.setPen(pen)
    lead = size * 0.2 if length > size * 1.5 else 0.0       # short arrows start at the centre
    p.drawLine(QPointF(a.x() + ux * lead, a.y() + uy * lead), base)
    p.setPen(Qt.NoPen)
    p.setBrush(color)
    nx, ny = -uy * head_w / 2, ux * head_w / 2
    p.drawPolygon(QPolygonF([tip, QPointF(base.x() + nx, base.y() + ny),
                             QPointF(base.x() - nx, base.y() - ny)]))


def _paint_badge(p, s, rect):
    r = rect(s.square)
    font = QFont(p.font())
    font.setPixelSize(max(9, int(r.height() * 0.24)))
    font.setBold(True)
    p.setFont(font)
    width = max(r.width() * 0.34, p.fontMetrics().horizontalAdvance(s.text) + r.width() * 0.12)
    height = r.height() * 0.30
    if s.corner == "bottom-left":
        box = QRectF(r.left() + 2, r.bottom() - height - 2, width, height)
    else:
        box = QRectF(r.right() - width - 2, r.top() + 2, width, height)
    box = _inside(box, rect(0).united(rect(63)))       # a label wider than its square stays on the board
    path = QPainterPath()
    path.addRoundedRect(box, 4, 4)
    p.fillPath(path, QColor(255, 255, 255, 215))
    p.setPen(QColor(s.color))
    p.drawText(box, Qt.AlignCenter, s.text)


def _inside(box: QRectF, board: QRectF) -> QRectF:
    """`box` moved (not shrunk) so that it lies within `board`, 2 pixels in from its edges."""
    dx = max(board.left() + 2 - box.left(), 0) + min(board.right() - 2 - box.right(), 0)
    dy = max(board.top() + 2 - box.top(), 0) + min(board.bottom() - 2 - box.bottom(), 0)
    return box.translated(dx, dy)


_PAINTERS = {Tint: _paint_tint, Glow: _paint_glow, Outline: _paint_outline, Ring: _paint_ring,
             Arrow: _paint_arrow, Badge: _paint_badge}


# --- legend --------------------------------------------------------------------------
class OverlayLegend(QWidget):
    """A checkbox per layer with its colour swatch and what the layer says right now."""
    toggled = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._boxes: dict[str, QCheckBox] = {}
        self._notes: dict[str, QLabel] = {}
        self._layers: dict[str, Layer] = {}
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.setSpacing(2)
        # the checkboxes first, in a fixed grid: text appearing below never moves them
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        notes = QVBoxLayout()
        notes.setSpacing(1)
        for i, (key, title, color, on) in enumerate(LAYERS):
            swatch = QFrame()
            swatch.setFixedSize(14, 14)
            swatch.setStyleSheet(f"background:{color}; border-radius:3px;")
            check = QCheckBox(title)
            check.setChecked(on)
            check.toggled.connect(lambda _on: self.show_notes(self._layers))
            check.toggled.connect(self.toggled)
            grid.addWidget(swatch, i, 0)
            grid.addWidget(check, i, 1)
            note = QLabel()
            note.setWordWrap(True)
            note.setTextInteractionFlags(Qt.TextSelectableByMouse)
            note.setStyleSheet(f"color:#444; font-size:11px; border-left:3px solid {color}; padding-left:4px;")
            note.hide()
            notes.addWidget(note)
            self._boxes[key], self._notes[key] = check, note
        grid.setColumnStretch(1, 1)
        self._mismatch = QLabel()
        self._mismatch.setWordWrap(True)
        self._mismatch.hide()
        box.addLayout(grid)
        box.addWidget(self._mismatch)
        box.addLayout(notes)
        box.addStretch(1)

    def show_mismatch(self, layer: Layer | None):
        """Say what the mismatch mark on the board means, worded from the engine's side."""
        self._mismatch.setVisible(layer is not None)
        if layer is not None:
            self._mismatch.setStyleSheet(f"color:{layer.color}; font-weight:bold;")
            self._mismatch.setText("\n".join(layer.notes))

    def mismatch_text(self) -> str:
        return "" if self._mismatch.isHidden() else self._mismatch.text()

    def enabled(self) -> set[str]:
        return {k for k, b in self._boxes.items() if b.isChecked()}

    def set_enabled(self, key: str, on: bool):
        self._boxes[key].setChecked(on)

    def show_notes(self, layers: dict[str, Layer]):
        """Write what each enabled layer says about the position under its checkbox."""
        self._layers = layers
        on = self.enabled()
        for key, label in self._notes.items():
            notes = layers[key].notes if key in layers and key in on else []
            label.setText("\n".join(notes))
            label.setVisible(bool(notes))
