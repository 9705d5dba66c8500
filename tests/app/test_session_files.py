"""Session files that went wrong: cut short, not JSON, from a newer perftscope, with fields of the
wrong type, naming an engine that is gone. The window says what is wrong and keeps what it
showed; a session whose engine is gone still opens, its saved results need no engine."""
import json

import pytest

from perftscope.app.cli import main
from perftscope.app.gui import MainWindow
from perftscope.app.session_files import load
from perftscope.core.errors import PerftscopeError

EP_PIN = "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real session: the finder's search for the planted en-passant bug, saved by the CLI."""
    from pathlib import Path
    engine = Path(__file__).parents[1] / "engines" / "ep_rank_pin.py"
    path = tmp_path_factory.mktemp("session") / "bug.json"
    assert main(["gui", "--fen", EP_PIN, "--engine", f"perftree:{engine}", "--reference", "core",
                 "--find", "2", "--save-session", str(path)]) == 0
    return path.read_bytes()


@pytest.fixture
def busy_window(qtbot):
    """A window showing work of its own: Kiwipete divided by the core at depth 1."""
    w = MainWindow(KIWIPETE, reference="core", engine="")
    qtbot.addWidget(w)
    w.show()
    w.divider.divide(1)
    qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=30000)
    return w


def _shown(w):
    return (w.board.position.fen(), [(n.moves, n.row) for n in w.model.walk()], w.engines.specs(),
            w.finder_panel.text())


def _edit(raw: bytes, change) -> bytes:
    data = json.loads(raw)
    change(data)
    return json.dumps(data).encode()


def _set(path, value):
    def change(data):
        *inner, last = path
        for key in inner:
            data = data[key]
        data[last] = value
    return change


