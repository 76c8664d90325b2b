"""Turn the test functions of a parsed chunk into functions that return what their checks read.

For each test function (`@main` when the chunk has one, else every public function without
arguments that nothing references), in place:

1. `interpreter.run_parallel` becomes a call of each program when no program communicates
   (replica_id/partition_id become the program's own index); programs that communicate mark
   the test unsupported: a local IREE device runs one process (conformance_parallel).
2. Checks (`conformance.*` from the rewritten text, `stablehlo.custom_call @check.*`) are
   erased; the value each one reads becomes a result of the function. An expected value
   defined by a `stablehlo.constant` stays on the host; any other is returned too.
   `interpreter.probe` is the identity; a top-level probe's value is returned for the
   `expect_serialized_eq` checks that name it.
3. With `lift_constants`, every top-level `stablehlo.constant` left becomes an argument that
   the host passes at run time, so IREE cannot fold the test at compile time (constants that
   an op needs to know statically, like a dynamic op's shape operand or a custom call's
   integer flags and descriptors, stay).
4. Values whose element type the runtime cannot exchange travel in a carrier type
   (`conformance_values.CARRIERS`), converted at the function's edge.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
from iree.compiler import ir

from shlo.dialect.types import element_dtype

from .conformance_checks import CHECK_OPS, CUSTOM_CALL_CHECKS, CheckKind
from .conformance_ir import (arguments, function_type, functions, is_public, kind, line_of,
                             name_of, run_passes, walk, walk_all)
from .conformance_parallel import (ParallelRun, communicates, emulate_parallel, host_parallel,
                                   program_names)
from .conformance_syntax import DIALECT
from .conformance_values import (ConformanceError, carrier_of, decode_dense,
                                 parse_tensor_type, split_typed_attr)

# Operands an op must know at compile time (shapes of dynamic ops): their constants stay.
STATIC_OPERANDS: dict[str, tuple[int, ...]] = {
    "stablehlo.dynamic_broadcast_in_dim": (1,),
    "stablehlo.dynamic_iota": (0,),
    "stablehlo.dynamic_pad": (2, 3, 4),
    "stablehlo.dynamic_reshape": (1,),
    "stablehlo.dynamic_conv": (2,),
    "stablehlo.dynamic_gather": (2,),
    "stablehlo.real_dynamic_slice": (1, 2, 3),
    "stablehlo.rng": (2,),
}


@dataclasses.dataclass(frozen=True)
class Options:
    lift_constants: bool = True     # constants -> runtime arguments (IREE targets)
    emulate_parallel: bool = True   # run_parallel -> calls (targets without the interpreter)
    carriers: bool = True           # non-exchangeable element types travel in carriers
    split_complex: bool = False     # complex results as (real, imag): the reference's output


@dataclasses.dataclass
class Edge:
    """One argument or result of an instrumented function, as the host sees it."""
    element: str                    # MLIR element type of the value
    dtype: np.dtype                 # its host dtype
    carrier: str | None = None      # the element type it travels in, if not its own
    value: np.ndarray | None = None            # an argument's host value
    parts: int = 1                  # 2 when a complex result travels as (real, imag)


@dataclasses.dataclass
class Check:
    """One check of a test function: which results it compares, and how."""
    kind: CheckKind
    op: str                          # name as written in the file (for messages)
    line: int
    actual: int                      # result index
    expected: int | np.ndarray       # result index, or the host value
    attrs: dict
    unsupported: str = ""            # why this check cannot be evaluated on a device


@dataclasses.dataclass
class TestFunction:
    name: str                        # as written in the file
    symbol: str                      # name in the instrumented module
    chunk: int
    line: int
    args: list[Edge] = dataclasses.field(default_factory=list)
    results: list[Edge] = dataclasses.field(default_factory=list)
    checks: list[Check] = dataclasses.field(default_factory=list)
    skipped: str = ""                # reason the function is not run at all
    unsupported: str = ""            # reason it fails without running ("cause: detail")
    processes: int = 1               # the most processes one of its run_parallel ops starts
    parallel: ParallelRun | None = None     # programs that communicate: run on the host
    probes: list[tuple[str, int]] = dataclasses.field(default_factory=list)  # (id, iteration)


def instrument(module: ir.Module, chunk: int, options: Options) -> list[TestFunction]:
    """Instrument the chunk's test functions in place; returns them (see the module doc)."""
    with module.context, ir.Location.unknown():
        funcs = {name_of(f): f for f in functions(module)}
        tests = []
        for name in select_tests(module):
            f = funcs[name]
            test = TestFunction(name, name, chunk, line_of(f))
            tests.append(test)
            if arguments(f):
                test.skipped = (f"takes {len(arguments(f))} argument(s); the file's RUN line "
                                "passes them with --args")
        for name, f in funcs.items():
            if name not in {t.name for t in tests if not t.skipped}:
                f.attributes["sym_visibility"] = ir.StringAttr.get("private")
        for op in walk_all(module):
            if kind(op) == f"{DIALECT}.print":
                op.erase()
        for test in tests:
            if test.skipped:
                continue
            f = funcs[test.name]
            test.processes = max([1] + [len(program_names(op)) for op in walk(f)
                                        if kind(op) == "interpreter.run_parallel"])
            if options.emulate_parallel and communicates(module, f):
                test.parallel, test.unsupported = host_parallel(module, f, host_constant)
                if test.parallel is not None:
                    _instrument_parallel(f, test)
            elif options.emulate_parallel:
                test.unsupported = emulate_parallel(module, f)
        if options.emulate_parallel:
            run_passes(module, "builtin.module(inline{default-pipeline=}, symbol-dce)")  # no folding
            funcs = {name_of(f): f for f in functions(module)}
        for test in tests:
            if not test.skipped and not test.unsupported and not test.parallel:
                _instrument_function(funcs[test.name], test, options)
            if (test.unsupported or test.parallel) and test.name in funcs:
                funcs[test.name].erase()          # it does not run: nothing to compile
        run_passes(module, "builtin.module(symbol-dce)")
        return tests


