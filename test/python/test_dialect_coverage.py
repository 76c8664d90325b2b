"""The coverage table: every spec op has a builder, every spec constraint is checked or has a
stated reason, and docs/dialect_coverage.md is what the tables generate."""
from shlo.dialect import chlo, coverage, spec, stablehlo
from shlo.dialect.opdef import all_checks

BY_NAME = {op.mnemonic: op for op in stablehlo.OPS}


def test_every_spec_op_has_a_builder():
    assert set(spec.COUNTS) <= set(BY_NAME)
    assert len(spec.COUNTS) == 105 and sum(spec.COUNTS.values()) == 436


def test_every_spec_constraint_is_covered_or_explained():
    missing = {name: [k for k, why in coverage.gaps(BY_NAME[name]).items() if why == "MISSING"]
               for name in spec.COUNTS}
    assert {k: v for k, v in missing.items() if v} == {}


def test_reasons_are_not_stale():
    """A constraint listed as unchecked or by construction is not also checked."""
    for table in (spec.BY_CONSTRUCTION, spec.NOT_CHECKED):
        for name, reasons in table.items():
            checked = {c.id for c in all_checks(BY_NAME[name])}
            assert not set(reasons) & checked, name
            assert all(int(k[1:]) <= spec.COUNTS[name] for k in reasons), name


def test_the_document_is_up_to_date():
    assert coverage.main(["--check"]) == 0, "run: python -m shlo.dialect.coverage"


def test_document_lists_every_op():
    text = coverage.render()
    for op in (*stablehlo.OPS, *chlo.OPS):
        assert f"| `{op.name}` |" in text
