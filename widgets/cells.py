"""Table cells that stay inside their column and their row: text wraps at spaces or, inside a long
word such as a FEN's board field, anywhere, onto at most `lines` lines, the last one elided when
there is more (the cell's tooltip has the whole text). Qt's own wrapping breaks only at spaces, so
a FEN ran on under the next column, and a long error made a row four lines tall."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QFontMetrics, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableWidget

MARGIN = 3                       # px around the text, as Fusion leaves it


def row_table(columns) -> QTableWidget:
    """A read-only table of results, one row chosen at a time, headed by `columns`, rows unnumbered."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels(columns)
    table.setSelectionBehavior(QAbstractItemView.SelectRows)
    table.setSelectionMode(QAbstractItemView.SingleSelection)
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    return table


def wrapped(text: str, font, width: int, lines: int) -> list[str]:
    """`text` in `font` in lines no wider than `width`, broken at spaces where it can and anywhere
    where it must; at most `lines` of them, the last elided when the text goes on."""
    if width <= 0 or not text:
        return [text] if text else []
    metrics = QFontMetrics(font)
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    spans = []
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    out = [text[start:start + length].rstrip() for start, length in spans[:lines]]
    if len(spans) > lines:
        out[-1] = metrics.elidedText(text[spans[lines - 1][0]:].replace("\n", " "), Qt.ElideRight, width)
    return out


class WrappedCells(QStyledItemDelegate):
    """The delegate for a table whose cells hold long text (FENs, moves, engine errors)."""

    def __init__(self, lines: int = 2, parent=None):
        super().__init__(parent)
        self.lines = lines

    def _text_width(self, option) -> int:
        return option.rect.width() - 2 * MARGIN

    def paint(self, painter, option, index):
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text, opt.text = opt.text, ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.CE_ItemViewItem, opt, painter, opt.widget)
        metrics = QFontMetrics(opt.font)
        lines = wrapped(text, opt.font, self._text_width(opt), self.lines)
        selected = bool(opt.state & QStyle.State_Selected)
        brush = index.data(Qt.ForegroundRole)
        colour = (opt.palette.color(QPalette.HighlightedText) if selected
                  else brush.color() if isinstance(brush, QBrush) else opt.palette.color(QPalette.Text))
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(colour)
        painter.setClipRect(opt.rect)
        height = metrics.lineSpacing() * len(lines)
        top = opt.rect.top() + max(MARGIN, (opt.rect.height() - height) // 2)
        for i, line in enumerate(lines):
            rect = QRectF(opt.rect.left() + MARGIN, top + i * metrics.lineSpacing(), self._text_width(opt),
                          metrics.lineSpacing())
            painter.drawText(rect, int(Qt.AlignLeft | Qt.AlignVCenter), line)
        painter.restore()

    def sizeHint(self, option, index):
        hint = super().sizeHint(option, index)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        metrics = QFontMetrics(opt.font)
        count = max(1, len(wrapped(opt.text, opt.font, self._text_width(opt), self.lines)))
        hint.setHeight(count * metrics.lineSpacing() + 2 * MARGIN)
        return hint
