"""The divide tree: the user's engine's divide beside the reference's, one row per move,
children computed in the background when a row is expanded.

Rows are `core.mismatch.finder.Row`s, the same type the finder reports, and their verdict comes from
`core.mismatch.verdicts`: a move only the engine generates is *illegal*, one only the reference
generates is *not generated*. `DivideModel` is a lazy QAbstractItemModel: fetchMore asks the
`fetch` callable for a position's rows (it runs them off the GUI thread and calls back on it).
`DivideTreePanel` adds depth, Divide, Find first mismatch and what the result belongs to.
"""
from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSpinBox, QTreeView, QVBoxLayout, QWidget)

from perftscope.core.mismatch.finder import Row
from perftscope.core.limits import DIVIDE_DEPTH_LIMIT
from perftscope.core.mismatch.verdicts import AGREES, COUNT_DIFFERS, ILLEGAL, NOT_GENERATED, REFERENCE_ONLY, Verdict, classify

from . import palette
from .context import ContextBar

MAX_DEPTH = DIVIDE_DEPTH_LIMIT
BACKGROUND = {ILLEGAL.key: QColor(palette.ILLEGAL_BG), NOT_GENERATED.key: QColor(palette.NOT_GENERATED_BG),
              COUNT_DIFFERS.key: QColor(palette.DIFF_BG)}
MISMATCH_FG, STALE_FG = QColor(palette.BAD), QColor(palette.STALE)
ENGINE_COLUMN, REFERENCE_COLUMN, VERDICT_COLUMN = 1, 2, 3
HEADER_CHARS = 14              # an engine's name in its column's header, at most
# Qt asks data() for a dozen roles of every visible cell at every repaint. Each `Qt.SomeRole`
# written in it is an attribute lookup of 6-7 us in PySide6 6.11 (a comparison with a constant:
# 0.02 us): looked up once here, data() went from 57 us a call to a few.
_DISPLAY, _ALIGN, _FOREGROUND, _BACKGROUND, _FONT, _TOOLTIP, _USER = (
    Qt.DisplayRole, Qt.TextAlignmentRole, Qt.ForegroundRole, Qt.BackgroundRole, Qt.FontRole, Qt.ToolTipRole,
    Qt.UserRole)
_HORIZONTAL = Qt.Horizontal
_RIGHT = int(Qt.AlignRight | Qt.AlignVCenter)
_ENABLED_SELECTABLE, _NO_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable, Qt.NoItemFlags


class Node:
    """A position in the tree: the moves from the root, the row that reached it, its rows once loaded."""
    __slots__ = ("parent", "row", "moves", "depth", "compared", "children", "state", "error", "totals")

    def __init__(self, parent, row: Row | None, moves, depth, compared: bool):
        self.parent, self.row, self.moves, self.depth = parent, row, moves, depth
        self.compared = compared                 # False: only the reference was asked
        self.children: list[Node] = []
        self.state = "idle"                       # idle, loading, loaded, failed
        self.error = ""
        # (engine, reference) counts of a position whose rows are not known: an engine printing
        # only totals, compared by its total alone (the finder's level without rows)
        self.totals: tuple[int | None, int] | None = None

    @property
    def move(self) -> str | None:
        return self.row.move if self.row else None

    @property
    def verdict(self) -> Verdict:
        if self.row is None:
            return AGREES
        return classify(self.row.engine, self.row.reference, self.compared)

    @property
    def index_in_parent(self) -> int:
        return self.parent.children.index(self) if self.parent else 0

    @property
    def expandable(self) -> bool:
        # below a move one side does not generate only the other can play on: nothing to compare
        return self.depth >= 1 and self.verdict in (AGREES, COUNT_DIFFERS, REFERENCE_ONLY)


