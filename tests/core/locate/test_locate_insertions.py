"""core.locate's statements inserted from elsewhere in the function: a state update one case of a
chain forgets, which every other case gets from the chain's `else`, is fixed by that statement
hoisted above the chain (a missing statement, which no one-token change fixes); what is and
is not a statement to insert."""
from pathlib import Path

import chess

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.folder_digest import tree_digest
from perftscope.core.locate.confirmation import THIRD_PLY, Confirmation, edges_of
from perftscope.core.locate.mutants import _insertions, is_donor, mutants_of
from perftscope.core.locate.mutation import Mutation, firsts
from perftscope.core.locate.runs import Run
from perftscope.core.locate.shadow import Shadow
from perftscope.core.locate.spectra import Suspect

from .test_locate_mutants import line_of, planted_python

# make() of the planted engine keeps the en-passant square after a rook's move: the rook's case
# of the chain voids the rights of the corner it leaves (the castling loop above now voids a
# corner's rook captured, and the king's), the double push sets the square, and only the `else` clears
# it, as stash-bot's do_move once did. The fix is one statement, which the `else` already holds.
CORNER_LOOP = ("        if corner in (sq, t):\n",
               '        if corner == t and t in pos[0] or corner == sq and piece in "Kk":\n')
RIGHTS_AND_EP = ('''    double = piece in "Pp" and abs(t - sq) == 32
    return board, not white, castling, (sq + t) // 2 if double else None''', '''    if piece in "Rr":
        castling = "".join(c for c in castling if c not in dict(CORNERS).get(sq, ""))
    elif piece in "Pp" and abs(t - sq) == 32:
        ep = (sq + t) // 2
    else:
        ep = None
    return board, not white, castling, ep''')
ROOKS_KEEP_EP = "r3k3/8/8/3pP3/8/8/8/R3K3 w - d6 0 1"    # a1a2 a8a7 e5d6: en passant a move too late


def run_on(fen: str, moves: tuple[str, ...], verdict: str = "agrees") -> Run:
    """A depth-1 run judged against python-chess's moves (no coverage kept: every mutant runs it)."""
    board = chess.Board(fen)
    for move in moves:
        board.push_uci(move)
    expected = {m.uci(): 1 for m in board.legal_moves}
    return Run("test", fen, moves, 1, verdict != "agrees", verdict, expected=expected)


