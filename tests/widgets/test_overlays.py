from PySide6.QtGui import QColor

from perftscope.core.board.analysis import analyze
from perftscope.core.board.position import Position, parse_square
from perftscope.widgets.board import BoardView
from perftscope.widgets.overlays import Badge, Glow, Layer, OverlayLegend, Outline, Ring, layers_from_analysis


def sq(name):
    return parse_square(name)


def layers_for(fen):
    return layers_from_analysis(analyze(Position.from_fen(fen)))


def test_pin_layer_draws_pinner_through_pinned_piece_to_the_king():
    # the bishop on b5 pins the knight on d7 to the king on e8
    layers = layers_for("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1")
    pins = layers["pins"]
    assert pins.arrows() == {(sq("b5"), sq("e8"))}
    assert pins.squares(Ring) == {sq("d7")}
    assert pins.notes == ["d7 pinned by b5"]
    assert layers["checkers"].shapes == []


def test_illegal_en_passant_is_drawn_and_its_reason_written():
    # c5xd6 would leave both pawns off rank 5: the rook on h5 would see the king on a5
    layers = layers_for("3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2")
    ep = layers["ep"]
    assert ep.arrows() == {(sq("c5"), sq("d6"))}
    badge = next(s for s in ep.shapes if isinstance(s, Badge))
    assert badge.text == "✗" and badge.square == sq("d6")          # a mark, not colour alone
    assert len(ep.notes) == 1 and ep.notes[0].startswith("c5d6 illegal: ")
    assert "h5" in ep.notes[0] or "rank" in ep.notes[0]


def test_legal_en_passant_is_marked_ok():
    # c4xd3 takes the pawn that gives check: legal
    ep = layers_for("8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3")["ep"]
    assert ep.arrows() == {(sq("c4"), sq("d3"))}
    assert [s.text for s in ep.shapes if isinstance(s, Badge)] == ["ok"]
    assert ep.notes[0].startswith("c4d3 legal: ")


def test_check_has_an_arrow_to_the_king_and_a_glow_on_it():
    assert layers_for("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1")["checkers"].shapes == []
    checkers = layers_for("4k3/8/8/8/8/8/8/4RK2 b - - 0 1")["checkers"]
    assert checkers.arrows() == {(sq("e1"), sq("e8"))}
    assert checkers.squares(Glow) == {sq("e8")}


def test_king_zone_counts_attackers_per_square():
    zone = layers_for("4k3/8/8/8/8/8/8/4RK2 b - - 0 1")["king_zone"]
    counts = {s.square: s.text for s in zone.shapes if isinstance(s, Badge)}
    # the rook on e1 attacks e7 (and e8, the king's own square) on the black king's side
    assert counts[sq("e7")] == "1"
    assert sq("d8") not in counts
    # both zones are framed, attacked or not
    assert {sq("d8"), sq("e7"), sq("f7"), sq("e2"), sq("g2")} <= zone.squares(Outline)


def test_glow_and_arrow_are_painted_on_the_board(qtbot):
    view = BoardView()
    qtbot.addWidget(view)
    view.resize(400, 400)
    pos = Position.from_fen("4k3/8/8/8/8/8/8/4RK2 b - - 0 1")
    view.set_position(pos)

    layers = layers_from_analysis(analyze(pos))
    bare = _pixel(view, sq("e4"))
    view.set_layers([layers["checkers"]])
    arrowed = _pixel(view, sq("e4"))
    assert bare != arrowed                       # the check arrow crosses e4
    assert arrowed.red() > arrowed.blue()


def _pixel(view, square):
    image = view.grab().toImage()
    return QColor(image.pixel(view.square_rect(square).center().toPoint()))


def test_legend_turns_layers_on_and_off(qtbot):
    legend = OverlayLegend()
    qtbot.addWidget(legend)
    assert "pins" in legend.enabled()
    with qtbot.waitSignal(legend.toggled):
        legend.set_enabled("pins", False)
    assert "pins" not in legend.enabled()


def test_en_passant_that_uncovers_a_slider_says_discovered_check_on_both_layers():
    import chess
    from perftscope.widgets.overlays import Arrow
    fen = "2r1k3/8/8/8/2pP4/8/8/2K5 b - d3 0 1"
    board = chess.Board(fen)
    assert board.is_legal(chess.Move.from_uci("c4d3")) and board.gives_check(chess.Move.from_uci("c4d3"))
    layers = layers_for(fen)
    assert layers["ep"].notes[0].startswith("c4d3 legal") and "discovered check from c8" in layers["ep"].notes[0]
    assert Arrow(sq("c8"), sq("c1"), "#e68f00") in layers["discovered"].shapes
    assert "discovered check" in layers["discovered"].notes[0]
    # the rank case: both pawns leave the fourth rank and the rook sees the king
    layers = layers_for("4k3/8/8/8/K1pP3r/8/8/8 b - d3 0 1")
    assert "discovered check from h4" in layers["ep"].notes[0]


def test_a_layer_that_finds_nothing_says_so():
    layers = layers_for("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert layers["checkers"].notes == ["no check"]
    assert layers["pins"].notes == ["no pinned piece"]
    assert layers["discovered"].notes == ["no discovered-check candidate"]
    assert layers["ep"].notes == ["no en-passant square in this position"]
    assert not any(layers[k].shapes for k in ("checkers", "pins", "discovered", "ep"))


def test_legend_checkboxes_stay_put_when_notes_appear(qtbot):
    legend = OverlayLegend()
    qtbot.addWidget(legend)
    legend.resize(420, 400)
    for key in ("discovered", "attacked", "king_zone"):
        legend.set_enabled(key, True)
    legend.show()
    qtbot.waitExposed(legend)
    before = {k: b.mapTo(legend, b.rect().topLeft()) for k, b in legend._boxes.items()}
    legend.show_notes(layers_for("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"))
    qtbot.wait(20)
    assert any(n.isVisible() and n.text() for n in legend._notes.values())
    after = {k: b.mapTo(legend, b.rect().topLeft()) for k, b in legend._boxes.items()}
    assert after == before


def test_defaults_leave_the_start_position_untinted():
    from perftscope.widgets.overlays import LAYERS, Tint
    on = {key for key, _, _, default in LAYERS if default}
    layers = layers_for("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert not [s for k in on for s in layers[k].shapes if isinstance(s, Tint)]


def test_a_badge_wider_than_its_square_stays_on_the_board(qtbot):
    # "✗ not generated" on a1, written in the square's top-right corner, would run off the left edge
    view = BoardView()
    qtbot.addWidget(view)
    view.resize(400, 400)
    view.set_position(Position.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
    view.set_layers([Layer("mismatch", "Mismatch", "#a00000", [Badge(sq("a1"), "✗ not generated", "#a00000")])])
    a1 = view.square_rect(sq("a1"))
    image = view.grab().toImage()
    # the badge is moved right onto b1 rather than cut at the board's edge: b1's top shows its
    # white ground, not the light square's colour
    beside = QColor(image.pixel(int(a1.right() + 4), int(a1.top() + 3)))
    assert min(beside.red(), beside.green(), beside.blue()) > 225
