"""Learned dialects kept between sessions: one small JSON record per engine, keyed by its spec and
by what identifies the program (its path, size and modification time), so a rebuilt engine is
calibrated again and an unchanged one is read at once.

Records live in `$PERFTSCOPE_DIALECTS`, else `$XDG_CONFIG_HOME/perftscope/dialects` (by default
~/.config/perftscope/dialects). A record that cannot be read is ignored (the engine is calibrated
again); one that cannot be written is not an error (the next session calibrates again).
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from ..errors import EngineError
from .dialect import Dialect
from .spec import Spec

FORMAT = 1          # bumped when what a record means changes: older records are relearned


def folder() -> Path:
    where = os.environ.get("PERFTSCOPE_DIALECTS")
    if where:
        return Path(where)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "perftscope" / "dialects"


def program_identity(path: str) -> str:
    """What changes when a program is rebuilt: its path, size and modification time."""
    try:
        st = os.stat(path)
    except OSError:
        return path
    return f"{path} {st.st_size} {st.st_mtime_ns}"


def record_path(spec: Spec, identity: str) -> Path:
    key = hashlib.sha256(f"{FORMAT}\n{spec.text}\n{identity}".encode()).hexdigest()[:20]
    return folder() / f"{key}.json"


def load(spec: Spec, identity: str) -> Dialect | None:
    path = record_path(spec, identity)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("spec") != spec.text or data.get("identity") != identity:
            return None
        return Dialect.from_dict(data["dialect"], str(path))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EngineError):
        return None


def save(spec: Spec, identity: str, dialect: Dialect) -> Path | None:
    """The record's path, or None when it could not be written."""
    path = record_path(spec, identity)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}-{threading.get_ident()}")
        tmp.write_text(json.dumps({"spec": spec.text, "identity": identity, "dialect": dialect.to_dict()},
                                  indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return path
    except OSError:
        return None
