import pytest

from app.bridge import Bridge, DivideService
from core.position import START_FEN
from widgets.divide_tree import DivideModel, DivideTreePanel

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


@pytest.fixture
def service(qtbot):
    bridge = Bridge()
    service = DivideService(bridge, reference="python-chess")
    yield service
    service.close()
    bridge.shutdown()


def loaded_model(qtbot, service, fen, depth, moves=()):
    model = DivideModel(service.fetch)
    with qtbot.waitSignal(model.loaded, timeout=20000):
        model.set_root(fen, depth, moves)
    return model


def test_divide_model_passes_the_model_tester(qtbot, qtmodeltester, service):
    # depth 2: the tester fetches every row it can, and so the whole tree (20 + 400 rows)
    model = loaded_model(qtbot, service, START_FEN, 2)
    assert model.rowCount() == 20
    e2e4 = model.find(["e2e4"])
    assert model.hasChildren(e2e4) and model.rowCount(e2e4) == 0 and model.canFetchMore(e2e4)
    qtmodeltester.check(model)
    # the tester stays attached while the rows it asked for arrive and are inserted
    qtbot.waitUntil(lambda: not model.loading(), timeout=20000)
    assert model.rowCount(e2e4) == 20
    assert sum(model.node(model.index(i, 0)).ours for i in range(20)) == 400


def test_expanding_a_row_fills_it_from_the_background(qtbot, service):
    model = loaded_model(qtbot, service, START_FEN, 3)
    panel = DivideTreePanel(model)
    qtbot.addWidget(panel)
    row = model.find(["g1f3"])
    assert model.data(row.siblingAtColumn(1)) == "440"
    with qtbot.waitSignal(model.loaded, timeout=20000) as signal:
        panel.view.expand(row)          # the view calls fetchMore; the divides run on a worker
    assert signal.args[0] == row
    assert model.rowCount(row) == 20
    child = model.find(["g1f3", "d7d5"])
    assert model.node(child).ours == model.node(child).ref == 22
    assert model.data(child.siblingAtColumn(3)) == "0"
    assert "agree" in panel.summary.text()


def test_moves_only_one_side_plays_are_marked_in_text_not_only_colour(qtbot, service, engine_path):
    # the planted engine lets a pawn take en passant through a rank pin: after e2e4 in
    # position 3, f4xe3 is listed only by the reference
    service.set_reference(f"perftree:{engine_path('ep_rank_pin')}")
    model = loaded_model(qtbot, service, POSITION_3, 2, ["e2e4"])
    missing = model.find(["f4e3"])
    node = model.node(missing)
    assert node.kind == "missing" and node.ours is None and node.ref is not None
    assert model.data(missing.siblingAtColumn(3)).startswith("✗ missing")
    assert model.data(missing.siblingAtColumn(1)) == "—"
    assert not model.hasChildren(missing)          # nothing to compare below a missing move


def test_an_engine_error_is_reported_and_the_model_keeps_working(qtbot, service):
    service.set_reference("uci:/nonexistent/engine")
    model = DivideModel(service.fetch)
    with qtbot.waitSignal(model.failed, timeout=10000) as signal:
        model.set_root(START_FEN, 2)
    assert "/nonexistent/engine" in signal.args[0]
    service.set_reference("python-chess")
    with qtbot.waitSignal(model.loaded, timeout=10000):
        model.set_root(START_FEN, 2)
    assert model.totals() == (400, 400)
