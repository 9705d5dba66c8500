"""python-chess for the planted engines of this folder, without its 20 ms of tables at start.

The engines here are new Python processes per call (the perftree protocol) or per test, about two
thousand in a run of the suite, and `import chess` built its slider tables (every occupancy of
every square's rays: 13,000 entries) before an engine read a line, where a call of a few plies
looks up a few hundred. Being first on an engine's path (its script's folder), this module runs the
installed python-chess's own code, unchanged but for those three statements: each table entry is
computed by python-chess's own function the first time it is looked up, so the engines' moves,
and their planted bugs, are python-chess's. The rewritten code is kept in __pycache__ beside this
file, as Python keeps byte code, keyed on python-chess's file, this file and this Python; anything
unexpected falls back to the plain import. tests/core/engines/test_planted_chess.py compares every
entry with python-chess's."""
import importlib.machinery
import importlib.util
import marshal
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = "_attack_table"        # python-chess's function building a slider's (masks, attacks)


class LazyAttacks(dict):
    """One square's attacks of a slider by occupancy (a subset of its mask), computed on first use."""
    __slots__ = ("square", "deltas", "sliding_attacks")

    def __init__(self, square, deltas, sliding_attacks):
        super().__init__()
        self.square, self.deltas, self.sliding_attacks = square, deltas, sliding_attacks

    def __missing__(self, occupied):
        attacks = self[occupied] = self.sliding_attacks(self.square, occupied, self.deltas)
        return attacks


def _lazy_attack_table(namespace):
    def attack_table(deltas):
        """python-chess's _attack_table, its attacks computed when first looked up."""
        sliding_attacks, edges = namespace["_sliding_attacks"], namespace["_edges"]
        masks = [sliding_attacks(square, 0, deltas) & ~edges(square) for square in range(64)]
        return masks, [LazyAttacks(square, deltas, sliding_attacks) for square in range(64)]
    return attack_table


def _real_spec():
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
    return importlib.machinery.PathFinder.find_spec("chess", path)


def _cache_path(origin):
    key = "|".join(f"{p}:{os.stat(p).st_size}:{os.stat(p).st_mtime_ns}" for p in (origin, __file__))
    h = 0xcbf29ce484222325          # FNV-1a: the same in every process, unlike str's hash
    for byte in key.encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return os.path.join(HERE, "__pycache__", f"chess.lazy.{sys.implementation.cache_tag}.{h:016x}.marshal")


def _rewrite(origin):
    """python-chess's code with its table statements calling `_LAZY_ATTACK_TABLE`, or None when
    it has no such statement (another version: the plain import then)."""
    import ast

    with open(origin, "rb") as f:
        tree = ast.parse(f.read(), origin)
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == TABLES:
            node.func.id = "_LAZY_ATTACK_TABLE"
            found += 1
    return compile(tree, origin, "exec") if found == 3 else None


def _code(spec):
    cache = _cache_path(spec.origin)
    try:
        with open(cache, "rb") as f:
            return marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    code = _rewrite(spec.origin)
    if code is not None:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        part = f"{cache}.{os.getpid()}"
        with open(part, "wb") as f:
            marshal.dump(code, f)
        os.replace(part, cache)          # whole or not at all, with engines starting side by side
    return code


def _load():
    spec = _real_spec()
    if spec is None or not spec.origin:
        raise ImportError("python-chess is not installed for this Python", name="chess")
    code = _code(spec)
    module = importlib.util.module_from_spec(spec)
    module._LAZY_ATTACK_TABLE = _lazy_attack_table(module.__dict__)
    sys.modules["chess"] = module          # python-chess's dataclasses look their module up there
    try:
        if code is None:
            spec.loader.exec_module(module)
        else:
            exec(code, module.__dict__)
    except BaseException:
        del sys.modules["chess"]
        raise
    del module._LAZY_ATTACK_TABLE


_load()