@pytest.mark.parametrize("spoil, message", [
    (lambda raw: raw[:len(raw) // 2], "is cut short: it ends at line "),
    (lambda raw: b"", "is empty: not a perftscope session"),
    (lambda raw: b"Hello, this is a note\n", "is not a perftscope session (not JSON: "),
    (lambda raw: b"\x89PNG\r\n\x1a\n\0\0", "is not a perftscope session (not text)"),
    (lambda raw: b'{"some": "json"}', 'is not a perftscope session (no "format": "perftscope-session")'),
    (lambda raw: _edit(raw, _set(["version"], 2)),
     "was saved by a newer perftscope (session version 2; this one reads version 1): update perftscope"),
    (lambda raw: _edit(raw, _set(["divide", "rows", 0, "moves"], 5)),
     "divide.rows[0].moves should be a list of texts, not 5"),
    (lambda raw: _edit(raw, _set(["finder", "levels", 0, "rows", 1, "engine"], "many")),
     'finder.levels[0].rows[1].engine should be a whole number or null, not "many"'),
    (lambda raw: _edit(raw, _set(["timeout"], "soon")), 'timeout should be a whole number or a number or null'),
    (lambda raw: _edit(raw, _set(["divide", "fen"], "8/8/8 w - - 0 1")), "FEN field 1 (piece placement)"),
    (lambda raw: _edit(raw, _set(["moves"], ["e2e5"])), "e2e5"),
    (lambda raw: _edit(raw, lambda d: d.pop("fen")), "the session has no 'fen'"),
], ids=["truncated", "empty", "not-json", "binary", "other-json", "newer-version", "row-moves-type",
        "level-count-type", "timeout-type", "bad-divide-fen", "illegal-move", "no-fen"])
def test_a_broken_session_is_a_message_and_the_window_keeps_its_work(qtbot, busy_window, saved, tmp_path,
                                                                     spoil, message):
    w = busy_window
    before = _shown(w)
    path = tmp_path / "broken.json"
    path.write_bytes(spoil(saved))
    assert not w.sessions.open(str(path))
    shown = w.message.text()
    assert message in shown and str(path) in shown and "\n" not in shown
    assert _shown(w) == before


def test_a_session_whose_engine_is_gone_opens_and_says_so(qtbot, busy_window, saved, tmp_path):
    w = busy_window
    path = tmp_path / "moved.json"
    path.write_bytes(_edit(saved, _set(["engine"], "perftree:/nowhere/ep_rank_pin.py")))
    assert w.sessions.open(str(path))
    assert w.sessions.state()["fen"] == EP_PIN
    assert w.divider.report.extra == ["e4d3"]              # the saved results, shown without an engine
    shown = w.message.text()
    assert "the engine 'perftree:/nowhere/ep_rank_pin.py' cannot be run here" in shown
    assert "its saved results are shown" in shown and not w.busy()


def test_an_unreadable_session_path_is_a_message(tmp_path):
    with pytest.raises(PerftscopeError, match="cannot read the session .*: Is a directory"):
        load(str(tmp_path))


@pytest.mark.parametrize("kind", [k for k in __import__("perftscope.core.engines.spec", fromlist=["KINDS"]).KINDS
                                  if k.needs], ids=lambda k: k.name)
def test_every_kind_that_names_a_program_is_checked_for_a_moved_engine(kind):
    """The kinds come from the one table (xboard included), not from a list of its own."""
    from perftscope.app.session_files import missing_engines
    target = "/nowhere/engine" + (" perft {depth} {fen}" if kind.needs == "text" else
                                  ".toml" if kind.name == "file" else "")
    lines = missing_engines({"engine": f"{kind.name}:{target}", "reference": "core"})
    assert len(lines) == 1 and lines[0].startswith(f"the engine '{kind.name}:/nowhere/engine") \
        and "cannot be run here" in lines[0]


def test_a_specs_options_survive_the_selector_a_saved_session_and_a_restart(qtbot, busy_window, saved, tmp_path):
    from pathlib import Path

    from perftscope.widgets.reference import EngineSelection
    w = busy_window
    engine = Path(__file__).parents[1] / "engines" / "ep_rank_pin.py"
    spec = f"perftree[chess960=false]:{engine}"
    path = tmp_path / "options.json"
    path.write_bytes(_edit(saved, _set(["engine"], spec)))
    assert w.sessions.open(str(path))
    assert w.engines.specs()[0] == spec and w.engines.pair().engine.chess960 is False
    selector = w.test_engine.choice.engine
    assert selector.spec() == spec and selector.options_label.isVisibleTo(w.test_engine)
    moved = tmp_path / "ep_rank_pin.py"                      # the user points the selector at another copy
    moved.write_bytes(engine.read_bytes())
    selector.path.setText(str(moved))
    selector.path.editingFinished.emit()
    assert w.engines.specs()[0] == f"perftree[chess960=false]:{moved}"
    assert selector.parsed().chess960 is False
    w.sessions.save(str(tmp_path / "again.json"))
    assert json.loads((tmp_path / "again.json").read_text())["engine"] == f"perftree[chess960=false]:{moved}"
    w.engines.settings.sync()
    assert EngineSelection(w.engines.settings).specs()[0] == f"perftree[chess960=false]:{moved}"   # a restart


def test_a_saved_sessions_specs_are_read_once(qtbot, busy_window, saved, tmp_path, monkeypatch):
    """Opening a session reads each engine's spec once (the selection takes it) and checks that
    engine can run here from that Spec, not from the text read again."""
    from pathlib import Path

    from ..spec_readings import count_spec_reads
    engine = f"perftree[chess960=false]:{Path(__file__).parents[1] / 'engines' / 'ep_rank_pin.py'}"
    path = tmp_path / "session.json"
    path.write_bytes(_edit(saved, _set(["engine"], engine)))
    reference = json.loads(path.read_text())["reference"]
    reads = count_spec_reads(monkeypatch)
    assert busy_window.sessions.open(str(path))
    assert sorted(r.text for r in reads) == sorted([engine, reference]), reads
    assert busy_window.engines.pair().engine.chess960 is False