def test_a_missing_update_a_chains_else_holds_is_fixed_by_hoisting_it_above_the_chain(tmp_path):
    """The chain's line and the line above it mutated (as a locate does with the top suspects)
    on the failing run and five passing ones, then the candidates checked as every candidate is
    (the asked position at depths 3 and 4, the en-passant edge positions, both castling
    positions at depth 3): the one offered, confirmed, is the `else`'s `ep = None` added above the
    chain. The engine's folder is byte for byte the same afterwards."""
    folder = tmp_path / "engine"
    folder.mkdir()
    engine = planted_python(folder, CORNER_LOOP, RIGHTS_AND_EP)
    before = tree_digest(folder)
    runs = [run_on(ROOKS_KEEP_EP, ("a1a7", "a8a7"), "generates illegal e5d6"),
            run_on(ROOKS_KEEP_EP, ()),                                   # en passant in time
            run_on("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ("d7d5",)),       # the square set by the double push
            run_on(ROOKS_KEEP_EP, ("e1e2", "e8e7")),                     # a king's move clears it
            run_on("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", ("a1a2", "a8a7", "a2a1", "a7a8")),   # a rook's voids its right
            run_on("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", ("e1d1", "e8d8", "d1e1", "d8e8"))]   # so does a king's
    mutation = Mutation(f"perftree:{engine}", [str(folder)], runs, lambda p: Path(p).name)
    chain = line_of(engine, 'if piece in "Rr":')
    suspects = [Suspect("movegen.py", n, n, 1, 1.0, 1.0, 0.0, 1, 5, "", "", str(engine)) for n in (chain - 1, chain)]
    core = make_oracle("core")
    ep_edges = tuple((topic, request) for topic, request in edges_of("en passant")
                     if request.position.fen().startswith(("8/8/8/", "4k3/")))[:6]
    checks = Confirmation(core, Request.of(ROOKS_KEEP_EP), 3, ep_edges,
                          third_ply=tuple((topic, Request.of(fen)) for topic, fen in THIRD_PLY))
    result = mutation.run(suspects, lambda: False, checks)
    assert tree_digest(folder) == before
    offered = result.offered
    assert [(f.line, f.change, f.confirmed) for f in offered] == [(chain, f"`ep = None` added above line {chain}", True)], \
        result.fixes
    assert "+    ep = None\n     if piece in \"Rr\":\n" in offered[0].diff, offered[0].diff
    changed = [line for line in offered[0].diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed == ["+    ep = None"], offered[0].diff                                  # one line added
    assert offered[0].checked_by[1] == "depth 4" and "at depth 3" in offered[0].checked_by[-1]
    assert "added above" in result.evidence[(str(engine), chain)].best.mutant.change


SOURCE_C = """static void make(Pos *p, int from, int to, int piece) {
    int kept = p->flags;
    if (piece == ROOK)
    {
        if (from == A1)
            p->flags &= ~(QUEENSIDE);
    }
    else if (piece == PAWN && to - from == 32)
        p->flags |= EP_OK | (from & 7) << 4;
    else
        p->flags &= ~(240);
    p->moves++;
    p->board[to] = p->board[from]; /* the piece lands */
    if (to)
    {
        int d = to;
        p->moves = d;
    }
    else
    {
        int d = from;
        d -= 1;
    }
    return;
}
"""


def test_what_is_a_statement_to_insert_and_where_it_stands(tmp_path):
    """A whole statement updating state is a donor; a declaration, a jump, a condition, a block's
    brace and a statement's continuation are not. A statement goes above a line beginning a
    statement of its block, not above an `else` nor into a brace-less `if`'s body."""
    source = SOURCE_C.splitlines(keepends=True)
    donors = {n for n in range(1, len(source) + 1) if is_donor(source, n, "c")}
    number = {text.strip(): n for n, text in enumerate(source, 1)}
    assert donors == {number["p->flags &= ~(QUEENSIDE);"], number["p->flags |= EP_OK | (from & 7) << 4;"],
                      number["p->flags &= ~(240);"], number["p->moves++;"],
                      number["p->board[to] = p->board[from]; /* the piece lands */"],
                      number["p->moves = d;"], number["d -= 1;"]}, donors
    # the chain's `else` first, hoisted above its `if`; then the nearest statements of the function
    chain = _insertions(source, number["if (piece == ROOK)"], "c", {})
    assert chain[0] == ("    p->flags &= ~(240);\n    if (piece == ROOK)\n", "default")
    assert all(rule == "insert" for _, rule in chain[1:]) and len(chain) <= 6
    assert all(after.endswith("    if (piece == ROOK)\n") for after, _ in chain)      # a condition: above only
    # a trailing comment stays with its line, and is not copied with the statement
    assert ("    p->board[to] = p->board[from];\n    p->moves++;\n", "insert") in \
        _insertions(source, number["p->moves++;"], "c", {})
    # never into a brace-less body, nor above an `else`, nor above a statement's own continuation
    assert _insertions(source, number["p->flags &= ~(QUEENSIDE);"], "c", {}) == []
    assert _insertions(source, number["else"], "c", {}) == []
    assert _insertions(source, number["else if (piece == PAWN && to - from == 32)"], "c", {}) == []
    # not a statement assigning a name of a block not open at the line (it would not compile)
    at_if = _insertions(source, number["if (to)"], "c", {})
    assert at_if and all(rule == "insert" and "d" not in after.split("\n")[0].split() for after, rule in at_if), at_if
    assert not any("p->moves = d;" in after for after, _ in at_if)
    # the same statement as its neighbour is not inserted beside it (it would do it twice)
    moves = _insertions(source, number["p->moves++;"], "c", {})
    assert not any(after.startswith("    p->flags &= ~(240);\n") for after, _ in moves), moves
    assert not any(after.endswith("    p->board[to] = p->board[from];\n") for after, _ in moves), moves
    assert ("    p->moves++;\n    p->flags &= ~(240);\n", "insert") in moves          # below a statement: yes
    py = tmp_path / "m.py"
    py.write_text("def f(b, x):\n"
                  "    y = 0\n"
                  "    total: int = 1\n"
                  "    b.seen += 1\n"
                  "    if x > 1:\n"
                  "        y = x\n"
                  "        return y\n"
                  "    elif x:\n"
                  "        b.last = (x,\n"
                  "                  y)\n"
                  "    else:\n"
                  "        b.ep = None\n"
                  "    return b\n")
    lines = py.read_text().splitlines(keepends=True)
    assert {n for n in range(1, len(lines) + 1) if is_donor(lines, n, "python")} == {2, 4, 6, 12}
    made = {m.change: m for m in mutants_of(str(py), [5]) if m.kind in ("insert", "default")}
    assert made["`b.ep = None` added above line 5"].kind == "default"
    assert {"`y = 0` added above line 5", "`y = x` added above line 5"} <= set(made)
    assert "`b.seen += 1` added above line 5" not in made                 # the line above already does it
    assert not any("below line 5" in change for change in made)          # below a header: no
    # the hoisted `else` is in the line's first pass, after its likeliest slip (a wide tie's lines
    # take their turns one mutant each); the other insertions come after every one-token slip
    every = mutants_of(str(py), [5])
    assert [m.kind for m in firsts(every)][1] == "default", firsts(every)
    slips = [m.likeness for m in every if m.kind not in ("insert", "default", "other")]
    assert all(m.likeness > max(slips) for m in every if m.kind == "insert")
    for m in made.values():
        compile(m.apply(py.read_text()), "m.py", "exec")
    assert [m for m in mutants_of(str(py), [8]) if m.kind in ("insert", "default")] == []   # above `elif`: no


def test_the_planted_missing_check_is_fixed_by_no_statement_of_its_function(tmp_path):
    """The planted missing check (test_locate_mutants: long castling not tested for an attack on
    d1) stays out of reach: statements are inserted where the check belongs, and none of them
    turns the failing run to pass, so its locate claims no fix for what no donor can do."""
    from .test_locate_mutants import LONG_CASTLING_THROUGH_CHECK
    engine = planted_python(tmp_path, ("""        if not attacked(board, row + 3, not white):
            out.append((row + 4, row + 2, "castle"))""", """        out.append((row + 4, row + 2, "castle"))"""))
    belongs = line_of(engine, 'out.append((row + 4, row + 2, "castle"))')
    inserted = [m for m in mutants_of(str(engine), [belongs]) if m.kind in ("insert", "default")]
    assert len(inserted) >= 3, inserted
    mutation = Mutation(f"perftree:{engine}", [str(tmp_path)],
                        [run_on(LONG_CASTLING_THROUGH_CHECK, (), "generates illegal e1c1")], lambda p: Path(p).name)
    shadow = Shadow(mutation.sources, mutation.spec, str(tmp_path / "shadow"))
    try:
        outcomes = [mutation._try(shadow, m, lambda: False) for m in inserted]
    finally:
        shadow.close()
    assert all(o is not None and o.failing == 1 and not o.fixed for o in outcomes), outcomes


SOURCE_JS = """export function make (board, move) {
    let ep = board.ep
    board.half += 1
    if (move.piece === 'R') {
        board.rights = board.rights.replace('Q', '')
    } else if (move.double) {
        ep = move.to
    } else {
        ep = null
    }
    board.total = board.a
        + board.b
    if (move.flag)
        board.flag = 1
    board.ep = ep
    return board
}
"""


def test_javascript_written_without_semicolons_has_statements_to_insert_too(tmp_path):
    """A file relying on line breaks: a line is a whole statement when the line below does not
    go on with it (`+ board.b`), its copy is written with a semicolon (it must not join the line
    below it), and a brace-less `if (...)` above a line still takes no copy as its body."""
    source = SOURCE_JS.splitlines(keepends=True)
    number = {text.strip(): n for n, text in enumerate(source, 1)}
    donors = {n for n in range(1, len(source) + 1) if is_donor(source, n, "javascript")}
    assert donors == {number[s] for s in ("board.half += 1", "board.rights = board.rights.replace('Q', '')",
                                          "ep = move.to", "ep = null", "board.flag = 1", "board.ep = ep")}, donors
    chain = _insertions(source, number["if (move.piece === 'R') {"], "javascript", {})
    assert chain[0] == ("    ep = null;\n    if (move.piece === 'R') {\n", "default")
    assert _insertions(source, number["board.flag = 1"], "javascript", {}) == []
    below_body = _insertions(source, number["board.ep = ep"], "javascript", {})
    assert ("    ep = null;\n    board.ep = ep\n", "insert") in below_body
    assert not any(after.startswith("    board.flag = 1;") for after, _ in below_body)     # its neighbour
    engine = tmp_path / "make.mjs"
    engine.write_text(SOURCE_JS)
    made = mutants_of(str(engine), [number["board.ep = ep"]])
    assert any(m.change == "`ep = null;` added below line 15" for m in made), [m.change for m in made]
