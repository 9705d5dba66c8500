"""The count of agreeing moves beside a finder level reads as English in the CLI and the GUI
report: "1 move agrees", "3 moves agree"."""
from perftscope.app.commands.compare import _print_level
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.engines.oracles import make_oracle
from perftscope.widgets.finder_panel import report_html
from perftscope.core.engines.oracle import Request

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def test_one_agreeing_move_is_singular(capsys, engine_path):
    engine = make_oracle(f"perftree:{engine_path('ep_rank_pin')}")
    report = find_mismatch(engine, make_oracle("core"), Request.of(POSITION_3), depth=4)
    agreeing = [len(level.rows) - len(level.differing) for level in report.levels]
    assert agreeing[0] == 1 and any(n > 1 for n in agreeing)   # only Rxf4+ agrees at the root

    html = report_html(report)
    assert "1 move agrees" in html and "1 moves agree" not in html
    assert f"{max(agreeing)} moves agree" in html

    _print_level(report.levels[0])
    out = capsys.readouterr().out
    assert "(1 move agrees)" in out and "1 move agree)" not in out
