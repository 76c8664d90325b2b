"""The generated `.pyi` stubs of the builder namespaces are current and name every builder."""
import ast
import os

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
def test_every_builder_has_a_def(rel, names):
    tree = ast.parse(open(os.path.join(ROOT, rel)).read())
    defs = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(names) <= defs, sorted(set(names) - defs)[:10]
    assert len(names) > 20


def test_check_mode_reports_a_stale_stub(tmp_path, capsys):
    for rel in gen_stubs.stubs():
        os.makedirs(tmp_path / os.path.dirname(rel), exist_ok=True)
    assert gen_stubs.main(["--root", str(tmp_path)]) == 0
    assert gen_stubs.main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / "dialect/chlo.pyi").write_text("def erf(): ...\n")
    assert gen_stubs.main(["--check", "--root", str(tmp_path)]) == 1
    assert "dialect/chlo.pyi" in capsys.readouterr().err
