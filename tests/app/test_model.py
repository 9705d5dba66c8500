"""The window's model without a window: what the board shows, what each result belongs to, and
when a result or the status line is about another position."""
from perftscope.app.model import MainModel
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.engines.oracle import Request

AFTER_E4 = Position.from_fen(START_FEN).push("e2e4")


def moved(model, pos, root=(START_FEN, ())):
    model.board_moved(pos, root)


def test_a_result_is_stale_once_the_board_shows_another_position(qtbot):
    model = MainModel()
    changes = []
    model.changed.connect(lambda: changes.append(1))
    moved(model, Position.from_fen(START_FEN))
    assert model.analysis is not None and changes
    model.divide_started()
    assert model.run_started() == Position.from_fen(START_FEN)
    assert (model.run_request.root, model.run_request.moves, model.run_request.position) == \
        (START_FEN, (), Position.from_fen(START_FEN))
    assert not model.divide_stale and not model.run_stale
    moved(model, AFTER_E4, (START_FEN, ("e2e4",)))
    assert model.divide_stale and model.run_stale
    moved(model, Position.from_fen(START_FEN))
    assert not model.divide_stale and not model.run_stale


def test_a_row_shown_keeps_its_tree_and_mark_until_the_user_moves(qtbot):
    model = MainModel()
    shown = []
    # the window puts the position on the board, and the board answers with board_moved
    model.showRequested.connect(lambda pos, moves: (shown.append((pos, moves)),
                                                    moved(model, pos.play(list(moves)), (pos.fen(), moves))))
    moved(model, Position.from_fen(START_FEN))
    model.divide_started()
    model.show_row(Request.of(START_FEN, ("e2e4",)), ("e2e4",), "showing the divide row e2e4", mark="a mark")
    assert shown == [(Position.from_fen(START_FEN), ("e2e4",))]
    assert model.position == AFTER_E4 and model.row_shown == ("e2e4",) and model.mark == "a mark"
    assert not model.divide_stale                          # the tree keeps its root
    moved(model, Position.from_fen(START_FEN).push("d2d4"))     # the user plays elsewhere
    assert model.mark is None and model.row_shown is None and model.caption == ""
    assert model.divide_stale


def test_the_status_line_is_about_the_position_it_was_said_for(qtbot):
    model = MainModel()
    said = []
    model.messageChanged.connect(lambda: said.append(model.message))
    moved(model, Position.from_fen(START_FEN))
    model.say("first mismatch after e2e4", error=True)
    assert said[-1].text == "first mismatch after e2e4" and said[-1].error and not model.message_stale
    moved(model, AFTER_E4, (START_FEN, ("e2e4",)))
    assert model.message_stale


def test_a_message_about_an_engines_result_goes_once_other_engines_are_chosen(qtbot):
    from perftscope.core.engines.pair import EnginePair
    model = MainModel()
    moved(model, Position.from_fen(START_FEN))
    d3 = EnginePair.parse("perftree:/x/d3.py", "core", 60)
    model.say("divide 2: d3.py 545, core 568 (-23)", error=True, engines=d3)
    model.engines_chosen(EnginePair.parse("perftree:/x/d3.py", "core", 30))     # the timeout alone: kept
    assert model.message.text.startswith("divide 2: d3.py 545")
    model.engines_chosen(EnginePair.parse("perftree[chess960=false]:/x/d3.py", "core", 60))
    assert model.message.text == ""
    model.say("Loaded Kiwipete")                         # about no engine: stays whatever is chosen
    model.engines_chosen(None)
    assert model.message.text == "Loaded Kiwipete"


def test_the_divide_tree_is_marked_as_other_engines_while_the_selector_holds_others(qtbot):
    from perftscope.core.engines.pair import EnginePair
    model = MainModel()
    moved(model, Position.from_fen(START_FEN))
    d3 = EnginePair.parse("perftree:/x/d3.py", "core", 60)
    model.engines_chosen(d3)
    model.divide_started(pair=d3)
    assert not model.divide_other_engines
    model.engines_chosen(EnginePair.parse("perftree:/x/other.py", "core", 60))
    assert model.divide_other_engines and not model.divide_stale     # the position is still its own
    model.engines_chosen(EnginePair.parse("perftree:/x/d3.py", "core", 30))     # the timeout alone
    assert not model.divide_other_engines
