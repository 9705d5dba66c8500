"""The Suspect lines tab on a fix for this bug in an engine that has another: the diff beside the
line with *Save patch…*, worded as a fix for this bug and not the engine, the other bug's
position named, and *Locate the other bug* starting a locate there with the result's settings."""
from perftscope.app.gui import MainWindow
from perftscope.core.job import Subject
from perftscope.core.locate.job import LocateResult, LocateSettings
from perftscope.core.locate.mutation import Elsewhere, Fix, MutationResult
from perftscope.core.locate.spectra import Suspect

from ..core.locate.test_locate import HERE, PROMOTES

ENGINE = f"perftree:{HERE / 'movegen.py'}"
OTHER = Elsewhere("7k/4b3/8/2Pp4/1K6/8/8/8 w - d6 0 1", 1, "misses c5d6", "en passant by a pinned capturer",
                  alone=True)     # the engine answers it as the fix does: only the other bug shows there
DIFF = "--- a/movegen.py\n+++ b/movegen.py\n@@ -1 +1 @@\n-            for promo in \"qrb\":\n+            for promo in \"qrbn\":\n"


def result_with_a_fix_for_this_bug(**fix) -> LocateResult:
    path = str(HERE / "movegen.py")
    top = Suspect("movegen.py", 64, 64, 1, 1.0, 1.0, 0.0, 3, 0, 'for promo in "qrb":', "", path=path)
    fix = Fix("movegen.py", 64, path, "`qrb` to `qrbn`", DIFF, 3, 15, 3, 15, **({"checked": True} | fix),
              checked_by=[f"{PROMOTES} depth 1", "depth 2", "40 edge positions of its kind of move at depths 1 and 2"],
              shared=[Elsewhere("8/8/8/1k6/2pP4/8/4B3/7K b - d3 0 1", 1, "misses c4d3", "en passant"), OTHER])
    return LocateResult(Subject(PROMOTES, (), ("movegen.py", "core"), "locate"), suspects=[top],
                        mutation=MutationResult(fixes=[fix], tried=30, made=60))


def test_a_fix_for_this_bug_is_shown_with_the_other_bug_and_locates_it(qtbot):
    w = MainWindow(PROMOTES, engine=ENGINE)
    qtbot.addWidget(w)
    w.show()
    panel, state = w.suspects_panel, w.main_model.jobs["locate"]
    given = LocateSettings(ENGINE, fen=PROMOTES, depth=1, runs=3, mutants=0, build="true")
    result = result_with_a_fix_for_this_bug()
    state.begin(result.subject, "Locating", given)
    state.end(result, "Locate done")
    assert panel.fix is result.fixes[0]
    said = panel.fix_label.text()
    assert "A fix for this bug at movegen.py:64" in said and "not for the engine: it has another bug" in said
    assert f"agrees at {PROMOTES} depth 1 and depth 2; every answer it changes at 40 edge positions" in said
    assert "The engine is also wrong at 2 of the positions checked" in said
    # named by a position where this bug does not show, though another came first
    assert f"for instance at <b>{OTHER.fen}</b> depth 1: misses c5d6" in said and "apply this fix before" not in said
    assert panel.fix_view.toPlainText() == DIFF and panel.save_patch.isEnabled()
    assert panel.locate_other.isVisibleTo(panel)
    assert " fix │" in panel.source_view.toPlainText().split("\n")[63]

    panel.locate_other.click()
    assert w.locating.running and w.tabs.currentWidget() is panel
    started = state.given
    assert (started.fen, started.moves, started.depth) == (OTHER.fen, (), 1)
    assert (started.engine, started.reference, started.runs, started.build) == (ENGINE, "core", 3, "true")
    assert panel.caption.text().startswith(f"Suspect lines of locate · {OTHER.fen}")
    w.locating.stop()
    qtbot.waitUntil(lambda: not w.locating.running, timeout=10000)


def test_a_refuted_or_unchecked_candidate_is_no_fix_for_this_bug(qtbot):
    """Wrong where the engine is not, or its checks cut short: no diff, no Locate the other bug."""
    from perftscope.widgets.suspects_panel import SuspectsPanel
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    panel.show()
    for fix in ({"refuted": True, "doubt": "edge: 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 depth 1: generates illegal e1g1"},
                {"checked": False}):
        result = result_with_a_fix_for_this_bug(**fix)
        panel.show_result(result)
        assert panel.fix is None and not panel.save_patch.isEnabled() and not panel.locate_other.isVisibleTo(panel)
        assert "fix for this bug" not in panel.fix_label.text()


def test_a_position_the_engine_refuses_is_said_to_be_judged_by_its_mirror(qtbot):
    """Where the engine as it is refuses a position the fix is wrong at, the tab says so, naming the
    position and the mirror it was judged by."""
    from perftscope.widgets.suspects_panel import SuspectsPanel
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    panel.show()
    refused = Elsewhere("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", 1, "misses e4d3", "en passant",
                        mirror="4kq2/8/8/3pP3/1K6/8/8/8 w - d6 0 1")
    result = result_with_a_fix_for_this_bug()
    result.fixes[0].shared.append(refused)
    panel.show_result(result)
    said = panel.fix_label.text()
    assert "The engine is also wrong at 2 of the positions checked" in said      # the positions it was asked
    assert "1 position the engine as it is refuses was judged by its mirror" in said
    assert f"{refused.fen} depth 1: misses e4d3 (the engine as it is refuses this position" in said
    assert f"with the colours swapped, {refused.mirror}, it is wrong exactly so" in said
