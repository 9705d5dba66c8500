"""The window at 1024x700 and at 1600x1000: every tab's title whole, an engine path field a file
name fits in, the Race tab without sideways scrolling, a FEN font that can be read, findings whose
FENs stay in their column on compact rows, and a long status message that stops short of the
Chess960 box."""
import pytest
from PySide6.QtGui import QFontMetrics

from perftscope.app.gui import MainWindow
from perftscope.core.board.position import START_FEN
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.mismatch.findings import Finding, investigate
from perftscope.widgets.cells import MARGIN, wrapped
from perftscope.widgets.reference import SpecSelector
from perftscope.widgets.test_engine_panel import COLUMNS, ROW_LINES
from perftscope.core.engines.oracle import Request

EP_PIN = "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"
FULL = ["Divide", "Finder report", "Engine log", "Perft run", "Test engine", "Race", "Suspect lines"]


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    from perftscope.app.warmup import warm
    warm()


@pytest.fixture
def window(qtbot, engine_path):
    def make(size):
        w = MainWindow(START_FEN, engine=f"perftree:{engine_path('ep_rank_pin')}", reference="core")
        qtbot.addWidget(w)
        w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
        qtbot.wait(20)
        return w
    return make


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_every_tab_and_field_has_its_room(qtbot, window, size):
    w = window(size)
    bar = w.tabs.tabBar()
    for i in range(bar.count()):                  # not compressed: the title is drawn whole
        assert bar.tabRect(i).width() >= bar.tabSizeHint(i).width() - 1, (bar.tabText(i), bar.tabRect(i))
    titles = [bar.tabText(i) for i in range(bar.count())]
    if size[0] >= 1600:
        assert titles == FULL
    else:
        assert titles == ["Divide", "Finder", "Log", "Perft", "Test", "Race", "Lines"]
        assert [bar.tabToolTip(i).split(":")[0] for i in range(bar.count())] == FULL
    # the engine's path: room for a file name beside its kind
    paths = [s.path for s in w.tree.findChildren(SpecSelector) if s.path.isVisible()]
    assert paths and all(p.width() >= 140 for p in paths)
    # the Race tab: as wide as it needs, no part of it beyond the right edge
    w.tabs.setCurrentWidget(w.race_tab)
    qtbot.wait(20)
    assert w.race_panel.width() <= w.race_tab.viewport().width()
    assert not w.race_tab.horizontalScrollBar().isVisible()
    race_paths = [s.path for s in w.race_panel.findChildren(SpecSelector) if s.path.isVisible()]
    assert race_paths and race_paths[0].width() >= 140
    # the FEN: whole and readable
    fen = w.board.fen_edit
    assert fen.font().pixelSize() >= 10
    assert QFontMetrics(fen.font()).horizontalAdvance(fen.text()) <= fen.width() - 14


def test_a_long_status_message_stops_short_of_the_chess960_box(qtbot, window):
    w = window((1024, 700))
    long = ("perftree:/home/someone/projects/engine/build/release/scripts/my-perft.sh crashed during the "
            "search: the levels found before are kept; its error is above the tree and in the Finder report")
    w.main_model.say(long, error=True)
    qtbot.wait(20)
    assert w.message.text() == f"⚠ {long}"          # whole, for copying and in its tooltip
    assert w.message.toolTip() == w.message.text()
    right = w.message.mapTo(w, w.message.rect().topRight()).x()
    assert right < w.chess960.mapTo(w, w.chess960.rect().topLeft()).x()
    assert w.message.shown().endswith("…")
    w.main_model.say("short", error=False)
    qtbot.wait(20)
    assert w.message.toolTip() == "" and w.message.shown() == "short"


def test_findings_keep_their_fens_in_their_column_on_compact_rows(qtbot, window, engine_path):
    w = window((1024, 700))
    panel = w.test_engine
    w.tabs.setCurrentWidget(panel)
    found = investigate(make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core"), Request.of(EP_PIN), 1,
                        name="fuzz #7")
    hung = Finding("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, "timeout",
                   error="hang_on_ep.py: no answer within 60 s (it was stopped): the last line it printed "
                         "was 'info string searching'", path=["e5d7"], name="fuzz #12", count=11)
    for finding in (found, hung):
        panel.add_finding(finding, "ep_rank_pin.py", "core")
    qtbot.wait(20)
    table = panel.table
    font = table.font()
    line = QFontMetrics(font).lineSpacing()
    for row in range(table.rowCount()):
        assert table.rowHeight(row) <= ROW_LINES * line + 2 * MARGIN + 1
        for col in range(len(COLUMNS)):
            item = table.item(row, col)
            width = table.columnWidth(col) - 2 * MARGIN
            lines = wrapped(item.text(), font, width, ROW_LINES)
            # each line drawn inside the column, a FEN's board field broken inside it if it must
            assert all(QFontMetrics(font).horizontalAdvance(text) <= width for text in lines), (item.text(), lines)
            assert item.text() in item.toolTip()                   # whole in its tooltip
    found_at = table.item(1, COLUMNS.index("Found at")).text()
    assert found_at.startswith("fuzz #12: r3k2r/") and found_at.endswith("and 10 more")


SMALL_SCREEN = ('{"screens": [{"name": "small", "x": 0, "y": 0, "width": 1024, "height": 700, '
                '"logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}')
FIT = """
import json, sys
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from perftscope.app.gui import MainWindow
app = QApplication([])
settings = QSettings(sys.argv[1], QSettings.IniFormat)
shapes = []
def launch(saved=None):
    w = MainWindow(settings=settings)
    w.show()
    for _ in range(3):
        app.processEvents()
    frame, bar = w.frameGeometry(), w.statusBar()
    bottom = bar.mapToGlobal(bar.rect().bottomLeft()).y()
    shapes.append([frame.x(), frame.y(), frame.width(), frame.height(), bottom])
    return w
w = launch()                                   # a first launch: the default size is 1560x900
w.setGeometry(1, 25, 1024, 700)                # left where a larger screen's window would be
w.close()
launch()                                       # restored
print(json.dumps(shapes))
"""


def test_the_window_fits_the_available_screen_at_first_launch_and_restored(tmp_path):
    """On a 1024x700 screen the window is inside the screen's available area, its status bar too,
    at a first launch and when a saved geometry would put it lower."""
    import json
    import os
    import subprocess
    import sys
    config = tmp_path / "screen.json"
    config.write_text(SMALL_SCREEN)
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    out = subprocess.run([sys.executable, "-c", FIT, str(tmp_path / "settings.ini")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for x, y, width, height, bottom in json.loads(out.stdout.splitlines()[-1]):
        assert x >= 0 and y >= 0 and x + width <= 1024 and y + height <= 700, (x, y, width, height)
        assert bottom < 700


def test_a_suspect_lines_result_keeps_the_window_on_a_small_screen(qtbot, window, engine_path):
    w = window((1024, 700))
    w.tabs.setCurrentWidget(w.suspects_panel)
    w.suspects_panel.show_source(str(engine_path("ep_rank_pin")))      # its file named above the source
    qtbot.wait(20)
    assert w.minimumSizeHint().width() <= 1024 and w.width() == 1024
