"""The package's imports read from its source, every import counted (those inside functions too,
since a lazy import is still a dependency): no circle; core below app and widgets and free of
Qt; widgets free of numba (core.limits is how a widget learns a bound) and of the app above them,
and taking from core's engines, mismatch and race rooms only their public types and words."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent          # the repository: perftscope's namespace
PACKAGE = "perftscope"
ROOMS = ("app", "core", "widgets", "resources")


def modules() -> dict[str, Path]:
    """perftscope.x.y -> its file, for every module of the rooms (packages by their __init__)."""
    found = {}
    for room in ROOMS:
        for path in (ROOT / room).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((PACKAGE, *parts))] = path
    found[f"{PACKAGE}.__main__"] = ROOT / "__main__.py"       # `python -m perftscope`
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module `name` imports: perftscope's by their module name, others by their top name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            # `from package import module` imports the module; `from module import name`, the module
            submodules = {f"{base}.{alias.name}" for alias in node.names} & set(known)
            out.update(submodules)
            if len(submodules) < len(node.names):
                out.add(base)
    return {m if m.startswith(PACKAGE + ".") or m == PACKAGE else m.split(".")[0] for m in out}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and modules importing themselves
    (Tarjan's algorithm)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def room(module: str) -> str:
    return module.split(".")[1] if module.startswith(PACKAGE + ".") else ""


def test_the_reader_sees_every_room():
    edges = graph()
    assert {"perftscope.core.engines.oracles", "perftscope.app.gui", "perftscope.widgets.board"} <= set(edges)
    # relative imports resolve: the window imports its model, the oracles their spec parser
    assert "perftscope.app.model" in edges["perftscope.app.gui"]
    assert "perftscope.core.engines.spec" in edges["perftscope.core.engines.oracles"]
    assert "PySide6" in edges["perftscope.widgets.board"] and "numba" in edges["perftscope.core.kernels.search"]


def test_no_module_imports_itself_back():
    assert circles(graph()) == []


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"a"}}) == [["a"]]


def test_core_is_below_app_and_widgets_and_knows_no_qt():
    wrong = sorted((name, dep) for name, deps in graph().items() if room(name) == "core"
                   for dep in deps if room(dep) in ("app", "widgets") or dep in ("PySide6", "pyqtgraph", "shiboken6"))
    assert wrong == []


def test_widgets_never_import_numba_nor_the_app():
    wrong = sorted((name, dep) for name, deps in graph().items() if room(name) == "widgets"
                   for dep in deps if dep in ("numba", "llvmlite") or dep.startswith(f"{PACKAGE}.core.kernels")
                   or room(dep) == "app")
    assert wrong == []


# What a widget may take from the rooms that talk to engines, find mismatches and race: their public
# types and words (a spec, a pair of engines, a row, a verdict, a job's settings), never their machinery.
PUBLIC = {
    "perftscope.core.engines.spec": {"KINDS", "BY_NAME", "Kind", "Spec", "parse_spec"},
    "perftscope.core.engines.pair": {"EnginePair"},
    "perftscope.core.engines.stockfish": {"find_stockfish"},        # whether Stockfish can be offered
    "perftscope.core.engines.lenient_fen": {"lenient_fen", "fen_as_written"},   # the FEN field, where a FEN enters
    "perftscope.core.mismatch.verdicts": None,                      # the vocabulary: every name
    "perftscope.core.mismatch.finder": {"Row"},
    "perftscope.core.mismatch.session_job": {"SuiteSettings", "FuzzSettings"},
    "perftscope.core.race.runner": {"RacePosition", "WRONG"},       # a row whose count was wrong offers Which line?
    "perftscope.core.race.race_job": {"RaceSettings"},
    "perftscope.core.race.report": {"short_verdict", "settings_text"},
}
GUARDED = tuple(f"{PACKAGE}.core.{room}" for room in ("engines", "mismatch", "race"))


def names_taken(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every `from perftscope.x import name` and `import perftscope.x` (name '*')."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(alias.name, "*") for alias in node.names]
    return out


def test_widgets_take_only_the_public_types_of_engines_mismatch_and_race():
    wrong = []
    for name, path in modules().items():
        if room(name) != "widgets":
            continue
        for module, taken in names_taken(path):
            if not module.startswith(GUARDED):
                continue
            allowed = PUBLIC.get(module, set())
            if allowed is not None and taken not in allowed:
                wrong.append((name, f"{module}.{taken}"))
    assert wrong == []


def test_the_widget_rule_sees_a_widget_reaching_into_the_machinery(tmp_path):
    widget = tmp_path / "w.py"
    widget.write_text("from perftscope.core.engines.oracles import make_oracle\n"
                      "from perftscope.core.engines.spec import parse_spec\n")
    taken = [t for t in names_taken(widget) if t[0].startswith(GUARDED)]
    assert [t for t in taken if t[1] not in (PUBLIC.get(t[0]) or set())] == \
        [("perftscope.core.engines.oracles", "make_oracle")]


# core's rooms from the bottom up: a module imports from its own room or from rooms below it, never
# above (the engines read answers; what an answer means to a comparison is mismatch's). The first
# layer is core's loose modules, which import nothing of perftscope; the last layer's rooms are
# independent of each other.
CORE_LAYERS = (
    ("errors", "limits", "units", "kernel_cache", "job", "folder_digest"),
    ("kernels",),
    ("board",),
    ("counting",),
    ("engines",),
    ("mismatch",),
    ("race", "locate"),
    ("bench",),                 # benchmarks time the rooms below them
)


def core_room(module: str) -> str:
    """'engines' for perftscope.core.engines.spec, 'errors' for perftscope.core.errors, '' outside core."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == [PACKAGE, "core"] else ""


def arrows_back_up(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    layer = {r: i for i, rooms in enumerate(CORE_LAYERS) for r in rooms}
    wrong = []
    for name, deps in edges.items():
        here = core_room(name)
        if not here:
            continue
        for dep in deps:
            there = core_room(dep)
            if there and there != here and layer[there] >= layer[here]:
                wrong.append((name, dep))
    return sorted(wrong)


def test_every_room_of_core_has_its_layer():
    rooms = {core_room(name) for name in graph()} - {""}
    assert rooms == {r for layer in CORE_LAYERS for r in layer}


def test_no_arrow_goes_back_up_between_cores_rooms():
    assert arrows_back_up(graph()) == []


def test_an_arrow_back_up_is_seen():
    assert arrows_back_up({"perftscope.core.engines.divide_parser": {"perftscope.core.mismatch.verdicts",
                                                                     "perftscope.core.board.position"},
                           "perftscope.core.race.runner": {"perftscope.core.locate.job"}}) == \
        [("perftscope.core.engines.divide_parser", "perftscope.core.mismatch.verdicts"),
         ("perftscope.core.race.runner", "perftscope.core.locate.job")]
