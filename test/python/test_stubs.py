"""The generated `.pyi` stubs of the builder namespaces are current and name every builder."""
import __future__
import ast
import importlib
import os
import types

import pytest

from shlo.dialect import chlo, stablehlo
from shlo.dialect import xla
from shlo.tools import gen_stubs

ROOT = gen_stubs.ROOT


def test_stubs_are_current():
    stale = [rel for rel, text in gen_stubs.stubs().items()
             if not os.path.exists(os.path.join(ROOT, rel))
             or open(os.path.join(ROOT, rel)).read() != text]
    assert not stale, f"run python -m shlo.tools.gen_stubs: {stale} out of date"


@pytest.mark.parametrize("rel, names", [
    ("dialect/stablehlo.pyi", stablehlo.__all__),
    ("dialect/chlo.pyi", chlo.__all__),
    ("dialect/xla/__init__.pyi", sorted(xla.OPS)),
])
@pytest.mark.every_case
def test_every_builder_has_a_def(rel, names):
    tree = ast.parse(open(os.path.join(ROOT, rel)).read())
    defs = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(names) <= defs, sorted(set(names) - defs)[:10]
    assert len(names) > 20


def _stub_names(rel: str) -> set[str]:
    """The names a stub declares: defs, classes, assignments, `as` re-exports, and the `__all__`
    of the stub a star import reads."""
    tree = ast.parse(open(os.path.join(ROOT, rel)).read())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom) and node.names[0].name == "*":
            star = os.path.relpath(importlib.import_module(node.module).__file__, ROOT)
            names |= set(ast.literal_eval(next(
                n.value for n in ast.parse(open(os.path.join(ROOT, star + "i")).read()).body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "__all__")))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {a.asname for a in node.names if a.asname}
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("module, rel", [
    ("shlo.dialect.stablehlo", "dialect/stablehlo.pyi"),
    ("shlo.dialect.chlo", "dialect/chlo.pyi"),
    ("shlo.dialect.xla", "dialect/xla/__init__.pyi"),
    ("shlo.xla", "core/xla.pyi"),
])
@pytest.mark.every_case
def test_stub_declares_exactly_the_public_names(module, rel):
    """Every public name the module has at run time (not a submodule or imported module, not a
    `__future__` feature) is in its stub, and the stub declares no name the module lacks."""
    mod = importlib.import_module(module)
    public = {n for n in dir(mod) if not n.startswith("_")
              and not isinstance(getattr(mod, n), (types.ModuleType, __future__._Feature))}
    declared = _stub_names(rel)
    assert not public - declared, f"{rel} lacks {sorted(public - declared)[:10]}"
    assert not declared - set(dir(mod)), f"{rel} declares {sorted(declared - set(dir(mod)))[:10]}"
    assert len(public) > 20


def test_check_mode_reports_a_stale_stub(tmp_path, capsys):
    for rel in gen_stubs.stubs():
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
    assert gen_stubs.main(["--root", str(tmp_path)]) == 0
    assert gen_stubs.main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / "dialect/chlo.pyi").write_text("def erf(): ...\n")
    assert gen_stubs.main(["--check", "--root", str(tmp_path)]) == 1
    assert "dialect/chlo.pyi" in capsys.readouterr().err