def select_tests(module: ir.Module) -> list[str]:
    """`main` if the chunk has one (as stablehlo-translate --interpret runs), else every
    public function with no arguments that no other op references."""
    funcs = functions(module)
    names = [name_of(f) for f in funcs]
    if "main" in names:
        return ["main"]
    text = str(module)
    uses = {n: len(re.findall(rf"@{re.escape(n)}\b(?![\w.$-])", text)) for n in names}
    return [name_of(f) for f in funcs if uses[name_of(f)] == 1 and not arguments(f)
            and is_public(f)]


def rename_functions(module: ir.Module, prefix: str) -> None:
    """Prefix every function symbol (and every reference to it), so chunks can share a module."""
    with module.context:
        for f in functions(module):
            old = name_of(f)
            ir.SymbolTable.set_symbol_name(f, prefix + old)
            ir.SymbolTable.replace_all_symbol_uses(old, prefix + old, module.operation)


def _instrument_function(f, test: TestFunction, options: Options) -> None:
    block = f.regions[0].blocks[0]
    returned: list[ir.Value] = []

    def result_index(value) -> int:
        for i, v in enumerate(returned):
            if v == value:
                return i
        returned.append(value)
        return len(returned) - 1

    probes, nested_probes = {}, set()
    for op in [o for o in walk(f) if kind(o) == f"{DIALECT}.probe"]:
        probe_id = ir.StringAttr(op.attributes["probe_id"]).value
        if kind(op.parent) == "func.func":
            probes[probe_id] = op.operands[0]
        else:                   # inside a loop: each value goes to the host's outfeed
            nested_probes.add(probe_id)
            _outfeed(op.operands[0], probe_id, op)
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()
    check_ops = [(op, found) for op in walk(f) if (found := _check_of(op)) is not None]
    for op, (check_kind, written) in check_ops:
        if kind(op.parent) != "func.func":
            test.unsupported = f"unsupported: {written} inside a region at line {line_of(op)}"
            return
        if op.operands and all(str(v.type) == "!stablehlo.token" for v in op.operands):
            _erase_check(op)                  # tokens carry no value: they are always equal
            continue
        attrs = _scalar_attrs(op)
        check = Check(check_kind, written, line_of(op), 0, 0, attrs)
        if check_kind.name == "check.expect_serialized_eq":
            probe_id, iteration = attrs.get("probe_id", ""), int(attrs.get("iter", 0))
            expected = op.operands[0]
            if probe_id in nested_probes:
                check.actual = -1 - len(test.probes)    # (fixed below: after the results)
                test.probes.append((probe_id, iteration))
            elif probe_id not in probes:
                check.unsupported = f"unsupported: probe '{probe_id}' runs nowhere"
            elif iteration != 0:
                check.unsupported = (f"unsupported: probe '{probe_id}' runs once, the check "
                                     f"reads iteration {iteration}")
            else:
                check.actual = result_index(probes[probe_id])
        else:
            if len(op.operands) != 2:
                raise ConformanceError(f"line {check.line}: {written} takes 2 operands, got "
                                       f"{len(op.operands)}")
            check.actual = result_index(op.operands[0])
            expected = op.operands[1]
        host = host_constant(expected)
        check.expected = host if host is not None else result_index(expected)
        test.checks.append(check)
        _erase_check(op)
    old_return = block.operations[len(block.operations) - 1]
    if not check_ops:                  # nothing to check: still compute what it returns
        returned = list(old_return.operands) + returned
    test.results = _set_results(f, block, old_return, returned, options)
    for check in test.checks:
        if check.actual < 0:                  # a nested probe's value follows the results
            check.actual = len(test.results) - 1 - check.actual
    _erase_dead_constants(block)       # expected values now live on the host only
    if options.lift_constants:
        test.args = _lift_constants(f, block, options)


