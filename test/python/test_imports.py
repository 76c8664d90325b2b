"""The package's import structure: every module imports alone, no import cycles, and
dependencies point one way (core <- dialect <- passes <- pipelines <- runtime <- tools)."""
import ast
import importlib
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = {"core": "shlo", "dialect": "shlo.dialect", "passes": "shlo.passes",
           "pipelines": "shlo.pipelines", "runtime": "shlo.runtime", "tools": "shlo.tools"}
LAYERS = ["shlo.dialect", "shlo.passes", "shlo.pipelines", "shlo.runtime", "shlo.tools"]
# The `shlo` package's facades, which re-export a lower layer's API under a short name.
FACADES = {"shlo", "shlo.xla", "shlo.jax"}


def _modules() -> dict[str, str]:
    """{module name: file} for every module of the package."""
    out = {}
    for folder, package in FOLDERS.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), os.path.join(ROOT, folder))
                parts = rel[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                out[".".join([package, *parts])] = os.path.join(dirpath, f)
    return out


MODULES = _modules()


def _source(package: str, node: ast.ImportFrom) -> str:
    """The absolute name of the module a `from ... import` in `package` reads from."""
    base = node.module or ""
    if not node.level:
        return base
    parts = package.split(".")
    parts = parts[:len(parts) - (node.level - 1)]
    return ".".join(parts + ([base] if base else []))


def _imports(name: str, path: str, top_level_only: bool) -> set[str]:
    """The package modules that `name` imports (at module level only, or anywhere)."""
    tree = ast.parse(open(path).read())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = _source(package, node)
            for alias in node.names:
                target = f"{base}.{alias.name}"
                out.add(target if target in MODULES else base)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in MODULES and m != name}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for v in edges:
        if v not in index:
            visit(v)
    return found


def _layer(name: str) -> int:
    return max([i + 1 for i, p in enumerate(LAYERS) if name == p or name.startswith(p + ".")],
               default=0)


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    edges = {m: _imports(m, p, top_level_only=False) for m, p in MODULES.items()}
    assert _cycles(edges) == []


def test_dependencies_point_one_way():
    upward = sorted(f"{m} -> {t}" for m, p in MODULES.items() if m not in FACADES
                    for t in _imports(m, p, top_level_only=False) if _layer(t) > _layer(m))
    assert upward == []


def _private_imports(name: str, path: str) -> list[str]:
    """`_private` names that `name` imports from another module of the package."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.ImportFrom):
            base = _source(package, node)
            out += [f"{name} imports {base}.{a.name}" for a in node.names
                    if base in MODULES and a.name.startswith("_") and not a.name.startswith("__")]
    return out


def test_helpers_used_across_modules_are_public():
    assert [line for m, p in MODULES.items() for line in _private_imports(m, p)] == []


def _closure(name: str) -> set[str]:
    """`name`, the package modules it imports at module level, theirs, ..., and their packages."""
    out, todo = set(), [name]
    while todo:
        m = todo.pop()
        parts = m.split(".")
        for k in range(1, len(parts) + 1):
            parent = ".".join(parts[:k])
            if parent in MODULES and parent not in out:
                out.add(parent)
                todo.extend(_imports(parent, MODULES[parent], top_level_only=True))
    return out


@pytest.mark.every_case
@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_imports_alone(name):
    """Each module imports first, with none of the package's modules it reaches at import time
    loaded before it (the others cannot change what its import does)."""
    fresh, before = _closure(name), set(sys.modules)
    saved = {m: sys.modules.pop(m) for m in list(sys.modules) if m in fresh}
    try:
        importlib.import_module(name)
    finally:
        for m in [m for m in sys.modules if m in fresh or (m in MODULES and m not in before)]:
            del sys.modules[m]
        sys.modules.update(saved)
