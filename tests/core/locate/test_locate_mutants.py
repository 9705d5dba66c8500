"""core.locate's mutants: one-token bugs planted in the test engines (tests/engines/locate) are
located to their line by what the line's mutants do, and the offered fix is the inverse of the
planted change, confirmed beyond the runs; a planted missing check gets no fix, the line where the
check belongs near the top. The engine's own folder is byte for byte the same afterwards."""
import subprocess
from pathlib import Path

import chess

from perftscope.core.locate.job import LocateJob, LocateSettings
from perftscope.core.locate.mutants import Mutant, mutants_of
from perftscope.core.folder_digest import tree_digest
from perftscope.core.locate.shadow import Shadow, shadow_spec

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
LONG_CASTLING_THROUGH_CHECK = "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1"    # e1c1 is illegal: d1 is attacked
CASTLES = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"                           # e8c8, written e8b8 by movegen.c




def planted_python(folder: Path, *changes: tuple[str, str]) -> Path:
    """movegen.py with its own planted bug fixed (a knight promotion) and `changes` made instead."""
    text = (HERE / "movegen.py").read_text().replace('for promo in "qrb":  ', 'for promo in "qrbn": ')
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    engine = folder / "movegen.py"
    engine.write_text(text)
    engine.chmod(0o755)
    return engine


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def locate(spec, fen, depth=2, runs=16, mutants=20, **more):
    # a second of focused fuzz for a fix that agrees everywhere else (a user's is 20 s)
    more = {"fix_fuzz_seconds": 1.0} | more
    return LocateJob(LocateSettings(spec, fen=fen, depth=depth, runs=runs, seconds=120.0, mutants=mutants,
                                    mutant_seconds=300.0, **more)).run()


def c_engine(tmp_path, *changes: tuple[str, str]) -> str:
    """movegen.c with its planted castling bug undone and `changes` (each text found once) made,
    built with `gcc --coverage` in `tmp_path`: its text."""
    text = (HERE / "movegen.c").read_text().replace("row + 4, row + 1, 'c');   /* PLANTED: the king goes to c1, not b1 */",
                                                    "row + 4, row + 2, 'c');")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (tmp_path / "movegen.c").write_text(text)
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "movegen", "movegen.c"], cwd=tmp_path, check=True)
    return text


def located_unchanged(tmp_path, fen: str, **settings):
    """locate on the built movegen.c, each mutant rebuilt in a copy; the folder byte-identical after."""
    before = tree_digest(tmp_path)
    # no fuzz for a confirmed fix: the edge positions of its kind of move hold what these tests plant
    result = locate(f"perftree:{tmp_path / 'movegen'}", fen, build="gcc -O0 -o movegen movegen.c",
                    **{"fix_fuzz_seconds": 0.0} | settings)
    assert tree_digest(tmp_path) == before
    return result


def test_an_off_by_one_in_a_python_engine_is_first_and_its_fix_the_inverse(tmp_path):
    engine = planted_python(tmp_path, ("attacked(board, row + 3, not white)", "attacked(board, row + 2, not white)"))
    before = tree_digest(tmp_path)
    result = locate(f"perftree:{engine}", LONG_CASTLING_THROUGH_CHECK)
    assert tree_digest(tmp_path) == before
    line = line_of(engine, "row + 2, not white")
    first = [s for s in result.suspects if s.rank == 1]
    assert [(s.file, s.line, s.last) for s in first] == [("movegen.py", line, line)], result.suspects[:4]
    assert "is a fix" in first[0].evidence
    fixes = [f for f in result.fixes if f.confirmed]
    assert [(f.file, f.line, f.change) for f in fixes] == [("movegen.py", line, "`2` to `3`")]
    assert "-        if not attacked(board, row + 2, not white):\n" in fixes[0].diff
    assert "+        if not attacked(board, row + 3, not white):\n" in fixes[0].diff
    assert fixes[0].failing_fixed == result.failed and fixes[0].passing_kept == result.passed
    assert fixes[0].checked_by[1] == "depth 3"
    # candidates refuted beyond the runs are kept, never called fixes
    assert all(f.doubt for f in result.fixes if not f.confirmed)
    data = result.to_json()
    assert data["fixes"][0]["confirmed"] and data["mutants_per_second"] > 0
    assert set(data["fixes"][0]) >= {"file", "line", "diff", "failing_fixed", "passing_kept", "confirmed", "checked_by"}


