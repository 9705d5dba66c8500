"""Getting a divide out of the tree: Stockfish's `go perft` text to paste beside an engine's
output, CSV and JSON files with each row's verdict and reason, and the rows' context menu (copy
the row's FEN, the FEN before its move, the move path with its root FEN, the move; make the row
the new root).

The text functions take plain rows (core.mismatch.finder.Row: move, engine count, reference count)
so they are tested without a window; `context_menu` is what the tree calls on a right-click.
"""
from __future__ import annotations

import csv
import io
import json

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu

from perftscope.core.board.position import Position
from perftscope.core.mismatch.verdicts import AGREES, ILLEGAL, NOT_GENERATED, REFERENCE_ONLY, Verdict, classify


def stockfish_text(rows, side: str = "reference") -> str:
    """Stockfish's divide: `move: count` per root move, a blank line, `Nodes searched: N`.
    side: 'reference' or 'engine', whose counts; moves that side does not play are left out."""
    counts = [(r.move, getattr(r, side)) for r in rows if getattr(r, side) is not None]
    lines = [f"{move}: {count}" for move, count in counts]
    return "\n".join(lines) + f"\n\nNodes searched: {sum(c for _, c in counts)}\n"


def verdicts(fen: str, moves, rows, compared: bool = True) -> list[tuple[Verdict, str]]:
    """(verdict, reason) per row, worded from the engine's side: the reason a move is illegal or
    missing (core.board.analysis.explain_move), '' for the rest. compared=False: only the
    reference was asked."""
    from perftscope.core.board.analysis import explain_move
    position = None
    out = []
    for r in rows:
        verdict = classify(r.engine, r.reference, compared)
        reason = ""
        if verdict in (ILLEGAL, NOT_GENERATED):
            position = position or Position.from_fen(fen).play(list(moves))
            reason = explain_move(position, r.move)
        out.append((verdict, reason))
    return out


def csv_text(fen: str, moves, depth: int, rows, engine: str, reference: str, compared: bool = True) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["fen", "moves", "depth", "move", f"engine ({engine})", f"reference ({reference})", "difference",
                "verdict", "reason"])
    for r, (verdict, reason) in zip(rows, verdicts(fen, moves, rows, compared)):
        diff = r.engine - r.reference if r.engine is not None and r.reference is not None else ""
        w.writerow([fen, " ".join(moves), depth, r.move, "" if r.engine is None else r.engine,
                    "" if r.reference is None else r.reference, diff, verdict.word, reason])
    return out.getvalue()


def json_text(fen: str, moves, depth: int, rows, engine: str, reference: str, compared: bool = True) -> str:
    return json.dumps({"fen": fen, "moves": list(moves), "depth": depth, "engine": engine,
                       "reference": reference,
                       "rows": [{"move": r.move, "engine": r.engine, "reference": r.reference,
                                 "verdict": verdict.key, "reason": reason}
                                for r, (verdict, reason) in zip(rows, verdicts(fen, moves, rows, compared))]},
                      indent=1) + "\n"


def row_fen(model, node) -> str:
    """The FEN of the position a row's move leads to (MoveError for a move that is not legal)."""
    return Position.from_fen(model.fen).play(" ".join(node.moves)).fen()


def parent_fen(model, node) -> str:
    """The FEN of the position a row's move is generated in."""
    return Position.from_fen(model.fen).play(" ".join(node.moves[:-1])).fen()


def path_text(fen: str, moves) -> str:
    """A move path with its root FEN, as a UCI engine reads it: `position fen FEN moves m1 m2`."""
    return f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else "")


def level(model, node):
    """(moves to the position, its depth, its rows) of the divide `node`'s children make."""
    return node.moves, node.depth, [c.row for c in node.children]


class DivideActions(QObject):
    """The tree's export actions and context menu; `newRoot(fen)` asks the window to divide
    from a row's position."""
    newRoot = Signal(str)
    message = Signal(str)
    locateRequested = Signal(str, object, int)     # fen, moves, depth: *Which line?* on a differing row

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.model = model

    def copy_stockfish(self, node=None):
        node = node or self.model.root
        _, _, rows = level(self.model, node)
        if not rows:
            self.message.emit("nothing to copy: no divide here yet")
            return
        QApplication.clipboard().setText(stockfish_text(rows))
        self.message.emit(f"copied the divide of {len(rows)} moves in Stockfish's format")

    def save(self, node=None, path: str | None = None, parent_widget=None):
        """Save the level below `node` as CSV or JSON (by the file's extension)."""
        node = node or self.model.root
        moves, depth, rows = level(self.model, node)
        if not rows:
            self.message.emit("nothing to save: no divide here yet")
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(parent_widget, "Save divide", "divide.csv",
                                                  "CSV (*.csv);;JSON (*.json)")
            if not path:
                return
        make = json_text if path.lower().endswith(".json") else csv_text
        compared = all(c.compared for c in node.children)
        text = make(self.model.fen, moves, depth, rows, self.model.engine, self.model.reference, compared)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            self.message.emit(f"cannot save the divide to {path}: {e.strerror}")
            return
        self.message.emit(f"saved the divide of {len(rows)} moves to {path}")

    def locate_target(self, node) -> tuple[str, tuple, int]:
        """(root FEN, moves, depth) locate starts from for a differing row: the row's position at
        the row's depth when its count differs, the position its move is generated in at depth 1
        when the move is one side's only."""
        if node.verdict in (ILLEGAL, NOT_GENERATED) or node.depth < 1:
            return self.model.fen, tuple(node.moves[:-1]), 1
        return self.model.fen, tuple(node.moves), node.depth

    def menu_for(self, node, parent_widget=None) -> QMenu:
        """The context menu of a row (node None or the root: the tree's background). A move that
        is not legal (an engine's illegal one) has no position after it: its row copies the
        position it is generated in, its path and itself."""
        menu = QMenu(parent_widget)
        is_row = node is not None and node is not self.model.root
        if is_row:
            copy = QApplication.clipboard().setText
            before = parent_fen(self.model, node)
            path = path_text(self.model.fen, node.moves)
            if node.verdict is not ILLEGAL:
                fen = row_fen(self.model, node)
                menu.addAction("Copy this row's FEN", lambda: copy(fen))
            menu.addAction("Copy the FEN before this move", lambda: copy(before))
            menu.addAction("Copy the move path (with its root FEN)", lambda: copy(path))
            menu.addAction(f"Copy the move ({node.move})", lambda: copy(node.move))
            if node.verdict is not ILLEGAL:
                menu.addAction("Make this row the new root", lambda: self.newRoot.emit(fen))
            if node.verdict not in (AGREES, REFERENCE_ONLY):
                where = self.locate_target(node)
                menu.addAction("Which line? Locate the engine's suspect lines here",
                               lambda: self.locateRequested.emit(*where))
            menu.addSeparator()
        here = node if is_row and node.children else self.model.root
        menu.addAction("Copy divide (Stockfish format)", lambda: self.copy_stockfish(here))
        menu.addAction("Save divide as CSV or JSON…", lambda: self.save(here, parent_widget=parent_widget))
        for action in menu.actions():
            action.setEnabled(self.model.fen is not None)
        return menu


def install(panel, actions: DivideActions):
    """Give the tree view a context menu from `actions`."""
    from PySide6.QtCore import Qt
    view = panel.view
    view.setContextMenuPolicy(Qt.CustomContextMenu)

    def show(point):
        index = view.indexAt(point)
        node = panel.model.node(index) if index.isValid() else None
        actions.menu_for(node, view).exec(view.viewport().mapToGlobal(point))

    view.customContextMenuRequested.connect(show)
