"""The Race tab's table and plots at the width a 1024 px window gives it: a verdict is shown
whole, the legend sits beside the plots, not over their curves."""
from PySide6.QtCore import Qt

from perftscope.core.race.runner import DONE, WRONG, Heat, Lap, RacePosition
from perftscope.widgets.race_panel import COLUMNS, RESULT, RacePanel
from perftscope.widgets.reference import EngineSelection

KIWIPETE = RacePosition("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")


def heats():
    out = Heat(0, "castle_without_rook.py", KIWIPETE, status=WRONG,
               verdict="depth 3: 97,870 against the core's 97,862 (+8); not generated e1g1 (castling rights K)")
    out.laps = [Lap(1, 48, 0.05, None, 0.01, 20 << 20, "wait4"), Lap(2, 2039, 0.06, 0.01, 0.02, 20 << 20, "wait4")]
    done = Heat(1, "stockfish", KIWIPETE, status=DONE)
    done.laps = [Lap(1, 48, 0.004, None, 0.0, 130 << 20, "/proc"),
                 Lap(2, 2039, 0.0041, 0.0001, 0.0, 130 << 20, "/proc", noise=0.001),
                 Lap(5, 193690690, 2.0, 1.996, 1.99, 130 << 20, "/proc", noise=0.001)]
    return [out, done]


def test_a_verdict_is_whole_in_a_narrow_tab_and_the_legend_is_not_over_the_curves(qtbot):
    panel = RacePanel(EngineSelection(), [KIWIPETE])
    qtbot.addWidget(panel)
    panel.resize(420, 900)                 # the Race tab of a 1024x700 window
    panel.show()
    shown = heats()
    panel.show_race(shown, ["castle_without_rook.py", "stockfish"], "Race on kiwipete")
    for i, heat in enumerate(shown):
        panel.show_heat(i, heat)
    qtbot.wait(50)
    item = panel.table.item(0, RESULT)
    assert item.text().startswith("✗ wrong count at depth 3: not generated e1g1")
    rect = panel.table.visualItemRect(item)
    needed = panel.table.fontMetrics().boundingRect(0, 0, rect.width() - 8, 10000, Qt.TextWordWrap, item.text())
    assert rect.width() >= 160 and needed.height() <= rect.height()        # wrapped, not cut
    assert rect.right() <= panel.table.viewport().width()                    # in sight without scrolling
    # a depth quicker than the start-up's noise has no speed, and says why
    speed = panel.table.item(1, COLUMNS.index("Speed"))
    assert speed.text() not in ("", "too quick") and panel.table.item(1, COLUMNS.index("Depth")).text() == "5"
    graphs = panel.graphs
    assert graphs.depth_plot.plotItem.legend is None
    assert "castle_without_rook.py" in graphs.legend.text() and "stockfish" in graphs.legend.text()
    assert graphs.legend.geometry().bottom() <= graphs.depth_plot.geometry().top()


def test_the_panel_watches_the_race_state(qtbot):
    """Nothing pushed: the rows come from the state's Race, each heat from its events as they
    arrive, and the first engine out is selected once the race is the state's result."""
    from perftscope.app.model import JobState
    from perftscope.core.job import Subject
    from perftscope.core.race.race_job import RaceEvent
    from perftscope.core.race.runner import Race
    panel = RacePanel(EngineSelection(), [KIWIPETE])
    qtbot.addWidget(panel)
    state = JobState()
    panel.watch(state)
    race = Race(["python-chess"], [KIWIPETE], depth=3, yardsticks=("core",))
    state.begin(Subject(engines=("python-chess", "core"), what="Race on kiwipete"), "Starting 2 engines…", race)
    assert panel.table.rowCount() == 2 and panel.table.item(0, RESULT).text() == "waiting"
    assert "Race on kiwipete · depth 3" in panel.graphs.caption.text()
    shown = heats()
    for heat in shown:
        state.add(RaceEvent("heat", heat))
    assert panel.table.item(0, RESULT).text().startswith("✗ wrong count at depth 3")
    assert panel.table.item(1, COLUMNS.index("Depth")).text() == "5"
    panel.table.setCurrentCell(1, RESULT)
    race.heats[:] = shown                                 # as the race ended
    state.end(race, "Race done")
    assert panel.table.currentRow() == 0                  # the engine out, selected once


def test_each_racer_listed_says_how_it_is_run(qtbot):
    panel = RacePanel(EngineSelection(), [KIWIPETE])
    qtbot.addWidget(panel)
    panel.set_choices({"engines": ["perftree:/builds/old/my-perft.sh", "uci:/builds/new/my-perft.sh", "python-chess"]})
    assert [panel.engines.item(i).text() for i in range(panel.engines.count())] == \
        ["my-perft.sh · perftree", "my-perft.sh · uci", "python-chess"]