def _erase_check(op) -> None:
    """Erase a check. The custom_call form returns an i1 tensor (testdata returns it from
    `@main`); its uses read `true` instead, for the host judges the check. Erasing an op
    whose result is still used would leave dangling uses: heap corruption, not an error."""
    for result in op.results:
        if not list(result.uses):
            continue
        shaped = result.type.maybe_downcast()
        if not isinstance(shaped, ir.RankedTensorType) or str(shaped.element_type) != "i1":
            raise ConformanceError(f"line {line_of(op)}: a check's result of type "
                                   f"{result.type} is used; only i1 tensors can be")
        true = ir.DenseElementsAttr.get_splat(
            shaped, ir.IntegerAttr.get(shaped.element_type, 1))
        constant = ir.Operation.create("stablehlo.constant", results=[shaped],
                                       attributes={"value": true}, ip=ir.InsertionPoint(op),
                                       loc=op.location)
        result.replace_all_uses_with(constant.results[0])
    op.erase()


def _instrument_parallel(f, test: TestFunction) -> None:
    """The checks of a test run by `host_parallel`: each compares a result of its
    run_parallel with a constant."""
    for op, (check_kind, written) in [(o, found) for o in walk(f)
                                      if (found := _check_of(o)) is not None]:
        actual = op.operands[0]
        expected = host_constant(op.operands[1]) if len(op.operands) == 2 else None
        owner = actual.owner
        if expected is None or not isinstance(owner, (ir.Operation, ir.OpView)) or \
                kind(owner) != "interpreter.run_parallel":
            test.parallel = None
            test.unsupported = (f"unsupported: {written} at line {line_of(op)} does not "
                                "compare a run_parallel result with a constant")
            return
        test.checks.append(Check(check_kind, written, line_of(op), ir.OpResult(actual)
                                 .result_number, expected, _scalar_attrs(op)))


def _outfeed(value: ir.Value, probe_id: str, at) -> None:
    """Send `value` to the host's outfeed, tagged with the probe's id (before `at`)."""
    ip, loc = ir.InsertionPoint(at), at.location
    token_type = ir.Type.parse("!stablehlo.token")
    token = ir.Operation.create("stablehlo.after_all", results=[token_type], operands=[],
                                ip=ip, loc=loc)
    ir.Operation.create("stablehlo.outfeed", results=[token_type],
                        operands=[value, token.results[0]],
                        attributes={"outfeed_config": ir.StringAttr.get(probe_id)},
                        ip=ip, loc=loc)


def _check_of(op) -> tuple[CheckKind, str] | None:
    """(how it compares, its name as written) when `op` is a check, else None."""
    name = kind(op)
    if name.startswith(DIALECT + "."):
        written = "check." + name[len(DIALECT) + 1:]
        check = CHECK_OPS.get(written)
        return (check, written) if check else None
    if name == "stablehlo.custom_call":
        target = ir.StringAttr(op.attributes["call_target_name"]).value
        check = CUSTOM_CALL_CHECKS.get(target)
        return (check, f"custom_call @{target}") if check else None
    return None


def _scalar_attrs(op) -> dict:
    """The check's scalar attributes (tolerance, ULP bounds, probe id) as Python values."""
    out = {}
    for name in ("tolerance", "min_ulp_difference", "max_ulp_difference", "probe_id", "iter"):
        if name in op.attributes:
            attr = op.attributes[name]
            out[name] = attr.value if hasattr(attr, "value") else str(attr)
    return out


def host_constant(value: ir.Value) -> np.ndarray | None:
    """The host array of a value a `stablehlo.constant` defines, else None."""
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or kind(owner) != "stablehlo.constant":
        return None
    literal, type_ = constant_literal(owner)
    return decode_dense(literal, type_, _dtype(value.type))


def constant_literal(op) -> tuple[str, str]:
    """(`dense<...>`, `tensor<...>`) of a stablehlo.constant, read from its text."""
    text = op.operation.get_asm(assume_verified=True)
    return split_typed_attr(text.split("stablehlo.constant", 1)[1].strip())


