"""shlo-legalize-chlo: rewrite every CHLO op into StableHLO, with rules declared as tables.

The rules live in small modules, one per family: chlo_broadcast (the 21 broadcasting ops and
constant_like), chlo_erf (erf, erfc, erf_inv), chlo_gamma (lgamma, digamma, polygamma, zeta,
bessel_i1e), chlo_trig (sinh ... acosh, tan, _asin_acos_kernel), chlo_arith (conj, square,
is_inf, next_after, mulhi) and chlo_structure (constant, top_k, ragged_dot, scan). A rule takes
a `Match` (the CHLO op and the values standing for its operands) and returns the StableHLO
values that replace the op's results; it runs under the op's location.

Rules run through MLIR's greedy pattern driver (`iree.compiler.rewrite`). Because ops of one
signature (name, operand and result types, attributes) always expand the same way, a rule
runs once per signature into a scratch block with the typed builders, and every op of that
signature replays the recorded ops with `ir.Operation.create` (rules whose expansion holds
regions, like scan and top_k, run directly each time). A CHLO op with no rule, or one a rule
cannot lower (e.g. a type the op does not define), makes the pass fail at that op.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir, rewrite

from ..errors import PassError
from . import chlo_arith, chlo_broadcast, chlo_erf, chlo_gamma, chlo_structure, chlo_trig
from .base import Pass, nested_ops
from .chlo_expr import Match, attributes, generic_text, scope

RULES = {**chlo_broadcast.RULES, **chlo_erf.RULES, **chlo_gamma.RULES, **chlo_trig.RULES,
         **chlo_arith.RULES, **chlo_structure.RULES}


@dataclasses.dataclass
class Recipe:
    """A recorded expansion: (op name, result types, operand refs, attributes) per op, where a
    ref is (-1, k) for the k-th operand of the CHLO op and (i, k) for result k of step i."""
    steps: list
    outputs: list


class _Direct:
    """Cache marker: this signature's expansion cannot be replayed; run the rule each time."""


def _signature(op: ir.Operation):
    try:
        attrs = tuple(attributes(op).items())
    except TypeError:           # an attribute the bindings cannot wrap: key on the text
        attrs = generic_text(op)
    return (op.name, tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
            attrs)


def _record(rule, op: ir.Operation):
    """Run `rule` once on block arguments standing for `op`'s operands and keep what it built."""
    holder = ir.Operation.create("builtin.module", regions=1, loc=op.location)
    types = [v.type for v in op.operands]
    block = holder.regions[0].blocks.append(*types, arg_locs=[op.location] * len(types))
    try:
        with ir.InsertionPoint(block), op.location, scope():
            outputs = rule(Match(op, list(block.arguments)))
        refs = {arg: (-1, k) for k, arg in enumerate(block.arguments)}
        steps = []
        for i, built in enumerate(block.operations):
            built = built.operation
            if len(built.regions) or any(v not in refs for v in built.operands):
                return _Direct
            try:
                step_attributes = attributes(built)
            except TypeError:       # e.g. a complex constant: replayed from its text
                if len(built.operands):
                    return _Direct
                step_attributes = generic_text(built)
            steps.append((built.name, [r.type for r in built.results],
                          [refs[v] for v in built.operands], step_attributes))
            for k, r in enumerate(built.results):
                refs[r] = (i, k)
        if any(v not in refs for v in outputs):
            return _Direct
        return Recipe(steps, [refs[v] for v in outputs])
    finally:
        holder.erase()


def _replay(recipe: Recipe, operands, loc, ip) -> list:
    made = []
    create = ir.Operation.create
    for name, types, refs, attrs in recipe.steps:
        if isinstance(attrs, str):      # an op with no operands, kept as text
            op = ir.Operation.parse(attrs, context=loc.context)
            ip.insert(op)
            made.append(op.results)
            continue
        args = [operands[k] if i < 0 else made[i][k] for i, k in refs]
        made.append(create(name, results=types, operands=args, attributes=attrs,
                           loc=loc, ip=ip).results)
    return [operands[k] if i < 0 else made[i][k] for i, k in recipe.outputs]


def _lower(rule, op: ir.Operation, ip, cache: dict) -> list:
    """The values replacing `op`'s results, built before it."""
    direct = getattr(rule, "direct", False)
    key = None if direct else _signature(op)
    recipe = cache.get(key) if key is not None else _Direct
    if recipe is None:
        try:
            recipe = _record(rule, op)
        except PassError as e:
            recipe = e
        cache[key] = recipe
    if isinstance(recipe, PassError):
        raise PassError(recipe.message, at=op)
    if recipe is _Direct:
        with ip, op.location, scope():
            return list(rule(Match(op, list(op.operands))))
    return _replay(recipe, list(op.operands), op.location, ip)


def _pattern(rule, cache: dict, errors: list):
    def match_and_rewrite(op, rewriter):
        try:
            values = _lower(rule, op.operation, rewriter.ip, cache)
        except PassError as e:
            errors.append(e)
            return True
        except Exception as e:   # a bug in a rule must not cross the C++ driver
            errors.append(PassError(f"shlo-legalize-chlo: internal error lowering "
                                    f"{op.operation.name}: {type(e).__name__}: {e}",
                                    at=op.operation))
            return True
        rewriter.replace_op(op, values)
    return match_and_rewrite


@dataclasses.dataclass
class LegalizeChlo(Pass):
    """Legalize CHLO ops to StableHLO with Python rewrite rules."""

    NAME = "shlo-legalize-chlo"

    def run(self, op: ir.Operation) -> None:
        missing = [o for o in nested_ops(op, "chlo.") if o.name not in RULES]
        if missing:
            raise PassError(f"shlo-legalize-chlo: no lowering for '{missing[0].name}' "
                            f"(shlo lowers {len(RULES)} CHLO ops)", at=missing[0])
        errors: list[PassError] = []
        cache: dict = {}
        patterns = rewrite.RewritePatternSet(op.context)
        for name, rule in RULES.items():
            patterns.add(name, _pattern(rule, cache, errors))
        config = rewrite.GreedyRewriteConfig()
        config.enable_folding = False
        rewrite.apply_patterns_and_fold_greedily(op, patterns.freeze(), config)
        if errors:
            raise errors[0]
