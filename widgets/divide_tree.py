"""The divide tree: our perft divide beside a reference's, one row per move, children
computed in the background when a row is expanded.

`DivideModel` is a lazy QAbstractItemModel: hasChildren is true before a row is loaded,
fetchMore asks the `fetch` callable for both divides (it runs them off the GUI thread and
calls back on it), and the answer is inserted with beginInsertRows/endInsertRows.
`DivideTreePanel` adds the reference selector, depth, Divide and Find first mismatch.
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSpinBox, QTreeView, QVBoxLayout, QWidget)

COLUMNS = ("Move", "Ours", "Reference", "Difference")
MAX_DEPTH = 10
MISSING_BG, EXTRA_BG, DIFF_BG = QColor("#fde2e2"), QColor("#fff1d6"), QColor("#fff8c4")
MISMATCH_FG = QColor("#8a1010")


class Node:
    """A position in the tree: the moves from the root, and its divide once loaded."""
    __slots__ = ("parent", "move", "moves", "depth", "ours", "ref", "children", "state", "error")

    def __init__(self, parent, move, moves, depth, ours=None, ref=None):
        self.parent, self.move, self.moves, self.depth = parent, move, moves, depth
        self.ours, self.ref = ours, ref          # counts for this row's move (None: not listed)
        self.children: list[Node] = []
        self.state = "idle"                       # idle, loading, loaded, failed
        self.error = ""

    @property
    def row(self) -> int:
        return self.parent.children.index(self) if self.parent else 0

    @property
    def kind(self) -> str:
        """'missing' (only the reference lists it), 'extra' (only ours), 'diff', or 'same'."""
        if self.ours is None and self.ref is not None:
            return "missing"
        if self.ref is None and self.ours is not None:
            return "extra"
        if self.ours is not None and self.ours != self.ref:
            return "diff"
        return "same"

    @property
    def expandable(self) -> bool:
        # below a missing or extra move only one side can play on: nothing to compare
        return self.depth >= 1 and self.kind in ("same", "diff")


class DivideModel(QAbstractItemModel):
    """Rows are moves; `fetch(fen, moves, depth, on_done, on_error)` computes
    (ours, reference) divides off the GUI thread and calls back on it."""
    loaded = Signal(QModelIndex)         # a row's children arrived (invalid index: the root)
    failed = Signal(str)

    def __init__(self, fetch, parent=None):
        super().__init__(parent)
        self.fetch = fetch
        self.fen = None
        self.root = Node(None, None, (), 0)
        self._generation = 0

    # --- what is shown -------------------------------------------------------------
    def set_root(self, fen: str, depth: int, moves=(), fetch: bool = True):
        """Start over: divide `fen` (after `moves`) at `depth`; rows arrive in the background.
        fetch=False: someone else (the finder) will call insert_divides for the root."""
        self.beginResetModel()
        self._generation += 1
        self.fen = fen
        self.root = Node(None, None, tuple(moves), depth)
        self.root.state = "loading"
        self.endResetModel()
        if fetch:
            self._load(self.root)

    def node(self, index: QModelIndex) -> Node:
        return index.internalPointer() if index.isValid() else self.root

    def index_of(self, node: Node) -> QModelIndex:
        if node is self.root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def find(self, moves) -> QModelIndex | None:
        """The loaded row reached by playing `moves` below the root, or None."""
        node = self.root
        for move in moves:
            node = next((c for c in node.children if c.move == move), None)
            if node is None:
                return None
        return self.index_of(node)

    # --- Qt model ----------------------------------------------------------------------
    def columnCount(self, parent=QModelIndex()):
        return len(COLUMNS)

    def rowCount(self, parent=QModelIndex()):
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def index(self, row, column, parent=QModelIndex()):
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self.node(parent).children[row])

    def parent(self, index=QModelIndex()):
        if not index.isValid():
            return QModelIndex()
        node = index.internalPointer()
        return self.index_of(node.parent)

    def hasChildren(self, parent=QModelIndex()):
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        if node.state == "loaded":
            return bool(node.children)
        return node is self.root or node.expandable

    def canFetchMore(self, parent):
        node = self.node(parent)
        if parent.isValid() and parent.column() != 0:
            return False
        return node.state == "idle" and (node is self.root or node.expandable) and self.fen is not None

    def fetchMore(self, parent):
        if self.canFetchMore(parent):
            self._load(self.node(parent))

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Horizontal and role == Qt.TextAlignmentRole and section:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        return None

    def flags(self, index):
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable if index.isValid() else Qt.NoItemFlags

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        node, col = index.internalPointer(), index.column()
        kind = node.kind
        if role == Qt.DisplayRole:
            return self._text(node, col)
        if role == Qt.TextAlignmentRole and col:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.BackgroundRole and kind != "same":
            return QBrush({"missing": MISSING_BG, "extra": EXTRA_BG, "diff": DIFF_BG}[kind])
        if role == Qt.ForegroundRole and kind != "same" and col in (0, 3):
            return QBrush(MISMATCH_FG)
        if role == Qt.FontRole and kind != "same":
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ToolTipRole:
            return self._tooltip(node)
        if role == Qt.UserRole:
            return node.moves
        return None

    def _text(self, node: Node, col: int) -> str:
        if col == 0:
            return node.move
        if col == 1:
            return "—" if node.ours is None else f"{node.ours:,}"
        if col == 2:
            return "—" if node.ref is None else f"{node.ref:,}"
        status = {"loading": "  computing…", "failed": "  stopped" if node.error == "stopped" else "  failed"
                  }.get(node.state, "")
        # a mismatch is never colour alone: a written badge says which kind
        if node.kind == "missing":
            return "✗ missing" + status
        if node.kind == "extra":
            return "✚ extra" + status
        if node.kind == "diff":
            return f"≠ {node.ours - node.ref:+,}" + status
        return "0" + status

    def _tooltip(self, node: Node) -> str:
        line = " ".join(node.moves)
        text = {"missing": "the reference plays this move; our generator does not",
                "extra": "our generator plays this move; the reference does not",
                "diff": "both play this move but count different positions below it",
                "same": "both agree"}[node.kind]
        if node.error:
            text += f"\n{node.error}"
        return f"{line}\n{text}"

    # --- loading ---------------------------------------------------------------------
    def _load(self, node: Node):
        node.state, node.error = "loading", ""
        self._changed(node)
        gen = self._generation
        self.fetch(self.fen, node.moves, node.depth,
                   lambda result: self._arrived(gen, node, result),
                   lambda message: self._failed(gen, node, message))

    def _arrived(self, gen, node: Node, result):
        if gen != self._generation:
            return
        self.insert_divides(node, *result)

    def insert_divides(self, node: Node, ours: dict, ref: dict):
        """Show both divides of node's position as its rows (from a fetch or a finder report)."""
        if node.state == "loaded":
            return
        moves = sorted(set(ours) | set(ref))
        children = [Node(node, m, node.moves + (m,), node.depth - 1, ours.get(m), ref.get(m))
                    for m in moves]
        parent = self.index_of(node)
        node.state = "loaded"
        if children:
            self.beginInsertRows(parent, 0, len(children) - 1)
            node.children = children
            self.endInsertRows()
        self._changed(node)
        self.loaded.emit(parent)

    def loading(self) -> bool:
        """Some row is waiting for its divides."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.state == "loading":
                return True
            stack.extend(node.children)
        return False

    def stop_loading(self, message: str = "stopped"):
        """Rows still waiting end as failed with `message` (Divide starts over)."""
        stack, stopped = [self.root], False
        while stack:
            node = stack.pop()
            if node.state == "loading":
                node.state, node.error = "failed", message
                self._changed(node)
                stopped = True
            stack.extend(node.children)
        if stopped:
            self.failed.emit(message)

    def mark_failed(self, node: Node, message: str):
        self._failed(self._generation, node, message)

    def _failed(self, gen, node: Node, message: str):
        if gen != self._generation:
            return
        node.state, node.error = "failed", message
        self._changed(node)
        self.failed.emit(message)

    def _changed(self, node: Node):
        if node.parent is None:
            return
        left = self.index_of(node)
        self.dataChanged.emit(left, left.siblingAtColumn(len(COLUMNS) - 1))

    def totals(self) -> tuple[int | None, int | None]:
        if self.root.state != "loaded":
            return None, None
        return (sum(c.ours or 0 for c in self.root.children),
                sum(c.ref or 0 for c in self.root.children))


class DivideTreePanel(QWidget):
    """The tree view with depth, Divide and Find first mismatch; `reference` is any widget
    (the reference selector) placed above the tree."""
    divideRequested = Signal(int)                 # depth
    findRequested = Signal(int)                   # depth
    stopRequested = Signal()
    positionSelected = Signal(object)             # moves from the root to the selected row

    def __init__(self, model: DivideModel, reference: QWidget | None = None, parent=None):
        super().__init__(parent)
        self.model = model
        self.depth = QSpinBox()
        self.depth.setRange(1, MAX_DEPTH)
        self.depth.setValue(3)
        self.depth.setPrefix("depth ")
        self.divide_button = QPushButton("Divide")
        self.find_button = QPushButton("Find first mismatch")
        self.find_button.setToolTip("Descend both divides to the first position where the move lists differ")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the divides and the search still running")
        self.stop_button.setEnabled(False)
        self.summary = QLabel("Divide the board position against a reference.")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.RichText)
        self.view = QTreeView()
        self.view.setModel(model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setFont(QFont("DejaVu Sans Mono", 9))
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeToContents)

        row = QHBoxLayout()
        row.addWidget(self.depth)
        row.addWidget(self.divide_button)
        row.addWidget(self.find_button)
        row.addWidget(self.stop_button)
        row.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        if reference is not None:
            box.addWidget(reference)
        box.addLayout(row)
        box.addWidget(self.summary)
        box.addWidget(self.view, 1)

        self.divide_button.clicked.connect(lambda: self.divideRequested.emit(self.depth.value()))
        self.find_button.clicked.connect(lambda: self.findRequested.emit(self.depth.value()))
        self.stop_button.clicked.connect(self.stopRequested)
        self.view.selectionModel().currentRowChanged.connect(self._selected)
        model.modelReset.connect(self._summarise)
        model.failed.connect(lambda _message: self._summarise())
        model.loaded.connect(lambda index: self._summarise() if not index.isValid() else None)
        if model.fen is not None:
            self._summarise()

    def _selected(self, current, _previous):
        if current.isValid():
            self.positionSelected.emit(self.model.node(current).moves)

    def _summarise(self):
        ours, ref = self.model.totals()
        if self.model.root.state == "failed":
            self.summary.setText(f"<span style='color:#8a1010'>✗ {self.model.root.error}</span>")
            return
        if ours is None:
            self.summary.setText(f"Dividing at depth {self.model.root.depth}…" if self.model.fen else "")
            return
        nodes = self.model.root.children
        bad = [n for n in nodes if n.kind != "same"]
        if not bad:
            verdict = f"<span style='color:#15781B'>✔ agree</span>: {ours:,} nodes, {len(nodes)} moves"
        else:
            verdict = (f"<span style='color:#8a1010'><b>✗ {len(bad)} of {len(nodes)} moves differ</b></span>"
                       f" · ours {ours:,} · reference {ref:,} · {ours - ref:+,}")
        self.summary.setText(verdict)

    def reveal(self, moves):
        """Expand the loaded rows along `moves` and select the last one."""
        index = QModelIndex()
        for i in range(len(moves)):
            found = self.model.find(moves[:i + 1])
            if found is None:
                break
            index = found
            self.view.expand(index)
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)
        return index