def test_a_missing_check_gets_no_fix_and_the_line_where_it_belongs_near_the_top(tmp_path):
    engine = planted_python(tmp_path, ("""        if not attacked(board, row + 3, not white):
            out.append((row + 4, row + 2, "castle"))""", """        out.append((row + 4, row + 2, "castle"))"""))
    before = tree_digest(tmp_path)
    result = locate(f"perftree:{engine}", LONG_CASTLING_THROUGH_CHECK)
    assert tree_digest(tmp_path) == before
    assert result.mutation.tried > 0
    assert not [f for f in result.fixes if f.confirmed]
    belongs = line_of(engine, 'out.append((row + 4, row + 2, "castle"))')
    top = [s for s in result.suspects if s.rank <= 5]
    assert any(s.line <= belongs <= s.last for s in top), result.suspects[:6]


def test_a_wrong_constant_in_a_c_engine_is_first_and_its_fix_the_inverse(c_engine):
    folder = c_engine.parent
    before = tree_digest(folder)
    result = locate(f"perftree:{c_engine}", CASTLES, runs=24, build="gcc -O0 -o movegen movegen.c")
    assert tree_digest(folder) == before
    line = line_of(folder / "movegen.c", "/* PLANTED:")
    first = [s for s in result.suspects if s.rank == 1]
    assert [(s.file, s.line) for s in first] == [("movegen.c", line)], result.suspects[:4]
    fixes = [f for f in result.fixes if f.confirmed]
    assert [(f.line, f.change) for f in fixes] == [(line, "`1` to `2`")]
    assert "+        add(out, n, row + 4, row + 2, 'c');   /* PLANTED" in fixes[0].diff


def edges_only_where(monkeypatch, keep):
    """A fix's edge positions narrowed, for one test, to those whose board `keep(board)` holds:
    each edge costs an engine process a depth a candidate, and those where the planted lines'
    mutants all answer alike cannot tell a fix from a wrong candidate."""
    from perftscope.core.locate import confirmation

    everywhere = confirmation.edges_of
    monkeypatch.setattr(confirmation, "edges_of", lambda focus: tuple(
        (topic, request) for topic, request in everywhere(focus) if keep(request.position.chess_board())))


def a_pawn_can_capture(board) -> bool:
    """Within the two plies an edge is checked at: where the line of a pawn's captures runs (30 of
    the 98 capture edges)."""
    def now(b):
        return any(b.piece_type_at(m.from_square) == chess.PAWN and b.is_capture(m) for m in b.pseudo_legal_moves)
    if now(board):
        return True
    for move in list(board.legal_moves):
        board.push(move)
        after = now(board)
        board.pop()
        if after:
            return True
    return False


