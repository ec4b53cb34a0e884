"""The app's packages import one way: pages -> views -> controls / figures / tables ->
compute -> settings and lesson text -> attn_core (STYLE.md "Our layout"). The graph is
read from the source, every import counted, function-level ones too (an import inside a
function that dodges a circle is still a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("attn_core", "attn_ui", "attn_sheets", "attn_lessons", "attn_class")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The app's modules that module `name` imports: `from a.b import c` is a.b.c when c
    is a module, else a.b."""
    out = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            subs = {f"{base}.{a.name}" for a in node.names} & known
            out |= subs or {base}
    return (out & known) - {name}


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_reader_sees_a_function_level_import_and_closes_the_circle(tmp_path):
    """The reader itself: an import inside a function counts, relative imports resolve,
    and a circle is found."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from pkg import b\n")
    b = tmp_path / "b.py"
    b.write_text("from .a import f\n")
    known = {"pkg.a", "pkg.b", "pkg"}
    edges = {"pkg.a": imports("pkg.a", a, known), "pkg.b": imports("pkg.b", b, known)}
    assert edges == {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}
    assert cycles(edges) == [["pkg.a", "pkg.b"]]


def test_no_module_of_the_app_imports_itself_in_a_circle():
    assert cycles(graph()) == []


def below(g: dict[str, set[str]], name: str) -> set[str]:
    """Every module `name` reaches."""
    seen, todo = set(), [name]
    while todo:
        for m in g[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def test_the_core_and_the_lessons_logic_import_no_ui():
    g = graph()
    for name in g:
        if name.startswith(("attn_core", "attn_lessons")):
            assert not {m for m in below(g, name) if m.startswith("attn_ui")}, name


def test_compute_and_settings_import_no_widget_module():
    """The data model and the maths behind the pages never depend on widgets."""
    g = graph()
    widgets = {"attn_ui.controls", "attn_ui.widgets", "attn_ui.frame", "attn_ui.state"}
    for name in g:
        if name.startswith(("attn_ui.compute", "attn_ui.settings")):
            assert not below(g, name) & widgets, (name, below(g, name) & widgets)


def test_the_class_store_stands_alone():
    """attn_class (the stored data) imports no Streamlit and nothing of the app: the pages
    use it, not the other way round, and it can be read and tested on its own."""
    g = graph()
    for name, path in modules().items():
        if name.startswith("attn_class"):
            assert not {m for m in below(g, name) if not m.startswith("attn_class")}, name
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
            assert not {m for m in names if m.split(".")[0] == "streamlit"}, name