class DivideModel(QAbstractItemModel):
    """Rows are moves; `fetch(fen, moves, depth, on_done, on_error)` computes a position's
    rows off the GUI thread and calls back on it with a list of core.mismatch.finder.Row."""
    loaded = Signal(QModelIndex)         # a row's children arrived (invalid index: the root)
    failed = Signal(str)

    def __init__(self, fetch, parent=None):
        super().__init__(parent)
        self.fetch = fetch
        self.fen = None
        self.engine, self.reference = "engine", "reference"       # short names, for headers and words
        self.root = Node(None, None, (), 0, True)
        self.stale = False               # the board shows a position this tree was not computed for
        self._generation = 0

    # --- what is shown -------------------------------------------------------------
    def set_root(self, fen: str, depth: int, moves=(), fetch: bool = True,
                 engine: str | None = "engine", reference: str = "reference"):
        """Start over: divide `fen` (after `moves`) at `depth`; rows arrive in the background.
        engine=None: only the reference is asked. fetch=False: someone else (the finder or a
        saved session) calls insert_rows."""
        self.beginResetModel()
        self._generation += 1
        self.fen = fen
        self.engine, self.reference = engine or "", reference
        self.root = Node(None, None, tuple(moves), depth, engine is not None)
        self.root.state = "loading"
        self.stale = False
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Horizontal, 0, VERDICT_COLUMN)
        if fetch:
            self._load(self.root)

    def rename(self, engine: str, reference: str):
        """The engines as they call themselves once started (an engine file's `name`)."""
        if (engine, reference) != (self.engine, self.reference):
            self.engine, self.reference = engine if self.compared else "", reference
            self.headerDataChanged.emit(Qt.Horizontal, 0, VERDICT_COLUMN)

    @property
    def compared(self) -> bool:
        return self.root.compared

    def set_stale(self, stale: bool):
        """Grey every row: the board has moved to a position these results are not about."""
        if stale != self.stale:
            self.stale = stale
            for node in [self.root, *self.walk()]:
                if node.children:
                    parent = self.index_of(node)
                    self.dataChanged.emit(self.index(0, 0, parent),
                                          self.index(len(node.children) - 1, VERDICT_COLUMN, parent))

    def node(self, index: QModelIndex) -> Node:
        return index.internalPointer() if index.isValid() else self.root

    def index_of(self, node: Node) -> QModelIndex:
        if node is self.root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.index_in_parent, 0, node)

    def find(self, moves) -> QModelIndex | None:
        """The loaded row reached by playing `moves` below the root, or None."""
        node = self.root
        for move in moves:
            node = next((c for c in node.children if c.move == move), None)
            if node is None:
                return None
        return self.index_of(node)

    def walk(self):
        """Every loaded node below the root, parents before children (sessions save them)."""
        stack = list(reversed(self.root.children))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    # --- Qt model ----------------------------------------------------------------------
    def columnCount(self, parent=QModelIndex()):
        return 4

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
        return self.index_of(index.internalPointer().parent)

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

    def headers(self) -> tuple[str, str, str, str]:
        """Columns named by the engines: ('Move', 'my-perft.sh', 'core', 'Verdict')."""
        return "Move", self.engine or "engine", self.reference, "Verdict"

    def headerData(self, section, orientation, role=_DISPLAY):
        if orientation == _HORIZONTAL and role == _DISPLAY:
            # a count column is as wide as its header: a long engine name would squeeze the
            # moves out of sight three levels down (the tooltip has the whole name)
            name = self.headers()[section]
            return name if section not in (1, 2) or len(name) <= HEADER_CHARS else name[:HEADER_CHARS - 1] + "…"
        if orientation == _HORIZONTAL and role == _TOOLTIP and section in (1, 2):
            return (f"{self.engine}: the engine being debugged" if section == 1
                    else f"{self.reference}: the reference, taken as the truth")
        if orientation == _HORIZONTAL and role == _ALIGN and section in (1, 2):
            return _RIGHT
        return None

    def flags(self, index):
        return _ENABLED_SELECTABLE if index.isValid() else _NO_FLAGS

    def data(self, index, role=_DISPLAY):
        if not index.isValid():
            return None
        node, col = index.internalPointer(), index.column()
        if role == _DISPLAY:
            return self._text(node, col)
        if role == _ALIGN:
            return _RIGHT if col in (1, 2) else None
        if role == _USER:
            return node.moves
        if role == _TOOLTIP:
            return self.tooltip(node)
        if role not in (_FOREGROUND, _BACKGROUND, _FONT):
            return None
        verdict = node.verdict
        odd = verdict not in (AGREES, REFERENCE_ONLY)
        if role == _FOREGROUND and self.stale:
            return QBrush(STALE_FG)
        if role == _BACKGROUND and odd and not self.stale:
            return QBrush(BACKGROUND[verdict.key])
        if role == _FOREGROUND and odd and col in (0, 3):
            return QBrush(MISMATCH_FG)
        if role == _FONT and odd:
            font = QFont()
            font.setBold(True)
            return font
        return None

    move_text = None                      # node -> str: the notation toggle's (None: UCI)

    def _text(self, node: Node, col: int) -> str:
        if col == 0:
            return self.move_text(node) if self.move_text else node.move
        if col in (1, 2):
            count = node.row.engine if col == 1 else node.row.reference
            return "—" if count is None else f"{count:,}"
        status = {"loading": "  computing…", "failed": "  stopped" if node.error == "stopped" else "  failed"
                  }.get(node.state, "")
        verdict = node.verdict
        # a mismatch is never colour alone: the verdict is written
        if verdict is COUNT_DIFFERS:
            return f"≠ {node.row.engine - node.row.reference:+,}" + status
        if verdict in (AGREES, REFERENCE_ONLY):
            return ("" if verdict is REFERENCE_ONLY else "✔") + status
        return verdict.label + (" (refused)" if node.row.refused else "") + status

    def tooltip(self, node: Node) -> str:
        """The row's line, its verdict worded from the engine's side, and any error."""
        verdict = node.verdict
        text = f"{verdict.word}: {verdict.by(self.engine)}" if verdict is not REFERENCE_ONLY else \
            f"{self.reference}'s divide; no engine chosen"
        refused = node.row.refused if node.row is not None else ""
        if refused:                       # the engine's own words, not ours: what it said when asked to play it
            text += f"\nasked to play it, {self.engine} refused: {_shortened(refused)}"
        if node.error:
            text += f"\n{node.error}"
        return f"{' '.join(node.moves)}\n{text}"

    # --- loading ---------------------------------------------------------------------
    def _load(self, node: Node):
        node.state, node.error = "loading", ""
        self._changed(node)
        gen = self._generation
        self.fetch(self.fen, node.moves, node.depth,
                   lambda rows: self._arrived(gen, node, rows),
                   lambda message: self._failed(gen, node, message))

    def _arrived(self, gen, node: Node, rows):
        if gen != self._generation:
            return
        self.insert_rows(node, rows)

    def insert_rows(self, node: Node, rows: list[Row], totals: tuple[int | None, int] | None = None):
        """Show a position's rows below `node` (from a fetch, a finder level or a session);
        `totals`: (engine, reference) counts where there are no rows (only totals compared)."""
        if node.state == "loaded":
            return
        node.totals = totals if not rows else None
        rows = sorted(rows, key=lambda r: r.move)
        children = [Node(node, r, node.moves + (r.move,), node.depth - 1, self.compared) for r in rows]
        parent = self.index_of(node)
        node.state = "loaded"
        if children:
            self.beginInsertRows(parent, 0, len(children) - 1)
            node.children = children
            self.endInsertRows()
        self._changed(node)
        self.loaded.emit(parent)

    def expect(self, moves):
        """The row at `moves` will be filled by someone else (the finder): expanding it must
        not start a second divide of the same position."""
        index = self.find(moves)
        node = self.node(index) if index is not None else None
        if node is not None and node.state == "idle":
            node.state = "loading"
            self._changed(node)

    def loading(self) -> bool:
        """Some row is waiting for its divides."""
        return self.root.state == "loading" or any(n.state == "loading" for n in self.walk())

    def stop_loading(self, message: str = "stopped"):
        """Rows still waiting end as failed with `message` (Divide starts over)."""
        stopped = False
        for node in [self.root, *self.walk()]:
            if node.state == "loading":
                node.state, node.error = "failed", message
                self._changed(node)
                stopped = True
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
        self.dataChanged.emit(left, left.siblingAtColumn(VERDICT_COLUMN))

    def totals(self) -> tuple[int | None, int | None]:
        """(engine, reference) node counts of the root once loaded; the engine's is None without one."""
        if self.root.state != "loaded":
            return None, None
        if self.root.totals is not None:
            engine, reference = self.root.totals
            return (engine if self.compared else None), reference
        rows = [c.row for c in self.root.children]
        engine = sum(r.engine or 0 for r in rows) if self.compared else None
        return engine, sum(r.reference or 0 for r in rows)