def test_a_wrong_operator_in_a_javascript_engine_under_node_is_first_and_its_fix_the_inverse(tmp_path, monkeypatch):
    """movegen.js with its own planted bug fixed and a capture promoting everywhere but on the last rank."""
    text = (HERE / "movegen.js").read_text()
    text = text.replace('for (const promo of "q") out.push([sq, t, promo]); // PLANTED: a capture promotes to a queen only',
                        'for (const promo of "qrbn") out.push([sq, t, promo]);')
    capture = text.index("if (board.has(t) && !own(board.get(t), white)) {")
    at = text.index("if (t >> 4 === last) {", capture)
    text = text[:at] + "if (t >> 4 !== last) {" + text[at + len("if (t >> 4 === last) {"):]
    engine = tmp_path / "movegen.js"
    engine.write_text(text)
    engine.chmod(0o755)
    edges_only_where(monkeypatch, a_pawn_can_capture)
    before = tree_digest(tmp_path)
    result = locate(f"perftree:{engine}", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", runs=12, mutants=20)
    assert tree_digest(tmp_path) == before
    assert result.coverage == ("node",)
    line = text[:at].count("\n") + 1
    first = [s for s in result.suspects if s.rank == 1]
    assert [(s.file, s.line, s.last) for s in first] == [("movegen.js", line, line)], result.suspects[:4]
    fixes = [f for f in result.fixes if f.confirmed]
    # `==` does as well as `===` here: both are offered, the one-token slip first
    assert (fixes[0].line, fixes[0].change) == (line, "`!==` to `===`") and all(f.line == line for f in fixes)
    assert "+      if (t >> 4 === last) {\n" in fixes[0].diff
    assert "30 edge positions of its kind of move at depths 1 and 2" in fixes[0].checked_by


def test_a_native_engine_without_a_build_command_says_how_to_give_one(c_engine):
    result = locate(f"perftree:{c_engine}", CASTLES, runs=6)
    assert result.mutation.tried == 0 and "--build" in result.mutation.note
    assert result.suspects                      # the spectrum ranking stands


def test_a_shadow_runs_its_copy_and_restores_it(tmp_path):
    engine = planted_python(tmp_path)
    before = tree_digest(tmp_path)
    shadow = Shadow([str(tmp_path)], f"perftree:{engine}", str(tmp_path / ".." / f"{tmp_path.name}-shadow"))
    try:
        copy = Path(shadow.path(str(engine)))
        assert copy != engine and shadow.spec == f"perftree:{copy}"
        assert shadow_spec(f"cmd:python3 {engine} {{depth}} {{fen}}", shadow.copies) == \
            f"cmd:python3 {copy} {{depth}} {{fen}}"
        line = line_of(engine, "def perft")
        mutant = Mutant(str(engine), line, "def perft(pos, depth):\n", "def perft(pos, depth=0):\n")
        text = copy.read_text()
        with shadow.applied(mutant):
            assert "def perft(pos, depth=0):" in copy.read_text()
        assert copy.read_text() == text
    finally:
        shadow.close()
    assert tree_digest(tmp_path) == before


def test_mutants_cover_the_standard_operators(tmp_path):
    source = tmp_path / "m.c"
    source.write_text("int f(int a, int b) {\n    if (a > b && a != 0) return a + 1;   /* why */\n    return b;\n}\n")
    changes = {m.change for m in mutants_of(str(source), [2])}
    assert {"`>` to `>=`", "`&&` to `||`", "`+` to `-`", "`1` to `2`", "`1` to `0`"} <= changes, changes
    # a trailing comment is kept as it was (universalmutator alone leaves a line holding `/*` alone)
    assert all(m.after.split("\n")[0].endswith("   /* why */") for m in mutants_of(str(source), [2]))
    py = tmp_path / "m.py"
    py.write_text("def f(a, b):\n    if a > b:\n        return a\n    return b\n")
    python = {m.change for m in mutants_of(str(py), [2])}
    assert {"`>` to `>=`", "`>` to `<`", "`a > b` to `True`", "`a > b` to `False`", "`not (` added, `:` to `):`"} <= python
    # a mutant that does not compile is never made
    for m in mutants_of(str(py), [2, 3]):
        compile(m.apply(py.read_text()), "m.py", "exec")


# en passant checked by a guard of its own (it empties two squares), which reads the capturer
# from its target square (empty: a KeyError wherever en passant can be played). Switching the
# guard off passes the runs, the position one deeper and eight random positions, yet plays en
# passant out of every pin
EP_GUARD = ("def legal_moves(pos):", '''def ep_exposes(board, sq, t, white):
    victim = t - 16 if white else t + 16
    after = {s: p for s, p in board.items() if s not in (sq, victim)}
    after[t] = board[t]
    king = next(s for s, p in after.items() if p == ("K" if white else "k"))
    return attacked(after, king, not white)


def legal_moves(pos):''')
EP_LEGALITY = ('''    for move in out:
        after = make(pos, move)''', '''    for move in out:
        if move[2] == "ep":
            if not ep_exposes(board, move[0], move[1], white):
                legal.append(move)
            continue
        after = make(pos, move)''')
EP_BLOCKS_THE_CHECK = "3r3k/8/8/3pP3/8/8/8/3K4 w - d6 0 1"      # e5d6 lands between the rook and the king


def a_move_carries_a_flag(board) -> bool:
    """En passant, castling or a promotion to move: the moves whose flag the planted dispatch
    (`move[2] == "ep"`) reads, the others passing it alike (80 of the 224 edge positions: a crash
    has no kind of move, and its candidates are checked on every edge)."""
    return any(board.is_en_passant(m) or board.is_castling(m) or m.promotion for m in board.pseudo_legal_moves)


def test_a_mutant_that_switches_a_guard_off_is_refuted_on_an_edge_position(tmp_path, monkeypatch):
    engine = planted_python(tmp_path, EP_GUARD, EP_LEGALITY)
    edges_only_where(monkeypatch, a_move_carries_a_flag)
    result = locate(f"perftree:{engine}", EP_BLOCKS_THE_CHECK, depth=1)
    guard = line_of(engine, "if not ep_exposes(board")
    switched_off = [f for f in result.fixes if f.line == guard]
    assert switched_off, result.fixes           # it passes every run: a candidate
    assert not any(f.confirmed for f in switched_off), switched_off
    # refuted, saying where: a position where en passant is illegal, which it now plays
    assert all("en passant" in f.doubt and "generates illegal" in f.doubt for f in switched_off), switched_off
    faulty = line_of(engine, "after[t] = board[t]")
    # the fixes confirmed: the planted change undone, or en passant taken out of the planted block
    # (`move[1] == "ep"` is never true) to the legality test every other move gets, which is right
    # (it agrees with Stockfish on the pinned en-passant positions too)
    dispatch = line_of(engine, 'if move[2] == "ep":')
    for f in result.fixes:
        if f.confirmed:
            assert (f.line, f.change) in ((faulty, "`t` to `sq`"), (dispatch, "`2` to `1`")), f
            assert "80 edge positions of its kind of move at depths 1 and 2" in f.checked_by, f
    # a refuted candidate says the guard is on the move's path, not that it is wrong: the faulty
    # line, whose mutants turn failing runs to pass, ranks above it
    assert {s.line for s in result.suspects if s.rank == 1} <= {faulty, dispatch}, result.suspects[:4]
    refuted = next(s for s in result.suspects if s.line == guard)
    assert refuted.rank > 1 and "but is no fix: it disagrees at en passant" in refuted.evidence


def test_the_first_pass_reaches_every_line_of_a_wide_tie_below_the_top_ranks(tmp_path):
    """Eleven ranks of one line, then a tie of 40 lines that run in every run (as a faulty `if`
    evaluated for every position does): a budget of 240 mutants tries the likeliest slips of
    every line of the tie before it deepens any line."""
    from perftscope.core.locate.mutation import plan, suspect_lines
    from perftscope.core.locate.spectra import Suspect
    engine = planted_python(tmp_path)
    source = engine.read_text().splitlines()
    numbers = [n for n, text in enumerate(source, 1) if text.strip() and not text.strip().startswith(("#", '"'))]
    numbers = [n for n in numbers if mutants_of(str(engine), [n])][:51]
    suspects = [Suspect("movegen.py", n, n, min(i + 1, 12), 1.0, 1.0, 0.0, 1, 1, source[n - 1], "", str(engine))
                for i, n in enumerate(numbers)]
    lines = suspect_lines(suspects)
    assert len(lines) == 51                      # the whole tie of rank 12 is mutated
    by_line = {(path, n): mutants_of(path, [n]) for _, path, n in lines}
    first, rest = plan(by_line, {(path, n): rank for rank, path, n in lines}, 240)
    assert {m.line for m in first} == set(numbers)
    assert all(sum(m.line == n and m.kind != "default" for m in first) <= 4 for n in numbers)
    # within a line, the likeliest one-token slips first (and a name written for its peer, and an
    # `else`'s statement hoisted above its chain)
    for n in numbers:
        mine = [m.likeness for m in first if m.line == n and m.kind not in ("name", "default")]
        assert mine == sorted(m.likeness for m in by_line[(str(engine), n)]
                              if m.kind not in ("name", "default"))[:len(mine)]
    assert len(first) + len(rest) == sum(map(len, by_line.values()))


def test_mutants_stopped_early_do_not_say_no_change_fixes_it():
    """Stopped after its first mutant, the mutation has not ruled the other mutants out: it says
    so, never that no one-token change fixes the engine."""
    job = LocateJob(LocateSettings(f"perftree:{HERE / 'movegen.py'}", fen="4k3/1P4p1/8/8/8/8/5P2/4K3 w - - 0 1",
                                   depth=1, runs=4, seconds=120.0, mutants=20, mutant_seconds=300.0))

    def emit(event):
        if str(getattr(event, "text", "")).startswith("mutant "):
            job.stop()
    result = job.run(emit)
    mutation = result.mutation
    assert result.stopped and 1 <= mutation.tried < mutation.made, (mutation.tried, mutation.made)
    assert mutation.cut == "stopped"
    said = mutation.no_fix()
    assert "no one-token change" not in said and "may still fix it" in said and "stopped" in said


def test_without_a_count_the_first_pass_takes_the_whole_tie_the_line_limit_falls_in(tmp_path):
    """A tie of 300 lines below five single ranks is mutated whole (not cut at the 200th line),
    every mutant made when no count is set (the mutation's time is the limit), and within the
    tie the conditions' slips come before the other lines'."""
    from perftscope.core.locate.mutation import LINES, plan, suspect_lines
    from perftscope.core.locate.mutants import line_kind
    from perftscope.core.locate.spectra import Suspect
    engine = tmp_path / "wide.py"        # small functions: each mutant is compiled with its own
    engine.write_text("def f(x):\n" + "".join(f"    if x > {i}:\n        y = x + {i}\n        return y\n"
                                               f"def g{i}(x):\n" for i in range(76)) + "    return x\n")
    suspects = [Suspect("wide.py", n, n, min(n, 6), 1.0, 1.0, 0.0, 1, 1, "", "", str(engine))
                for n in range(1, 306)]
    lines = suspect_lines(suspects)
    assert len(lines) == 305 > LINES
    by_line = {(path, n): mutants_of(path, [n]) for _, path, n in lines}
    ranks = {(path, n): rank for rank, path, n in lines}
    first, rest = plan(by_line, ranks, None)
    assert len(first) + len(rest) == sum(map(len, by_line.values()))
    tie = [m for m in first if ranks[(m.path, m.line)] == 6]
    kinds = [line_kind(m.before) for m in tie]
    assert kinds == sorted(kinds) and kinds[0] == 0 and kinds[-1] == 2       # `return`s last
    assert (line_kind("    if x > 3:\n"), line_kind("        y = x + 3\n"), line_kind("    return f(y)\n")) == (0, 1, 2)


def test_a_python_mutant_is_compiled_without_the_whole_file_and_the_same_mutants_are_made(monkeypatch):
    """A file of thousands of lines is not compiled again for each mutant: the function holding
    the line is, or the line alone in what it needs around it (a function, a loop), and the
    mutants made are those the whole file's compile lets through."""
    from perftscope.core.locate import mutants
    path = str(HERE / "movegen.py")
    source = (HERE / "movegen.py").read_text().splitlines(keepends=True)
    make = line_of(HERE / "movegen.py", "def make(pos, move):")
    inside = line_of(HERE / "movegen.py", "if corner in (sq, t):")
    start, end, indent = mutants._function_of(tuple(source), inside - 1)
    assert (start + 1, indent) == (make, 0) and [l for l in source[start:end] if l.strip()][-1].strip().startswith("return")
    compiled = []
    whole = mutants._compiles
    monkeypatch.setattr(mutants, "_compiles", lambda text, p: compiled.append(len(text)) or whole(text, p))
    fast = mutants_of(path, range(inside - 1, inside + 2))
    assert fast and compiled and max(compiled) < len("".join(source)) / 4       # never the whole file
    monkeypatch.setattr(mutants, "_python_compiles", lambda m, lines, text, p: whole(m.apply(text), p))
    assert mutants_of(path, range(inside - 1, inside + 2)) == fast


def test_a_javascript_mutant_node_cannot_parse_is_told_by_its_first_run():
    """No `node --check` process before each mutant (it cost as much as a run): the run's own
    SyntaxError drops it, as a Python mutant that does not compile is dropped."""
    from perftscope.core.locate.mutation import _unparsed
    crashed = "failed: movegen.js crashed at the root (FEN 8/8 w - - 0 1): SyntaxError: Unexpected token ')'"
    assert _unparsed("/src/movegen.js", crashed) and _unparsed("/src/board.mjs", crashed)
    assert not _unparsed("/src/movegen.js", "misses e1c1")
    assert not _unparsed("/src/movegen.js", "failed: movegen.js crashed: TypeError: x is undefined")
    assert not _unparsed("/src/movegen.py", crashed.replace("movegen.js", "movegen.py"))


def test_the_first_pass_tries_a_name_written_for_its_peer_beside_a_line_of_constants(tmp_path):
    """Chessnut's rights voided by a move's start square only (`.get(start, '')` where the end
    square's rights are voided too): among six constants off by one, `start` written `end` is
    in the line's first three mutants."""
    from perftscope.core.locate.mutation import firsts
    engine = tmp_path / "game.py"
    engine.write_text("def apply(start, end):\n"
                      "    void = {0: 'q', 4: 'kq', 7: 'k',\n"
                      "            56: 'Q', 60: 'KQ', 63: 'K'}.get(start, '')\n"
                      "    return void, abs(start - end)\n")
    made = mutants_of(str(engine), [3])
    swapped = [m for m in made if m.kind == "name"]
    assert [m.change for m in swapped] == ["`start` to `end`"]
    assert swapped[0] in firsts(made) and [m.likeness for m in firsts(made)[:3]] == [0, 0, 0]


def test_a_comparison_one_equals_sign_off_is_its_likeliest_slip(tmp_path):
    """`<` for `<=` before `<` for `>`: the first mutant a line gets in a wide tie is the slip an
    author makes (a C loop stopping one square short)."""
    source = tmp_path / "scan.c"
    source.write_text("int scan(int a, int k) {\n    for (int s = a; s < k; s++) if (s == k) return s;\n    return a;\n}\n")
    mutants = sorted(mutants_of(str(source), [2]), key=lambda m: m.likeness)
    assert {m.change for m in mutants[:2]} == {"`<` to `<=`", "`==` to `!=`"}
    assert mutants[0].likeness < next(m.likeness for m in mutants if m.change == "`<` to `>`")


def test_a_change_is_said_as_the_line_writes_it():
    # its tokens' own spacing: `"qrb":`, not `" qrb ":`, so the author finds it in the line
    assert Mutant("m.py", 3, '    for promo in "qrb":\n', '    for promo in "":\n').change == '`"qrb":` to `"":`'
    assert Mutant("m.c", 3, "  if (x & (1<<7)) {\n", "  if (x & (1<<8)) {\n").change == "`7` to `8`"


def test_a_loop_s_break_written_continue_in_a_c_engine_is_undone(tmp_path):
    """`continue` where `break` is meant (a slider's ray goes on past the piece that blocks it, as a
    real engine's king loop once stopped at `break` where `continue` was meant): the jump written
    for its peer is one of a C line's likeliest slips, tried in the first pass and offered as the fix."""
    blocked = "                if (!own(pos->board[t], pos->white)) add(out, n, sq, t, 0);\n                break;\n"
    c_engine(tmp_path, (blocked, blocked.replace("break;", "continue;")))
    result = located_unchanged(tmp_path, "4k3/8/8/8/8/8/R1P5/4K3 w - - 0 1", runs=24, mutants=80)
    jump = next(n for n, line in enumerate((tmp_path / "movegen.c").read_text().splitlines(), 1)
                if line.strip() == "continue;" and n > 90)
    fixes = [f for f in result.fixes if f.confirmed]
    assert [(f.line, f.change) for f in fixes] == [(jump, "`continue` to `break`")], result.fixes
    assert [s.line for s in result.suspects if s.rank == 1] == [jump], result.suspects[:4]


def test_a_plain_assignment_over_two_lines_where_a_bitwise_one_gathers_is_undone(tmp_path):
    """`rays =` where `rays |=` is meant, its value on the line below (a real bitboard engine's
    queen once got her rook rays or her bishop rays, not both): gcov counts the statement on its
    second line only, yet the first, whose token is wrong, is the suspect and the fix is its
    `=` written `|=`."""
    helper = "static int off(int sq) { return sq < 0 || (sq & 0x88); }\n"
    loop = "    for (int i = kind == 'R' ? 4 : 0; i < (kind == 'B' ? 4 : 8); i++) {\n"
    text = c_engine(tmp_path, (helper, helper + "static int rays_of(int first) { return 15 << first; }\n"),
                    (loop, "    int rays = 0;\n"
                           "    if (kind != 'R')\n        rays =\n            rays_of(0);\n"
                           "    if (kind != 'B')\n        rays =\n            rays_of(4);\n"
                           "    for (int i = 0; i < 8; i++) {\n        if (!(rays >> i & 1)) continue;\n"))
    result = located_unchanged(tmp_path, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", depth=1, runs=24, mutants=80)
    planted = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "rays ="][1]
    fixes = [f for f in result.fixes if f.confirmed]
    assert fixes and (fixes[0].line, fixes[0].change) == (planted, "`=` to `|=`"), result.fixes
    assert {f.line for f in fixes} == {planted}, result.fixes
    assert [s.line for s in result.suspects if s.rank == 1] == [planted], result.suspects[:4]


def test_a_bit_shifted_from_1_to_0_is_no_off_by_one():
    """`1 << file` written `0 << file` zeroes the term whatever the file (a switch-off), where
    `> 1` written `> 0` is a bound one off: only the second is a likeliest slip."""
    bit = Mutant("gen.js", 3, "  if ((rights & (1 << file)) === 0) {\n", "  if ((rights & (0 << file)) === 0) {\n")
    bound = Mutant("gen.js", 4, "  if (count > 1) {\n", "  if (count > 0) {\n")
    off = Mutant("gen.js", 5, "  x = (2 << file);\n", "  x = (1 << file);\n")
    assert (bound.likeness, bound.kind) == (0, "constant")
    assert (bit.likeness, bit.kind) == (5, "constant")
    assert off.likeness == 0          # 2 written 1 is still one off: the shift moves, it does not vanish


def test_a_mix_of_bitwise_and_equality_unbracketed_gets_its_brackets(tmp_path):
    """`piece & 0x20 == 0` masks with `0x20 == 0` (in C `==` binds tighter than `&`), so en passant
    always takes the pawn on the wrong side for white: no one-token mutant undoes it (a real
    engine's en-passant test once masked one term of `a | b & c`); the bracketed reading is the
    confirmed fix, on that line."""
    text = c_engine(tmp_path, ("after->board[pos->white ? m.to - 16 : m.to + 16] = 0;",
                               "after->board[piece & 0x20 == 0 ? m.to - 16 : m.to + 16] = 0;"))
    result = located_unchanged(tmp_path, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", depth=2, runs=16, mutants=80)
    planted = next(n for n, line in enumerate(text.splitlines(), 1) if "0x20 == 0" in line)
    fixes = [f for f in result.fixes if f.confirmed]
    assert fixes and (fixes[0].line, fixes[0].change) == (planted, "`piece & 0x20` bracketed"), result.fixes
    assert [s.line for s in result.suspects if s.rank == 1] == [planted], result.suspects[:4]
