"""core.locate.precedence: the other readings of an unbracketed mix of `|` and `&`, or of `&` and
`==`, as a C-family author may have meant them."""
from perftscope.core.locate.mutants import _masked
from perftscope.core.locate.precedence import readings


def read(code: str, language: str = "c") -> list[str]:
    return [r.strip() for r in readings(code, _masked(code, language), language)]


def test_a_mask_applied_to_one_term_only_gets_the_whole_or_bracketed():
    # a real engine's en-passant test: the check mask meant for both squares masked the second only
    code = "if (ep != NONE && ((1ull << ep | 1ull << (ep - up) & checkmask)))"
    assert read(code, "cpp") == ["if (ep != NONE && (((1ull << ep | 1ull << (ep - up)) & checkmask)))"]
    assert read("y = a & b | c;") == ["y = a & (b | c);"]
    assert read("y = a | b & c | d;") == ["y = (a | b) & c | d;", "y = a | b & (c | d);"]


def test_a_mask_compared_gets_its_brackets_in_the_c_family_only():
    assert read("if (x & mask == 0) return;") == ["if ((x & mask) == 0) return;"]
    assert read("ok = a === b & c;", "javascript") == ["ok = a === (b & c);"]
    # in Rust `&` binds tighter than `==`: nothing to bracket there, though `|` and `&` still mix
    assert read("if a & b == 0 {}", "rust") == []
    assert read("let m = a | b & c;", "rust") == ["let m = (a | b) & c;"]


def test_what_binds_looser_unary_operators_and_strings_are_left_alone():
    assert read("if (a && b | c) f(&x);") == []                 # `&&` ends a reading, `&x` is no operator
    assert read("x = a | b;") == [] and read("x = (a | b) & c;") == []
    assert read('puts("a | b & c");') == []
    assert read("y = a | b & c;", "python") == []
