import numpy as np

from widgets.graphs import LiveGraphs, Series


def test_series_keeps_the_whole_run_past_its_first_capacity():
    s = Series(capacity=4)
    for i in range(10):
        s.append(i)
    assert s.values().tolist() == list(range(10))


def test_refresh_hands_every_sample_to_the_curves(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    for i in range(3000):
        graphs.add_sample(i * 0.1, 1e6 + i, 0.25, [10, 20, 30], 0.5)
    graphs.refresh()
    x, y = graphs.nps_curve.xData, graphs.nps_curve.yData
    assert len(x) == 3000 and y[-1] == 1e6 + 2999
    assert np.allclose(graphs.hit_curve.yData, 25.0)
    assert graphs.worker_bars.opts["height"].tolist() == [10, 20, 30]
    graphs.clear()
    assert graphs.nps_curve.xData is None or len(graphs.nps_curve.xData) == 0


def test_axes_move_in_steps_and_fit_the_run_when_it_ends(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    graphs.add_sample(0.1, 7.2e8, 0.5, [1e8, 2e8], 0.1)
    graphs.refresh()
    x_range, y_range = graphs.nps_plot.getViewBox().viewRange()
    assert abs(x_range[1] - 0.1) < 0.01
    assert 7.2e8 < y_range[1] <= 8.2e8                 # the next step above the data
    graphs.add_sample(0.2, 7.0e8, 0.5, [1e8, 2e8], 0.1)
    graphs.refresh()
    assert graphs.nps_plot.getViewBox().viewRange()[1] == y_range   # no change: no new ticks
    graphs.fit()
    assert abs(graphs.nps_plot.getViewBox().viewRange()[0][1] - 0.2) < 0.01