def _shortened(words: str, limit: int = 200) -> str:
    """An engine's words on one tooltip line: its first line, cut at `limit` characters."""
    line = words.strip().splitlines()[0] if words.strip() else ""
    return line if len(line) <= limit else line[:limit - 1] + "…"


class DivideTreePanel(QWidget):
    """The tree view with depth, Divide, Find first mismatch and Stop; above it, what the
    rows were computed for. `choice` is any widget (the engine selectors) placed on top."""
    divideRequested = Signal(int)                 # depth
    findRequested = Signal(int)                   # depth
    stopRequested = Signal()
    positionSelected = Signal(object)             # moves from the root to the row the user chose
    showPositionRequested = Signal()              # "Show that position" on the greyed result

    def __init__(self, model: DivideModel, choice: QWidget | None = None, parent=None):
        super().__init__(parent)
        self.model = model
        self._depth = QSpinBox()
        self._depth.setRange(1, MAX_DEPTH)
        self._depth.setValue(3)
        self._depth.setPrefix("depth ")
        self._divide_button = QPushButton("Divide")
        self._find_button = QPushButton("Find first mismatch")
        self._find_button.setToolTip("Descend both divides to the first position where the move lists differ")
        self._stop_button = QPushButton("Stop")
        self._stop_button.setToolTip("Stop the divides and the search still running")
        self._stop_button.setEnabled(False)
        self.context = ContextBar("Divide the board position: the engine against the reference.")
        self.summary = QLabel()
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
        row.addWidget(self._depth)
        row.addWidget(self._divide_button)
        row.addWidget(self._find_button)
        row.addWidget(self._stop_button)
        row.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        if choice is not None:
            box.addWidget(choice)
        box.addLayout(row)
        box.addWidget(self.context)
        box.addWidget(self.summary)
        box.addWidget(self.view, 1)

        self._divide_button.clicked.connect(lambda: self.divideRequested.emit(self._depth.value()))
        self._find_button.clicked.connect(lambda: self.findRequested.emit(self._depth.value()))
        self._stop_button.clicked.connect(self.stopRequested)
        self.context.showRequested.connect(self.showPositionRequested)
        # selection, not the current index: a view that gains focus makes its first row
        # current without anyone choosing it, and that must never play a move on the board
        self.view.selectionModel().selectionChanged.connect(self._selected)
        self.view.clicked.connect(self._clicked)       # a click on the row already selected shows it again
        model.modelReset.connect(self._summarise)
        model.modelReset.connect(self._columns)
        self._columns()
        model.failed.connect(lambda _message: self._summarise())
        model.loaded.connect(lambda index: self._summarise() if not index.isValid() else None)
        if model.fen is not None:
            self._summarise()

    # --- the state watched ------------------------------------------------------------
    def watch(self, dividing, finding):
        """Show the tree's work as the window's model holds it (app.model's JobStates): `dividing`
        (its rows loading, the engine call waited for, the Subject the rows belong to, said above
        them) and `finding` (a search running). Stop is offered while either runs, Find while no
        search does."""
        dividing.changed.connect(lambda: self.show_state(dividing, finding))
        finding.changed.connect(lambda: self.show_state(dividing, finding))
        self.context.watch(dividing)

    def show_state(self, dividing, finding):
        self._stop_button.setEnabled(dividing.running or finding.running)
        self._find_button.setEnabled(not finding.running)
        if self.model.root.state == "loading" and self.model.fen is not None:
            waiting = dividing.status           # while the root's rows are computed: which engine, how long
            self.summary.setText(f"Dividing at depth {self.model.root.depth}…" + (f" {waiting}" if waiting else ""))

    def set_stale(self, stale: bool):
        """Grey the rows and their summary: the board shows a position they were not computed for."""
        self.model.set_stale(stale)
        self.context.set_stale(stale)
        self.summary.setEnabled(not stale)

    def add_note(self, text: str):
        """A line under the summary: why the finder stopped (the whole report has its own tab)."""
        import html
        self.summary.setText(f"{self.summary.text()}<br><span style='color:{palette.ERROR}'>"
                             f"{html.escape(text)}</span>")

    def set_depth(self, depth: int):
        self._depth.setValue(depth)

    def depth(self) -> int:
        """The depth chosen for Divide and Find first mismatch."""
        return self._depth.value()

    def request(self, action: str, depth: int):
        """Ask for 'divide' or 'find' at `depth`, as the buttons do."""
        self.set_depth(depth)
        (self.divideRequested if action == "divide" else self.findRequested).emit(depth)

    def stop(self):
        self.stopRequested.emit()

    def can_stop(self) -> bool:
        return self._stop_button.isEnabled()

    def select(self, moves) -> QModelIndex | None:
        """Select the loaded row at `moves` (as a click would)."""
        index = self.model.find(moves)
        if index is not None and index.isValid():
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)
        return index

    def _columns(self):
        # with no engine chosen there is no engine column to show
        self.view.setColumnHidden(ENGINE_COLUMN, not self.model.compared)

    def _clicked(self, index):
        if index.isValid() and self.view.selectionModel().isRowSelected(index.row(), index.parent()):
            self.positionSelected.emit(self.model.node(index).moves)

    def _selected(self, selected, _deselected):
        rows = [i for i in selected.indexes() if i.column() == 0]
        if rows:
            self.positionSelected.emit(self.model.node(rows[0]).moves)

    def _summarise(self):
        engine, ref = self.model.totals()
        root = self.model.root
        if root.state == "failed":
            self.summary.setText(f"<span style='color:{palette.BAD}'>✗ {root.error}</span>")
            return
        if ref is None:
            self.summary.setText(f"Dividing at depth {root.depth}…" if self.model.fen else "")
            return
        nodes = root.children
        if not self.model.compared:
            self.summary.setText(f"{self.model.reference}: {ref:,} nodes, {len(nodes)} moves "
                                 f"(no engine chosen: the reference's divide alone)")
            return
        if root.totals is not None:        # an engine printing only totals, compared by them alone
            if engine == ref:
                verdict = (f"<span style='color:{palette.GOOD}'>✔ {self.model.engine} agrees</span>: "
                           f"{engine:,} nodes (it prints only totals: compared by its total)")
            else:
                verdict = (f"<span style='color:{palette.BAD}'><b>✗ its move list differs</b></span> "
                           f"(it prints only totals: see the Finder report) · {self.model.engine} {engine:,} · "
                           f"{self.model.reference} {ref:,} · {engine - ref:+,}")
            self.summary.setText(verdict)
            return
        bad = [n for n in nodes if n.verdict is not AGREES]
        if not bad:
            verdict = (f"<span style='color:{palette.GOOD}'>✔ {self.model.engine} agrees</span>: "
                       f"{engine:,} nodes, {len(nodes)} moves")
        else:
            counts = {}
            for n in bad:
                counts[n.verdict.word] = counts.get(n.verdict.word, 0) + 1
            kinds = ", ".join(f"{k} {v}" for k, v in counts.items())
            verdict = (f"<span style='color:{palette.BAD}'><b>✗ {len(bad)} of {len(nodes)} moves differ"
                       f"</b></span> ({kinds}) · {self.model.engine} {engine:,} · "
                       f"{self.model.reference} {ref:,} · {engine - ref:+,}")
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