def _erase_dead_constants(block) -> None:
    for op in list(block.operations):
        if kind(op) == "stablehlo.constant" and not list(op.results[0].uses):
            op.erase()


def _lift_constants(f, block, options: Options) -> list[Edge]:
    """Top-level constants -> new block arguments; returns the host side of each."""
    edges, inputs = [], []
    for op in list(block.operations):
        if kind(op) != "stablehlo.constant" or _feeds_static_operand(op.results[0]):
            continue
        value = op.results[0]
        element = str(ir.RankedTensorType(value.type).element_type)
        edge = Edge(element, _dtype(value.type), value=host_constant(value))
        carrier = carrier_of(element) if options.carriers else None
        arg_type = value.type
        if carrier:
            edge.carrier = carrier
            arg_type = _with_element(value.type, carrier)
        arg = block.add_argument(arg_type, op.location)
        replacement = arg
        if carrier:
            first = block.operations[0]
            replacement = _convert(arg, value.type, ir.InsertionPoint(first),
                                 op.location)
        value.replace_all_uses_with(replacement)
        op.erase()
        edges.append(edge)
        inputs.append(arg_type)
    if edges:
        old = function_type(f)
        f.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(list(old.inputs) + inputs, list(old.results)))
    return edges


def _feeds_static_operand(value: ir.Value) -> bool:
    for use in value.uses:
        owner = use.owner
        if use.operand_number in STATIC_OPERANDS.get(kind(owner), ()):
            return True
        if kind(owner) == "stablehlo.custom_call" and isinstance(
                ir.RankedTensorType(value.type).element_type, ir.IntegerType):
            return True          # a call's sizes, flags and descriptors (jaxlib's old calls)
    return False


def _set_results(f, block, old_return, values: list, options: Options) -> list[Edge]:
    """Return `values` (through carriers / complex parts) instead of the old results."""
    ip = ir.InsertionPoint(old_return)
    edges, outputs = [], []
    for value in values:
        element = str(ir.RankedTensorType(value.type).element_type)
        edge = Edge(element, _dtype(value.type))
        if options.split_complex and element.startswith("complex<"):
            part = _with_element(value.type, element[len("complex<"):-1])
            for name in ("stablehlo.real", "stablehlo.imag"):
                outputs.append(ir.Operation.create(name, results=[part], operands=[value],
                                                   ip=ip).results[0])
            edge.parts = 2
        elif options.carriers and (carrier := carrier_of(element)):
            edge.carrier = carrier
            carrier_type = _with_element(value.type, carrier)
            outputs.append(_convert(value, carrier_type, ip, old_return.location))
        else:
            outputs.append(value)
        edges.append(edge)
    ir.Operation.create("func.return", operands=outputs, ip=ip, loc=old_return.location)
    old_return.erase()
    inputs = [a.type for a in block.arguments]
    f.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get(inputs, [v.type for v in outputs]))
    for name in ("res_attrs", "arg_attrs"):
        if name in f.attributes:
            del f.attributes[name]
    return edges


def host_results(test: TestFunction, raw: list) -> list[np.ndarray]:
    """Device results -> one host array per result edge, in the values' own dtypes."""
    out, i = [], 0
    for edge in test.results:
        if edge.parts == 2:
            value = np.zeros(np.shape(raw[i]), np.complex128)   # (inf, inf) must not mix
            value.real, value.imag = raw[i], raw[i + 1]
            out.append(value.astype(edge.dtype))
        else:                   # exact: a carrier holds every value of its element type
            out.append(np.asarray(raw[i]).astype(edge.dtype, copy=False))
        i += edge.parts
    if i != len(raw):
        raise ConformanceError(f"expected {i} results, got {len(raw)}")
    return out


def _convert(value, to_type, ip, loc):
    return ir.Operation.create("stablehlo.convert", results=[to_type], operands=[value], ip=ip,
                               loc=loc).results[0]


def _with_element(t: ir.Type, element: str) -> ir.Type:
    rt = ir.RankedTensorType(t)
    return ir.RankedTensorType.get(list(rt.shape), ir.Type.parse(element))


def _dtype(t: ir.Type) -> np.dtype:
    try:
        return element_dtype(t)
    except Exception:
        raise ConformanceError(f"no host dtype for {t}") from None


def tensor_dtype(type_text: str, context: ir.Context) -> np.dtype:
    """The host dtype of a `tensor<...>` written as text."""
    _, element = parse_tensor_type(type_text)
    return _dtype(ir.Type.parse(element, context))
