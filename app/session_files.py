"""Sessions: the position, both engine specs, the divide rows shown with their verdicts and
the finder's report, in one JSON file a bug report can carry (File > Save session,
`perftscope gui ... --save-session FILE`), and read back (File > Open session).
"""
from __future__ import annotations

import json
import os
import shlex

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
    """The session in `path`, checked whole before anything is shown (validate), or
    SessionError saying what is wrong with the file."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise SessionError(f"cannot read the session {path}: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise SessionError(f"{path} is not a perftscope session (larger than {MAX_BYTES >> 20} MiB)")
    if not raw.strip():
        raise SessionError(f"{path} is empty: not a perftscope session")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise SessionError(f"{path} is not a perftscope session (not text)") from None
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):   # open at the end
            raise SessionError(f"{path} is cut short: it ends at line {e.lineno} in the middle of "
                               f"the session (saved by a program that was stopped?)") from None
        raise SessionError(f"{path} is not a perftscope session (not JSON: {e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionError(f"{path} is not a perftscope session (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise SessionError(f"{path} was saved by a newer perftscope (session version {version}; this "
                           f"one reads version {VERSION}): update perftscope to open it")
    if version != VERSION:
        raise SessionError(f"{path}: session version {version!r}, this perftscope reads {VERSION}")
    validate(data, path)
    return data


# What each field of a session must hold: a type, a tuple of choices (None: null), [item]
# for a list, {key: kind} for an object whose keys in REQUIRED must be there.
_COUNT = (int, None)
_MOVES = [str]
_ROW = {"moves": _MOVES, "engine": _COUNT, "reference": _COUNT}
_DIVIDE = {"fen": str, "moves": _MOVES, "depth": int, "rows": [_ROW], "engine": (str, None),
           "reference": (str, None), "error": (str, None), "state": (str, None)}
_LEVEL = {"fen": str, "depth": int, "rows": [{"move": str, "engine": _COUNT, "reference": _COUNT}],
          "chosen": (str, None)}
_REPORT = {"engine": str, "reference": str, "root_fen": str, "depth": int, "agree": bool, "path": _MOVES,
           "fen": str, "missing": _MOVES, "extra": _MOVES, "explanations": {}, "levels": [_LEVEL],
           "engine_calls": int, "reference_calls": int, "unreachable": [str], "note": str,
           "cancelled": bool, "error": str, "crash": bool, "totals_only": bool, "fen_warnings": [str],
           "command": str, "failure": ({"side": str, "kind": str, "message": str, "own_error": str,
                                        "command": str, "path": _MOVES}, None)}
_SESSION = {"fen": str, "moves": _MOVES, "engine": (str, None), "reference": (str, None),
            "timeout": (int, float, None), "divide": (_DIVIDE, None), "finder": (_REPORT, None)}
REQUIRED = {"fen", "depth", "rows", "move", "engine", "reference", "root_fen", "levels", "side", "kind",
            "message"}
MAX_BYTES = 64 << 20          # far above any session (a whole divide tree is a few MiB)


def validate(data: dict, path: str):
    """SessionError naming the first field that does not hold what it should, or a position or
    move that cannot be played: nothing of a bad file reaches the window, which keeps what it
    showed."""
    from perftscope.core.board.position import Position
    _check(data, _SESSION, "the session", path)
    try:
        Position.from_fen(data["fen"]).play(list(data.get("moves") or []))
        if data.get("divide"):
            Position.from_fen(data["divide"]["fen"]).play(list(data["divide"].get("moves") or []))
        for level in (data.get("finder") or {}).get("levels", []):
            Position.from_fen(level["fen"])
    except PerftscopeError as e:
        raise SessionError(f"{path}: {e}") from None


def _check(value, kind, where: str, path: str):
    if isinstance(kind, tuple):
        if not any(_fits(value, k) for k in kind):
            raise SessionError(f"{path}: {where} should be {' or '.join(map(_described, kind))}, "
                               f"not {_shown(value)}")
        kind = next(k for k in kind if _fits(value, k))
    if not _fits(value, kind):
        raise SessionError(f"{path}: {where} should be {_described(kind)}, not {_shown(value)}")
    if isinstance(kind, list):
        for i, item in enumerate(value):
            _check(item, kind[0], f"{where}[{i}]", path)
    elif isinstance(kind, dict):
        for key, inner in kind.items():
            if key in value:
                _check(value[key], inner, f"{where}.{key}" if where != "the session" else key, path)
            elif key in REQUIRED:
                raise SessionError(f"{path}: {where} has no {key!r}")


def _fits(value, kind) -> bool:
    if kind is None:
        return value is None
    if isinstance(kind, list):
        return isinstance(value, list)
    if isinstance(kind, dict):
        return isinstance(value, dict)
    return isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)


def _described(kind) -> str:
    if kind is None:
        return "null"
    if isinstance(kind, list):
        return f"a list of {_described(kind[0])}s" if not isinstance(kind[0], dict) else "a list of objects"
    if isinstance(kind, dict):
        return "an object"
    return {str: "text", int: "a whole number", float: "a number", bool: "true or false"}[kind]


def _shown(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "…"


def missing_engines(data: dict) -> list[str]:
    """The session's engines that cannot be run here any more (a program moved or deleted):
    one line each. The session still opens: its saved results need no engine."""
    from perftscope.core.engines.process import executable
    from perftscope.core.engines.spec import BY_NAME, parse_spec
    lines = []
    for role in ("engine", "reference"):
        text = data.get(role)
        if not text:
            continue
        try:
            spec = parse_spec(text)
            needs = BY_NAME[spec.kind].needs          # what follows the colon, as core.engines.spec.KINDS says
            if spec.kind == "file":                   # an engine file is read, the program it names run
                if not os.path.isfile(os.path.expanduser(spec.target)):
                    raise SessionError(f"{spec.target} does not exist")
            elif needs == "file":
                executable(spec.target, spec.short_name)
            elif needs == "text":
                executable(shlex.split(spec.target)[0], spec.short_name)
        except PerftscopeError as e:
            lines.append(f"the {role} {text!r} cannot be run here ({e})")
    return lines


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
        try:
            data = load(path)
            report = Report.from_json(data["finder"]) if data.get("finder") else None
        except PerftscopeError as e:
            self.model.say(str(e), error=True)
            return False
        self.divider.abandon()
        self.engines.set(engine=data.get("engine") or "", reference=data.get("reference") or "core",
                         timeout=float(data["timeout"]) if data.get("timeout") else None)
        from perftscope.core.engines.oracle import Request
        self.model.show(Request.of(data["fen"], data.get("moves", [])))   # where the saved position enters
        self.divider.restore(data.get("divide"), report, data.get("row"))
        missing = missing_engines(data)
        if missing:     # the saved work is shown; computing more needs another engine
            self.model.say(f"Opened session {path}, but {'; '.join(missing)}: its saved results are "
                           f"shown, choose an engine that runs here to compute more", error=True)
        else:
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
