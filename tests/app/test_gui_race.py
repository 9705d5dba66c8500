"""The Race tab: live points arrive as each depth finishes, a disqualification is worded from the
engine's side, Stop ends the engine at once, export writes the table."""
import json

import pytest
from PySide6.QtCore import Qt

from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN
from perftscope.core.race.runner import standard_positions
from perftscope.widgets.race_panel import COLUMNS, RESULT

from ..core.engines.test_engine_io import _gone as gone

POSITIONS = {p.name: p for p in standard_positions()}


@pytest.fixture
def window(qtbot):
    w = MainWindow(START_FEN)
    qtbot.addWidget(w)
    w.show()
    w.tabs.setCurrentWidget(w.race_tab)
    return w


def only(panel, *names):
    """Tick just these positions of the panel's list."""
    from PySide6.QtCore import Qt
    for i, position in enumerate(panel.positions):
        panel.position_list.item(i).setCheckState(Qt.Checked if position.name in names else Qt.Unchecked)


def test_points_arrive_live_and_a_wrong_count_is_worded(qtbot, window, engine_path, tmp_path):
    panel = window.race_panel
    panel.add_engine("python-chess")
    panel.add_engine(f"perftree:{engine_path('ep_rank_pin')}")
    panel.stockfish.setChecked(False)
    only(panel, "initial", "pos3")
    panel.by_depth.setChecked(True)
    panel.depth.setValue(3)
    panel.start_button.click()
    assert panel.stop_button.isEnabled() and not panel.markdown_button.isEnabled()
    graphs = panel.graphs
    qtbot.waitUntil(lambda: graphs.curves[0].xData is not None and len(graphs.curves[0].xData) >= 1,
                    timeout=30000)
    assert window.races.running                  # a point on the graph before the race ended
    qtbot.waitUntil(lambda: not window.races.running, timeout=60000)
    assert graphs.laps[(0, 0)] and [d for d, _ in graphs.laps[(0, 0)]] == [2, 3]
    rows = {(panel.table.item(r, 0).text(), panel.table.item(r, 1).text()): r for r in range(panel.table.rowCount())}
    assert len(rows) == 6                        # python-chess, ep_rank_pin.py, core on two positions
    wrong = rows[("pos3", "ep_rank_pin.py")]
    assert panel.table.item(wrong, RESULT).text() == "✚ wrong count at depth 2: illegal f4e3"
    assert "exposes king h4 to rook b4" in panel.table.item(wrong, RESULT).toolTip()
    assert panel.table.item(rows[("initial", "core")], COLUMNS.index("Depth")).text() == "3"
    assert graphs.results[(1, 1)] is None and graphs.results[(0, 0)] > 0      # a mark, and a bar
    assert "out: ep_rank_pin.py on pos3 (wrong count)" in panel.status.text()
    assert panel.table.currentRow() == wrong and graphs.current == 1     # shown, with pos3's depths
    # Which line? on the wrong count: that engine on that position at that depth, whatever is chosen
    assert panel.row_menu(rows[("pos3", "core")]) is None
    window.engines.set(engine="python-chess")
    window.suspects_panel.runs.setValue(2)
    panel.row_menu(wrong).actions()[0].trigger()
    given = window.main_model.jobs["locate"].given
    assert window.locating.running and str(given.engine) == f"perftree:{engine_path('ep_rank_pin')}"
    assert (given.fen, given.moves, given.depth) == (POSITIONS["pos3"].fen, (), 2)
    window.locating.stop()
    qtbot.waitUntil(lambda: not window.locating.running, timeout=10000)
    window.tabs.setCurrentWidget(window.race_tab)
    panel.table.setCurrentCell(rows[("initial", "core")], 0)
    assert graphs.current == 0 and len(graphs.curves[0].xData) == 2      # python-chess at depths 2 and 3

    assert panel.markdown_button.isEnabled()
    target = tmp_path / "race.md"
    panel.exportRequested.emit("markdown", str(target))
    text = target.read_text()
    assert "| engine | initial | pos3 |" in text
    assert "| ep_rank_pin.py | " in text and "✚ wrong count at depth 2: illegal f4e3" in text
    panel.exportRequested.emit("json", str(tmp_path / "race.json"))
    data = json.loads((tmp_path / "race.json").read_text())
    assert [h["status"] for h in data["heats"]].count("wrong count") == 1


