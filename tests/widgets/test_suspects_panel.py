"""The Suspect lines tab's word on the fix when there is none: that no one-token change fixes the
engine only once every mutant made has run; a stopped mutation says what it left undone."""
from perftscope.core.job import Subject
from perftscope.core.locate.job import LocateResult
from perftscope.core.locate.mutation import Fix, MutationResult
from perftscope.core.locate.spectra import Suspect
from perftscope.widgets.suspects_panel import SuspectsPanel


def result_of(tmp_path, mutation):
    source = tmp_path / "engine.py"
    source.write_text("if king is None or rank(king) != rank(sq):\n    return False\n")
    top = Suspect("engine.py", 1, 1, 1, 1.0, 1.0, 0.0, 3, 0, "if king is None ...", "", path=str(source))
    return LocateResult(Subject("8/8/8/8/Q1pP3k/8/8/4K3 b - d3 0 1", (), ("engine.py", "core"), "locate"),
                        suspects=[top], mutation=mutation, stopped=bool(mutation.cut))


def shown_panel(qtbot, width: int, height: int) -> SuspectsPanel:
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def candidate(**more):
    return Fix("engine.py", 1, "", "`!=` to `==`", "", 3, 15, 3, 15, **more)


def test_a_stopped_mutation_names_its_unchecked_candidate_and_offers_no_fix(qtbot, tmp_path):
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    panel.show_result(result_of(tmp_path, MutationResult(fixes=[candidate()], tried=14, made=60, cut="stopped")))
    said = panel.fix_label.text()
    assert "no one-token change" not in said.lower()
    assert said.startswith("A candidate at engine.py:1, `!=` to `==`,") and \
        "not checked beyond the runs (stopped)" in said
    assert panel.fix is None and not panel.save_patch.isEnabled()
    panel.show_result(result_of(tmp_path, MutationResult(tried=14, made=60, cut="the time was up")))
    said = panel.fix_label.text()
    assert "no one-token change" not in said.lower() and "14 mutants run of 60 made (the time was up)" in said


def test_every_mutant_run_without_a_fix_says_no_one_token_change_fixes_it(qtbot, tmp_path):
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    refuted = candidate(doubt="depth 3: count differs")
    panel.show_result(result_of(tmp_path, MutationResult(fixes=[refuted], tried=60, made=60)))
    said = panel.fix_label.text()
    assert said.startswith("No one-token change fixes it") and "engine.py:1" in said and "(60 mutants run)" in said


def test_the_panel_watches_the_locate_state(qtbot, tmp_path):
    """Nothing pushed: what a locate runs on, then its result, come from the "locate" JobState."""
    from perftscope.app.model import JobState
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    state = JobState()
    panel.watch(state)
    result = result_of(tmp_path, MutationResult(tried=60, made=60))
    state.begin(result.subject, "Locating engine.py: finding the failing position…")
    assert panel.caption.text().startswith("Suspect lines of locate · 8/8/8/8/Q1pP3k/8/8/4K3 b - d3 0 1")
    assert panel.table.rowCount() == 0 and panel.can_stop()
    state.end(result, "Locate done")
    assert panel.result is result and panel.table.rowCount() == 1
    assert panel.table.item(0, 1).text() == result.suspects[0].where


def test_the_source_and_the_fix_get_the_room_in_a_small_window(qtbot, tmp_path):
    """In the Lines tab of a 1024x700 window (about 440x600) the source is stacked above the fix,
    each the tab's whole width, and the source is not squeezed to a few lines by the table."""
    from dataclasses import replace
    panel = shown_panel(qtbot, 440, 600)
    result = result_of(tmp_path, MutationResult(tried=14, made=60))
    result.mutation.fixes.append(replace(candidate(confirmed=True), path=result.suspects[0].path,
                                         diff="--- a/engine.py\n+++ b/engine.py\n-!=\n+==\n"))
    panel.show_result(result)
    qtbot.wait(20)
    source, fix = panel.source_view, panel.fix_view
    assert panel.fix is not None and fix.isVisible() and fix.height() >= 50, fix.height()
    assert source.width() > 0.8 * panel.width() and fix.width() > 0.8 * panel.width()
    assert source.height() >= 130, source.height()          # it had 118 px (and 248 wide) under a table of one row, 192 px tall
    assert panel.table.height() < source.height()
    # without a fix, what the mutants said is a few lines and the source has the rest
    panel.show_result(result_of(tmp_path, MutationResult(tried=60, made=60)))
    qtbot.wait(20)
    assert not fix.isVisible() and source.height() >= 200, source.height()


