import numpy as np

from perftscope.widgets.graphs import NO_TABLE, SAMPLE_LIMIT, LiveGraphs, Series, moving_average


def test_series_keeps_the_whole_run_past_its_first_capacity():
    s = Series(capacity=4)
    for i in range(10):
        s.append(i)
    assert s.values().tolist() == list(range(10))


def test_series_stay_bounded_in_step_and_keep_the_mean():
    t, y = Series(limit=1000), Series(limit=1000)
    for i in range(1_000_000):
        t.append(i * 0.1)
        y.append(float(i % 8))
    assert t.size == y.size <= 1000 and t._data.nbytes <= 1000 * 8
    assert len(t.values()) == len(y.values()) <= 1001      # thinned in step
    assert np.all(np.diff(t.values()) > 0)                 # still in time order
    span = 2 * 1_000_000 * 0.1 / 1000                      # seconds one kept sample stands for, at most
    assert t.values()[0] <= span / 2 and np.diff(t.values()).max() <= span
    assert t.values()[-1] > 99_999.9 - span                # the newest ticks are on the plot
    assert abs(y.values()[:-1].mean() - 3.5) < 0.01         # the mean of any stretch is kept


def test_a_run_of_hours_keeps_bounded_buffers_and_the_same_lines(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    ticks = 100_000                           # 10 000 s of 100 ms ticks
    for i in range(ticks):
        graphs.add_sample(i * 0.1, 2e6 if i % 2 else 0.0, 0.25, [10, 20], 0.5)   # swinging 0 / 2M
    graphs.refresh()
    x = graphs.nps_raw.xData
    assert len(x) <= SAMPLE_LIMIT + 1 and x[0] < 60 and x[-1] > (ticks - 1) * 0.1 - 2
    # the smoothed line still reads the steady 1M/s, at the start as at the end
    assert np.allclose(graphs.nps_curve.yData[len(x) // 10:], 1e6, rtol=0.15)
    assert np.allclose(graphs.hit_curve.yData, 25.0)


def test_refresh_hands_every_sample_to_the_curves(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    for i in range(3000):
        graphs.add_sample(i * 0.1, 1e6 + i, 0.25, [10, 20, 30], 0.5)
    graphs.refresh()
    x, y = graphs.nps_raw.xData, graphs.nps_raw.yData
    assert len(x) == 3000 and y[-1] == 1e6 + 2999
    # the line people read: the mean of the last second (samples 2990..2999)
    assert len(graphs.nps_curve.yData) == 3000 and graphs.nps_curve.yData[-1] == 1e6 + 2994.5
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
    assert 7.2e8 * 1.05 <= y_range[1] <= 1.1e9         # the next step above the data, with headroom
    graphs.add_sample(0.2, 7.0e8, 0.5, [1e8, 2e8], 0.1)
    graphs.refresh()
    assert graphs.nps_plot.getViewBox().viewRange()[1] == y_range   # no change: no new ticks
    graphs.fit()
    assert abs(graphs.nps_plot.getViewBox().viewRange()[0][1] - 0.2) < 0.01


def test_moving_average_covers_about_a_second_whatever_the_tick_spacing():
    t = np.array([0.0, 0.1, 0.2, 1.15, 1.3, 3.0])
    y = np.array([0.0, 10.0, 20.0, 30.0, 40.0, 50.0])
    smooth = moving_average(t, y, window=1.0)
    # each point: the samples in (t - 1 s, t]
    assert smooth.tolist() == [0.0, 5.0, 10.0, 25.0, 35.0, 50.0]


def test_a_zero_to_ten_gnps_swing_reads_as_the_steady_rate(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    for i in range(100):                        # 20 Hz ticks alternating 0 and 10 Gnps
        graphs.add_sample(i * 0.05, 1e10 * (i % 2), 0.5, [1], 0.1)
    graphs.refresh()
    assert np.all(np.abs(graphs.nps_curve.yData[20:] - 5e9) <= 0.1 * 5e9)
    top = graphs.nps_plot.getViewBox().viewRange()[1][1]
    assert 1e10 <= top <= 2e10      # the raw samples stay on the plot, the line in its middle


def test_a_reading_without_a_hit_rate_sample_leaves_no_point(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    for i, rate in enumerate((None, None, 0.4, None, 0.5)):
        graphs.add_sample(0.1 * (i + 1), 1e8, rate, [1], 0.1)
    graphs.refresh()
    assert graphs.hit_curve.xData.tolist() == [0.30000000000000004, 0.5]
    assert graphs.hit_curve.yData.tolist() == [40.0, 50.0]
    assert len(graphs.nps_raw.xData) == 5


def test_one_worker_axis_reads_worker_1_without_a_scale_factor(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    graphs.add_sample(0.1, 1e6, 0.0, [12345], 0.0)
    graphs.refresh()
    axis = graphs.worker_plot.getAxis("bottom")
    assert axis.autoSIPrefixScale == 1.0 and "x0.001" not in axis.labelString()
    assert axis._tickLevels == [[(0, "1")]]
    # every measured axis has a name and a unit (the fill bar's x is just the table)
    for plot, sides in ((graphs.nps_plot, "lb"), (graphs.hit_plot, "lb"), (graphs.worker_plot, "lb"),
                        (graphs.fill_plot, "l")):
        for side in sides:
            axis = plot.getAxis({"l": "left", "b": "bottom"}[side])
            assert axis.labelText and axis.labelUnits


def test_a_run_without_a_table_says_so_instead_of_empty_plots(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    graphs.show()
    graphs.set_table(False)
    assert graphs.no_table.isVisible() and graphs.no_table.text() == NO_TABLE
    assert not graphs.hit_plot.isVisible() and not graphs.fill_plot.isVisible()
    graphs.set_table(True)
    assert not graphs.no_table.isVisible() and graphs.hit_plot.isVisible()


def test_a_narrow_panel_stacks_the_plots_in_one_column(qtbot):
    graphs = LiveGraphs()
    qtbot.addWidget(graphs)
    graphs.resize(900, 600)
    graphs.show()
    qtbot.waitExposed(graphs)
    assert graphs.columns == 2
    graphs.resize(380, 900)
    qtbot.waitUntil(lambda: graphs.columns == 1)
    qtbot.waitUntil(lambda: graphs.hit_plot.y() > graphs.worker_plot.y() > graphs.nps_plot.y())
    assert graphs.nps_plot.width() >= graphs.nps_plot.minimumWidth()
