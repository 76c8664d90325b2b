"""shlo-legalize-chlo: rewrite every CHLO op into StableHLO, with rules declared as tables.

The rules live in the modules next to this one, one per family: broadcast (the 21 broadcasting
ops and constant_like), erf (erf, erfc, erf_inv), gamma (lgamma, digamma, polygamma, zeta,
bessel_i1e), trig (sinh ... acosh, tan, _asin_acos_kernel), arith (conj, square, is_inf,
next_after, mulhi) and structure (constant, top_k, ragged_dot, scan). A rule takes
a `Match` (the CHLO op and the values standing for its operands) and returns the StableHLO
values that replace the op's results; it runs under the op's location.

Rules run through MLIR's greedy pattern driver (`iree.compiler.rewrite`). Because ops of one
signature (name, operand and result types, attributes) always expand the same way, a rule
runs once per signature into a scratch block with the typed builders, and every op of that
signature gets a C++ clone of that block moved into place; an elementwise expansion (one
shape throughout, splat constants) also serves other shapes of the same element types,
through a retyped copy recorded once per shape. Rules marked `direct`, and those that reach outside their block,
run each time. A CHLO op with no rule, or one a rule
cannot lower (e.g. a type the op does not define), makes the pass fail at that op.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir, rewrite

from shlo.errors import PassError
from . import (arith as chlo_arith, broadcast as chlo_broadcast, erf as chlo_erf,
    gamma as chlo_gamma, structure as chlo_structure, trig as chlo_trig)
from ..base import Pass, nested_ops
from ..op_rules import merge_rules
from ..lib.expr import Match, attributes, generic_text, scope

RULES = merge_rules(chlo_broadcast.RULES, chlo_erf.RULES, chlo_gamma.RULES, chlo_trig.RULES,
                    chlo_arith.RULES, chlo_structure.RULES)


@dataclasses.dataclass
class Recipe:
    """A recorded expansion: a detached holder op whose one block (arguments standing for the
    CHLO op's operands) holds the StableHLO ops, and where each output comes from: (-1, k) is
    operand k, (i, k) result k of the block's i-th op. `uniform` is set when every value in
    it has the CHLO op's one shape and every constant is a splat (an elementwise expansion):
    it then serves any shape, as (op index, splat element) for each constant."""
    holder: ir.Operation
    outputs: list
    uniform: list | None = None
    # for retyping a uniform recipe: the distinct element types, and for each value (block
    # arguments, then every op's results in order) the index of its element type
    elements: list = dataclasses.field(default_factory=list)
    kinds: list = dataclasses.field(default_factory=list)


class _Direct:
    """Cache marker: this signature's expansion cannot be replayed; run the rule each time."""


def _signature(op: ir.Operation, shapes: bool = True):
    """What decides an op's expansion: name, operand and result types (with `shapes=False`
    their element types only), attributes."""
    attrs: tuple | str
    try:
        attrs = tuple(attributes(op).items())
    except TypeError:           # an attribute the bindings cannot wrap: key on the text
        attrs = generic_text(op)
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if not shapes:
        types = [ir.ShapedType(t).element_type for t in types]
    return (op.name, len(op.operands), tuple(types), attrs)


def _one_shape(values) -> tuple | None:
    """The shape all `values` share, when they are ranked tensors of one shape."""
    shapes = set()
    for v in values:
        t = v.type.maybe_downcast()
        if not isinstance(t, ir.RankedTensorType):
            return None
        shapes.add(tuple(t.shape))
    return shapes.pop() if len(shapes) == 1 else None


def _uniform(ops: list, shape: tuple) -> list | None:
    """The splat constants of an expansion whose every value has `shape`, else None."""
    splats = []
    for i, o in enumerate(ops):
        if len(o.regions) or _one_shape(list(o.operands) + list(o.results)) != shape:
            return None
        if o.name == "stablehlo.constant":
            try:
                value = ir.DenseElementsAttr(o.attributes["value"])
            except TypeError:       # e.g. complex: the bindings cannot hold it
                return None
            if not value.is_splat:
                return None
            splats.append((i, value.get_splat_value()))
    return splats


def _record(rule, op: ir.Operation):
    """Run `rule` once on block arguments standing for `op`'s operands and keep what it built
    (or `_Direct` when it reached outside its block)."""
    holder = ir.Operation.create("builtin.module", regions=1, loc=op.location)
    types = [v.type for v in op.operands]
    block = holder.regions[0].blocks.append(*types, arg_locs=[op.location] * len(types))
    try:
        with ir.InsertionPoint(block), op.location, scope():
            outputs = rule(Match(op, list(block.arguments)))
    except BaseException:
        holder.erase()
        raise
    refs = {arg: (-1, k) for k, arg in enumerate(block.arguments)}
    ops = [o.operation for o in block.operations]
    for i, built in enumerate(ops):
        if any(v not in refs for v in built.operands):
            holder.erase()
            return _Direct
        for k, r in enumerate(built.results):
            refs[r] = (i, k)
    if any(v not in refs for v in outputs):
        holder.erase()
        return _Direct
    shape = _one_shape(list(op.operands) + list(op.results))
    uniform = _uniform(ops, shape) if shape is not None else None
    recipe = Recipe(holder, [refs[v] for v in outputs], uniform)
    if uniform is not None:
        index: dict[str, int] = {}
        for value in [*block.arguments, *(r for o in ops for r in o.results)]:
            element = ir.ShapedType(value.type).element_type
            k = index.setdefault(str(element), len(index))
            if k == len(recipe.elements):
                recipe.elements.append(element)
            recipe.kinds.append(k)
    return recipe


def _replay(recipe: Recipe, op: ir.Operation) -> list:
    """A copy of the recorded ops on `op`'s operands, at `op`'s location, placed before it
    (one C++ clone of the whole expansion, then a move per op)."""
    operands = list(op.operands)
    copy = recipe.holder.clone(ip=False)
    block = copy.regions[0].blocks[0]
    for arg, value in zip(block.arguments, operands):
        arg.replace_all_uses_with(value)
    ops = [o.operation for o in block.operations]
    loc = op.location
    for o in ops:
        o.move_before(op)
        o.location = loc
    copy.erase()
    return [operands[k] if i < 0 else ops[i].results[k] for i, k in recipe.outputs]


def _retyped(recipe: Recipe, op: ir.Operation) -> Recipe:
    """A uniform recipe recorded on another shape, as a recipe for `op`'s shape: every value
    (block arguments included) gets the shape, every splat constant follows."""
    holder = recipe.holder.clone(ip=False)
    block = holder.regions[0].blocks[0]
    ops = [o.operation for o in block.operations]
    shape = ir.RankedTensorType(op.operands[0].type).shape
    with op.location:
        types = [ir.RankedTensorType.get(shape, e) for e in recipe.elements]
        values = [*block.arguments, *(r for o in ops for r in o.results)]
        for value, k in zip(values, recipe.kinds):
            value.set_type(types[k])
        for i, element in recipe.uniform:  # type: ignore[union-attr]  # a uniform recipe
            ops[i].attributes["value"] = ir.DenseElementsAttr.get_splat(
                ops[i].results[0].type, element)
    return Recipe(holder, recipe.outputs, recipe.uniform, recipe.elements, recipe.kinds)


def _lower(rule, op: ir.Operation, ip, cache: dict) -> list:
    """The values replacing `op`'s results, built before it."""
    direct = getattr(rule, "direct", False)
    key = None if direct else _signature(op)
    recipe = cache.get(key) if key is not None else _Direct
    if recipe is None:
        shapeless = _signature(op, shapes=False)
        uniform = cache.get(shapeless)
        if uniform is not None and len(op.operands) and \
                _one_shape(list(op.operands) + list(op.results)) is not None:
            recipe = _retyped(uniform, op)
        else:
            try:
                recipe = _record(rule, op)
            except PassError as e:
                recipe = e
            if isinstance(recipe, Recipe) and recipe.uniform is not None:
                cache[shapeless] = recipe
        cache[key] = recipe
    if isinstance(recipe, PassError):
        raise PassError(recipe.message, at=op)
    if recipe is _Direct:
        with ip, op.location, scope():
            return list(rule(Match(op, list(op.operands))))
    return _replay(recipe, op)  # type: ignore[arg-type]  # a Recipe: not _Direct, no error


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

    def _patterns(self, context: ir.Context):
        """The frozen patterns and the list their failures go to, made once per context and
        kept across the functions this pass instance runs on, with the recorded expansions
        (a detached holder op is freed with its recipe)."""
        made = self.__dict__.setdefault("_patterns_by_context", {})
        if context not in made:
            errors: list[PassError] = []
            recipes: dict = {}
            patterns = rewrite.RewritePatternSet(context)
            for name, rule in RULES.items():
                patterns.add(name, _pattern(rule, recipes, errors))
            made[context] = (patterns.freeze(), errors)
        return made[context]

    def run(self, op: ir.Operation) -> None:
        missing = [o for o in nested_ops(op, "chlo.") if o.name not in RULES]
        if missing:
            raise PassError(f"shlo-legalize-chlo: no lowering for '{missing[0].name}' "
                            f"(shlo lowers {len(RULES)} CHLO ops)", at=missing[0])
        patterns, errors = self._patterns(op.context)
        errors.clear()
        config = rewrite.GreedyRewriteConfig()
        config.enable_folding = False
        # only the CHLO ops present are rewritten (expansions hold none); no region
        # simplification or constant hoisting over the (large) expanded bodies: the
        # pipeline's canonicalize and cse do that once
        config.strictness = rewrite.GreedyRewriteStrictness.EXISTING_OPS
        config.region_simplification_level = rewrite.GreedySimplifyRegionLevel.DISABLED
        config.enable_constant_cse = False
        rewrite.apply_patterns_and_fold_greedily(op, patterns, config)
        if errors:
            raise errors[0]