def test_mutants_run_as_time_allows_unless_capped(qtbot):
    """By default the tab asks for mutants as the mutation's seconds allow, as the CLI does
    (no --mutants); a number caps them and 0 ranks by spectra alone."""
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    assert panel.options()["mutants"] is None and panel.mutants.text() == "as time allows"
    panel.mutants.setValue(40)
    assert panel.options()["mutants"] == 40
    panel.mutants.setValue(0)
    assert panel.options()["mutants"] == 0
    panel.set_choices({"mutants": -1})
    assert panel.options()["mutants"] is None


def test_a_fix_confirmed_where_a_game_can_go_names_the_engine_s_bug_out_of_any_game(qtbot, tmp_path):
    """The engine as it is wrong only at positions no game reaches, the same way with or without
    the change: the fix is confirmed, and the tab says where the other bug shows."""
    from dataclasses import replace
    from perftscope.core.locate.mutation import Elsewhere
    skewer = "6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 2"
    panel = SuspectsPanel()
    qtbot.addWidget(panel)
    result = result_of(tmp_path, MutationResult(tried=60, made=60))
    other = Elsewhere(skewer, 1, "generates illegal e5d6", "", (("e5d6", (1, None)),), alone=True,
                      unreachable="before black's double push d7d5 the white king on b3 was already in check")
    result.mutation.fixes.append(replace(candidate(confirmed=True, checked=True, shared=[other]),
                                         path=result.suspects[0].path, diff="--- a/engine.py\n+++ b/engine.py\n"))
    panel.show_result(result)
    said = panel.fix_label.text()
    assert said.startswith("<b>Fix at engine.py:1</b>") and "not for the engine" not in said
    assert "The engine as it is is also wrong at 1 position no game reaches" in said and skewer in said
    assert "already in check" in said and panel.save_patch.isEnabled()


def test_a_long_word_on_the_fix_is_never_cut_off_under_the_diff(qtbot, tmp_path):
    """The checks a fix passed and the engine's other bug run to six lines at 600 px: the words
    get the height they need where the window has it, and scroll where it has not; none is
    hidden under the diff (a wrapped label was given its width hint's height and cut off)."""
    from dataclasses import replace
    from perftscope.core.locate.mutation import Elsewhere
    panel = shown_panel(qtbot, 900, 700)
    result = result_of(tmp_path, MutationResult(tried=60, made=60))
    other = Elsewhere("6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 2", 1, "generates illegal e5d6", "", (("e5d6", (1, None)),),
                      alone=True, unreachable="before black's double push d7d5 the white king on b3 was already in check")
    checks = ["8/8/8/8/Q1pP3k/8/8/4K3 b - d3 0 1 depth 2", "26 edge positions of its kind of move at depths 1 and 2",
              "201 fuzz positions at depth 2"]
    result.mutation.fixes.append(replace(candidate(confirmed=True, checked=True, shared=[other], checked_by=checks),
                                         path=result.suspects[0].path, diff="--- a/engine.py\n+++ b/engine.py\n"))
    panel.show_result(result)
    words = panel.fix_words
    for size in ((900, 700), (600, 650), (440, 600)):
        panel.resize(*size)
        qtbot.wait(20)
        needed = words.needed()
        assert needed > 4 * words.label.fontMetrics().height(), needed       # a long word indeed, wrapped
        # all of it shown, or the rest a scroll away; the diff below it, not over it
        assert words.viewport().height() + words.verticalScrollBar().maximum() >= needed, (size, words.height(), needed)
        assert panel.fix_view.isVisible() and panel.fix_view.y() >= words.y() + words.height()
        assert panel.source_view.height() >= 100, (size, panel.source_view.height())
    panel.resize(900, 700)
    qtbot.wait(20)
    assert words.height() >= words.needed(), (words.height(), words.needed())     # beside the source: whole