def test_stop_ends_every_process_at_once(qtbot, window, engine_path):
    panel = window.race_panel
    panel.add_engine(f"uci:{engine_path('uci_hang')}")
    panel.core.setChecked(False)
    panel.stockfish.setChecked(False)
    only(panel, "initial")
    panel.start_button.click()
    qtbot.waitUntil(lambda: "Racing uci_hang.py on initial: depth 1" in panel.status.text(), timeout=20000)
    pid = window.races.jobs.job.race.racers[0].oracle.pid
    panel.stop_button.click()
    qtbot.waitUntil(lambda: not window.races.running, timeout=3000)
    assert gone(pid)
    assert panel.table.item(0, RESULT).text() == "stopped" and panel.status.text().startswith("Race stopped")


def test_a_race_whose_engine_cannot_start_leaves_no_row_waiting(qtbot, window, tmp_path):
    panel = window.race_panel
    panel.add_engine(f"perftree:{tmp_path / 'no-such-engine'}")
    panel.stockfish.setChecked(False)
    only(panel, "initial")
    panel.start_button.click()
    qtbot.waitUntil(lambda: not window.races.running, timeout=20000)
    assert "no-such-engine" in panel.status.text()
    results = [panel.table.item(r, RESULT).text() for r in range(panel.table.rowCount())]
    assert results and set(results) == {"not run"}, results
    assert "no-such-engine" in panel.table.item(0, RESULT).toolTip()


def test_a_whole_spec_typed_in_the_path_field_is_read_as_one(window):
    """`xboard:sjeng` typed where the path goes, the kind shown being perftree's: the engine is
    sjeng spoken to in xboard, not a perftree script named `xboard:sjeng`."""
    selector = window.race_panel.selector
    selector.set_spec("perftree:tests/engines/correct.py")
    selector.path.setText("xboard:sjeng")
    selector.path.editingFinished.emit()
    assert selector.spec() == "xboard:sjeng" and selector.kind.currentData() == "xboard"
    assert selector.path.text() == "sjeng"
    selector.path.setText("uci[chess960=false]:stockfish")
    selector.path.editingFinished.emit()
    assert selector.spec() == "uci[chess960=false]:stockfish"


def test_a_position_of_ones_own(window):
    panel = window.race_panel
    panel.add_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    assert "king" in panel.status.text().lower() and len(panel.positions) == 5
    panel.add_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert panel.positions[-1].fen == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert panel.settings().positions[-1] == panel.positions[-1]


def test_the_chess960_box_races_the_positions_as_chess960(qtbot, window):
    """Ticked, the race sends each position so that it says Chess960 (Stockfish gets UCI_Chess960):
    the same counts, castling written king takes rook."""
    from perftscope.core.board.position import Position
    panel = window.race_panel
    only(panel, "kiwipete")
    panel.by_depth.setChecked(True)
    panel.depth.setValue(2)
    window.chess960.setChecked(True)
    panel.start_button.click()
    qtbot.waitUntil(lambda: not window.races.running, timeout=60000)
    race = window.races.state.result
    assert [h.engine for h in race.heats] == ["core", "stockfish"]
    assert all(h.status == "done" and h.laps[-1].nodes == 2039 for h in race.heats)
    assert Position.from_fen(race.positions[0].fen).chess960 and " HAha " in race.positions[0].fen
    assert "Chess960" in panel.graphs.caption.text()


def test_a_chess960_fen_of_ones_own_reads_with_the_box(qtbot, window):
    panel = window.race_panel
    fen = "qn1rkrbb/pp1p1ppp/2p1p3/3n4/4P2P/2NP4/PPP2PP1/Q1NRKRBB w KQkq - 0 1"   # X-FEN, kings on e1/e8
    qtbot.keyClicks(panel.fen, fen)
    qtbot.keyClick(panel.fen, Qt.Key_Return)
    assert len(panel.positions) == 5 and "valid Chess960 position: tick Chess960" in panel.status.text()
    window.chess960.setChecked(True)
    qtbot.keyClick(panel.fen, Qt.Key_Return)
    assert len(panel.positions) == 6 and panel.positions[-1].fen.split()[2] == "FDfd"

