"""A perft run shorter than one refresh tick still shows what each worker searched, and a run
whose counters read zero does not leave the axes at pyqtgraph's -500..500 fallback."""
import numpy as np

from perftscope.app.bridge import Bridge
from perftscope.app.model import MainModel
from perftscope.app.perft_runs import RunController
from perftscope.core.board.position import START_FEN, Position
from perftscope.widgets.context import ContextBar
from perftscope.widgets.graphs import LiveGraphs
from perftscope.widgets.run_panel import RunPanel


def test_a_run_shorter_than_a_tick_fills_the_worker_bars(qtbot):
    bridge, panel, graphs = Bridge(), RunPanel(), LiveGraphs()
    qtbot.addWidget(panel)
    qtbot.addWidget(graphs)
    model = MainModel()
    model.board_moved(Position.from_fen(START_FEN), (START_FEN, ()))       # what the run counts
    runs = RunController(bridge, panel, graphs, ContextBar(), model)
    with qtbot.waitSignal(runs.finished, timeout=30000) as finished:
        runs.start(3, 2, -1)
    assert finished.args[0].nodes == 8902
    graphs.refresh()
    heights = graphs.worker_bars.opts["height"]
    assert len(heights) == 2 and heights.sum() > 0


def test_fitting_an_all_zero_run_keeps_the_axes_at_zero(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    graphs.add_sample(0.1, 0.0, 0.0, [0, 0], 0.0)
    graphs.refresh()
    graphs.fit()
    for plot in (graphs.nps_plot, graphs.worker_plot):
        bottom, top = plot.getViewBox().viewRange()[1]
        assert bottom >= -0.05 and top > 0


def test_a_hashed_run_draws_rates_only_while_it_counts(qtbot):
    # before the first node (the split, the table's allocation) there is no rate to draw; after
    # Stop neither; a hit rate needs enough probes behind it
    bridge, panel, graphs = Bridge(), RunPanel(), LiveGraphs()
    qtbot.addWidget(panel)
    qtbot.addWidget(graphs)
    model = MainModel()
    model.board_moved(Position.from_fen(START_FEN), (START_FEN, ()))
    runs = RunController(bridge, panel, graphs, ContextBar(), model)
    runs.start(8, 2, 22)
    qtbot.waitUntil(lambda: graphs.hit_rate.size >= 1 and (~np.isnan(graphs.hit_rate.values())).sum() >= 3,
                    timeout=60000)
    with qtbot.waitSignal(runs.finished, timeout=30000) as finished:
        runs.stop()
    assert finished.args[0].cancelled
    nps, hits = graphs.nps.values(), graphs.hit_rate.values()
    assert nps[0] > 0 and nps[-1] > 0                   # no zero before counting, none at Stop
    sampled = hits[~np.isnan(hits)]
    assert sampled.size >= 3 and np.all(sampled > 0)    # nor a hit rate of nothing
