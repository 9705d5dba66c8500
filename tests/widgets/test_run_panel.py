from perftscope.widgets.run_panel import RunPanel, format_rate


def test_start_asks_for_the_chosen_run_and_locks_the_controls(qtbot):
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.depth.setValue(4)
    panel.workers.setValue(1)
    panel.hash_size.setCurrentIndex(0)
    with qtbot.waitSignal(panel.startRequested) as signal:
        panel.start_button.click()
    assert signal.args == [4, 1, -1]
    panel.set_running(True)
    assert not panel.start_button.isEnabled() and panel.stop_button.isEnabled()
    assert not panel.depth.isEnabled()
    with qtbot.waitSignal(panel.stopRequested):
        panel.stop_button.click()


def test_result_shows_nodes_time_and_rate(qtbot):
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.set_running(True)
    panel.show_result(4_865_609, 2.0)
    assert "4,865,609" in panel.status.text() and "2.43 Mnps" in panel.status.text()
    assert panel.start_button.isEnabled()
    panel.show_error("depth must be between 1 and 12")
    assert panel.progress.format() == "failed" and "depth" in panel.status.text()


def test_rates_read_in_the_right_unit():
    assert format_rate(950) == "950 nps"
    assert format_rate(1_500_000_000) == "1.50 Gnps"
