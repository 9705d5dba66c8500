"""Sessions: the position, both engine specs, the divide rows shown with their verdicts and
the finder's report, in one JSON file a bug report can carry (File > Save session,
`perftscope gui ... --save-session FILE`), and read back (File > Open session).
"""
from __future__ import annotations

import json

from perftscope.core.errors import PerftscopeError
from perftscope.core.mismatch.finder import Report, Row
from perftscope.core.mismatch.verdicts import classify

FORMAT = "perftscope-session"
VERSION = 1


class SessionError(PerftscopeError):
    """A session file that cannot be read or written."""


def divide_json(model) -> dict | None:
    """The divide tree as shown: its root, engines, and every loaded row (its moves from the
    tree's root) with its verdict."""
    if model.fen is None:
        return None
    root = model.root
    return {"fen": model.fen, "moves": list(root.moves), "depth": root.depth, "state": root.state,
            "error": root.error, "engine": model.engine if model.compared else None,
            "reference": model.reference,
            "rows": [{"moves": list(n.moves[len(root.moves):]), "engine": n.row.engine, "reference": n.row.reference,
                      "verdict": n.verdict.key} for n in model.walk()]}


def fill_divide(model, data: dict):
    """Show a saved divide tree in `model` without computing anything."""
    model.set_root(data["fen"], int(data["depth"]), data.get("moves", ()), fetch=False,
                   engine=data.get("engine"), reference=data.get("reference") or "reference")
    by_parent: dict[tuple, list[Row]] = {}
    for row in data.get("rows", []):
        moves = tuple(row["moves"])
        by_parent.setdefault(moves[:-1], []).append(Row(moves[-1], row["engine"], row["reference"]))
    for below in sorted(by_parent, key=len):
        index = model.find(below)
        node = model.node(index) if index is not None else None
        if node is not None:
            model.insert_rows(node, by_parent[below])
    if model.root.state == "loading":          # saved before the root's rows arrived
        model.mark_failed(model.root, data.get("error") or "not finished when the session was saved")


def report_json(report) -> dict:
    data = report.to_json()
    # the verdicts as shown, so a reader of the file needs no glossary
    data["verdicts"] = {m: classify(None, 1).key for m in report.missing}
    data["verdicts"].update({m: classify(1, None).key for m in report.extra})
    return data


def save(path: str, data: dict):
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"format": FORMAT, "version": VERSION, **data}, f, indent=1)
            f.write("\n")
    except OSError as e:
        raise SessionError(f"cannot write the session to {path}: {e.strerror or e}") from None


def load(path: str) -> dict:
    """The session in `path`, or SessionError saying what is wrong with the file."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise SessionError(f"cannot read the session {path}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SessionError(f"{path} is not a perftscope session (not JSON: {e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionError(f"{path} is not a perftscope session (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise SessionError(f"{path}: session version {data.get('version')!r}, this perftscope reads {VERSION}")
    if not isinstance(data.get("fen"), str):
        raise SessionError(f"{path}: the session has no position (\"fen\")")
    return data


class SessionController:
    """File > Save / Open session for the window: `model` its MainModel, `engines` its
    EngineSelection, `divider` its app.dividing.DivideController."""

    def __init__(self, model, engines, divider):
        self.model, self.engines, self.divider = model, engines, divider

    def state(self) -> dict:
        fen, moves = self.model.board_root
        engine, reference = self.engines.specs()
        report = self.divider.report
        row = self.model.row_shown
        return {"fen": fen, "moves": list(moves), "engine": engine, "reference": reference,
                "timeout": self.engines.timeout, "divide": divide_json(self.divider.tree_model),
                "finder": report_json(report) if report is not None else None,
                "row": list(row) if row is not None else None}

    def save(self, path: str):
        save(path, self.state())
        self.model.say(f"Session saved to {path}")

    def open(self, path: str) -> bool:
        """Show a saved session: position, engines, divide rows and finder report; nothing
        is recomputed. A bad file is a message, the window stays as it was."""
        from perftscope.core.board.position import Position
        try:
            data = load(path)
            Position.from_fen(data["fen"]).play(list(data.get("moves", [])))     # FenError, MoveError
            report = Report.from_json(data["finder"]) if data.get("finder") else None
        except (PerftscopeError, KeyError, TypeError, ValueError) as e:
            self.model.say(str(e) if isinstance(e, PerftscopeError) else f"{path}: bad session ({e!r})", error=True)
            return False
        self.divider.abandon()
        self.engines.set(engine=data.get("engine") or "", reference=data.get("reference") or "core",
                         timeout=float(data["timeout"]) if data.get("timeout") else None)
        self.model.show(data["fen"], data.get("moves", []))
        self.divider.restore(data.get("divide"), report, data.get("row"))
        self.model.say(f"Opened session {path}")
        return True

    def ask_save(self, parent):
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getSaveFileName(parent, "Save session", "perftscope-session.json",
                                              "perftscope sessions (*.json)")
        if path:
            try:
                self.save(path)
            except PerftscopeError as e:
                self.model.say(str(e), error=True)

    def ask_open(self, parent):
        from PySide6.QtWidgets import QFileDialog
        path, _ = QFileDialog.getOpenFileName(parent, "Open session", "", "perftscope sessions (*.json)")
        if path:
            self.open(path)
