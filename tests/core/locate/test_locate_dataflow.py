"""core.locate's data-flow order of the mutation step: where mutants of a line change a failing
answer, the suspect lines writing the state that line reads are tried next, whatever their rank (a
make-move line runs in every run and ties low in any spectrum). The engine is the planted Python
one of tests/engines/locate with a bug planted in its move making instead: a rook's move leaves
its side's castling right in place (`rights[1:]` where `rights` is meant), which shows only when
castling is generated later."""
from pathlib import Path

import chess

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.dataflow import control, reads, writes
from perftscope.core.locate.mutation import Mutation
from perftscope.core.locate.runs import Run, judge
from perftscope.core.locate.spectra import Suspect

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
WRITER = 'castling = "".join(c for c in castling if c not in rights)'
# the rook (or the king) goes and comes back: the right is lost, the buggy engine castles
FAILING = [("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", ("a1a2", "e8d8", "a2a1", "d8e8")),
           ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", ("h1h2", "e8d8", "h2h1", "d8e8"))]
PASSING = [("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", ()), ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", ()),
           ("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", ("a1a8",))]


def test_names_written_and_read_are_tokens_of_lvalues_and_of_the_statement_and_its_condition():
    assert writes("    castling[turn] ^= ROOKS[turn][i].flag;", "javascript") == {"castling"}
    assert writes("  self.castling_rights &= ~BB_A1", "python") == {"castling_rights"}
    assert writes("    pos->castle[us] = 0;", "c") == {"castle"}          # a field, not the position
    assert writes("    castling.b |= KSIDE;", "javascript") == {"b"}
    assert writes("    board, white, castling, ep = pos", "python") == {"board", "white", "castling", "ep"}
    assert writes("    var castling_from = kings[us];", "javascript") == set()     # a local's birth
    assert writes("    int rights = 0;", "c") == set()
    assert writes("    if (castling[us] == 0) {", "c") == set()
    source = ["function gen(us) {", "  var from = kings[us];", "  if (castling[us] & QSIDE) {",
              "    if (board[from - 1] == null &&", "        board[from - 2] == null) {", "      add(from);",
              "    }", "  }", "}"]
    # a continuation line is its statement's: the condition holding line 5 is line 3's
    assert control(source, 6, "javascript") == 4 and control(source, 5, "javascript") == 3
    assert control(source, 3, "javascript") is None
    # the line's statement and the condition holding it; `from` is the function's own, `us` its parameter
    assert reads(source, 5, "javascript") == ({"board", "castling", "us", "QSIDE"}, 3)


def planted(folder: Path) -> Path:
    text = (HERE / "movegen.py").read_text().replace('for promo in "qrb":  ', 'for promo in "qrbn": ')
    assert text.count(WRITER) == 1
    engine = folder / "movegen.py"
    engine.write_text(text.replace(WRITER, WRITER.replace("rights)", "rights[1:])")))
    engine.chmod(0o755)
    return engine


def test_the_lines_writing_what_a_changed_line_reads_get_their_mutants_first(tmp_path):
    """The castling generator's lines rank first, the move making's last: with 15 mutants the
    first pass (10) is spent on the generator's lines in rank order and never reaches the make
    line that writes `castling`. A mutant of the generator's `short in castling` changes a failing
    answer, so the lines writing `castling` are tried next: the writer's `1` to `0` turns both
    failing runs to pass, and its evidence says why it was tried."""
    engine = planted(tmp_path)
    spec = f"perftree:{engine}"
    oracle = make_oracle(spec)
    runs = []
    try:
        for (fen, moves), failed in [(f, True) for f in FAILING] + [(p, False) for p in PASSING]:
            board = chess.Board(fen)
            for m in moves:
                board.push_uci(m)
            expected = {m.uci(): 1 for m in board.legal_moves}
            verdict = judge(oracle.answer(Request.of(fen, moves), 1), None, expected)
            assert verdict[0] == failed, (fen, moves, verdict)
            runs.append(Run("test", fen, moves, 1, failed, verdict[1], expected=expected))
    finally:
        oracle.close()
    lines = engine.read_text().splitlines()
    first = next(n for n, line in enumerate(lines, 1) if "short, long = " in line)
    writer = next(n for n, line in enumerate(lines, 1) if "rights[1:]" in line)
    make = next(n for n, line in enumerate(lines, 1) if line.startswith("def make("))
    suspects = [Suspect("movegen.py", first, first + 6, 1, 1.0, 1.0, 0.0, 2, 1, lines[first - 1], "", str(engine)),
                Suspect("movegen.py", make + 1, make + 15, 2, 0.5, 0.5, 0.0, 2, 3, lines[make], "", str(engine))]
    assert make < writer <= make + 15
    mutation = Mutation(spec, [str(tmp_path)], runs, lambda p: Path(p).name, workers=1, budget=15)
    result = mutation.run(suspects, lambda: False)
    evidence = result.evidence[(str(engine), writer)]
    assert result.tried <= 15
    assert evidence.mutants >= 1 and evidence.best.fixed == len(FAILING)
    assert "`castling`" in evidence.why
