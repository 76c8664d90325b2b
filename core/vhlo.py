"""VHLO (StableHLO's portable artifacts) to StableHLO, for modules that parse as VHLO.

A portable artifact (`stablehlo-translate --serialize`, jax's serialized exports, StableHLO's
`.bc` test files) parses in IREE's context as VHLO ops, which IREE converts when it compiles
but shlo's passes do not read, and the IREE wheel exposes no VHLO pass to call. This module
converts the module's generic text instead: VHLO types and attributes to their StableHLO and
builtin forms, `vhlo.<op>_vN` ops to `stablehlo.<op>` (`func.func`, `func.call`,
`func.return` for the function ops), and the attributes VHLO spreads over fields back into
StableHLO's structured ones (gather, scatter, dot and convolution dimension numbers, channel
handles, symbol references), and VHLO's 1-D tensors to StableHLO's array attributes
(legacy_arrays). The text then parses as StableHLO. A construct it does not know raises `VhloError`, and the module stays VHLO.
"""
from __future__ import annotations

import re

from .errors import ParseError
from .legacy_arrays import upgrade_arrays


class VhloError(ParseError):
    """A VHLO construct the conversion does not know."""


_ENUMS = {"comparison_direction", "comparison_type", "precision", "fft_type", "rng_algorithm",
          "rng_distribution", "transpose"}
_API_VERSIONS = {"API_VERSION_UNSPECIFIED": 0, "API_VERSION_ORIGINAL": 1,
                 "API_VERSION_STATUS_RETURNING": 2, "API_VERSION_STATUS_RETURNING_UNIFIED": 3,
                 "API_VERSION_TYPED_FFI": 4}
_ELEMENT = re.compile(r"(?:ui|si|i|f|bf|tf)\d+|f\d+E\d+M\d+\w*")
_NAME = re.compile(r"[!#]vhlo\.(\w+)")
_OP = re.compile(r'^(\s*(?:%[^"=]+=\s*)?)"vhlo\.(\w+?)_v\d+"(.*)$')
_VERSION = re.compile(r"_v\d+$")
_OPENS = "([{<"
_CLOSES = {")": "(", "]": "[", "}": "{", ">": "<"}


def is_vhlo(module) -> bool:
    """Whether the module's top-level ops are VHLO's."""
    op = module.operation
    return any(o.operation.name.startswith("vhlo.") for o in op.regions[0].blocks[0].operations)


def to_stablehlo_text(generic_text: str) -> str:
    """The StableHLO text of a VHLO module printed in generic form."""
    lines: list[str] = []
    owners: list[str] = []
    for line in _convert(generic_text).split("\n"):
        stripped = line.strip()
        if stripped.startswith("})") and owners:
            owners.pop()
        m = _OP.match(line)
        if m:
            head, name, rest = m.groups()
            line = head + _op(name, rest, owners[-1] if owners else "")
            if line.rstrip().endswith("({"):
                owners.append(name)
        elif stripped.startswith('"') and stripped.endswith("({"):
            owners.append(stripped[1:stripped.index('"', 1)])
        lines.append(line)
    return upgrade_arrays("\n".join(lines))


# -- types and attributes -----------------------------------------------------------------

def _string_end(s: str, i: int) -> int:
    j = i + 1
    while s[j] != '"':
        j += 2 if s[j] == "\\" else 1
    return j


def _matching(s: str, i: int) -> int:
    """The index of the bracket closing the one at s[i] (`->` is no bracket)."""
    stack, j = [], i
    while j < len(s):
        c = s[j]
        if c == '"':
            j = _string_end(s, j)
        elif c in _OPENS:
            stack.append(c)
        elif c in _CLOSES and not (c == ">" and s[j - 1] == "-"):
            if not stack or stack.pop() != _CLOSES[c]:
                raise VhloError(f"VHLO text: unbalanced '{c}' at offset {j}")
            if not stack:
                return j
        j += 1
    raise VhloError(f"VHLO text: unclosed '{s[i]}' at offset {i}")


def _convert(s: str) -> str:
    """`s` with every VHLO type and attribute in its StableHLO or builtin form."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = _string_end(s, i)
            out.append(s[i:j + 1])
            i = j + 1
        elif s.startswith("#vhlo<", i):
            j = _matching(s, i + 5)
            out.append(_enum(s[i + 6:j]))
            i = j + 1
        elif s.startswith(("!vhlo.", "#vhlo."), i):
            m = _NAME.match(s, i)
            if m is None:
                raise VhloError(f"malformed VHLO name at {s[i:i + 40]!r}")
            body, i = None, m.end()
            if i < len(s) and s[i] == "<":
                j = _matching(s, i)
                body, i = _convert(s[i + 1:j]), j + 1
            out.append(_type(m.group(1), body) if c == "!" else _attribute(m.group(1), body))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _type(name: str, body: str | None) -> str:
    base = _VERSION.sub("", name)
    if base == "func" and body is not None:      # VHLO prints `(a) -> b, c` and `(()) -> b`
        inputs_end = _matching(body, body.index("("))
        inputs = body[:inputs_end + 1].strip()
        inputs = "()" if inputs.replace(" ", "") == "(())" else inputs
        results = body[inputs_end + 1:].strip()[2:].strip()
        return f"{inputs} -> {results}" if results.startswith("(") else \
            f"{inputs} -> ({results})"
    wrapped = {"tensor": "tensor<{}>", "unranked_tensor": "tensor<*x{}>",
               "complex": "complex<{}>", "tuple": "tuple<{}>"}
    if base in wrapped and body is not None:
        return wrapped[base].format(body)
    simple = {"bool": "i1", "token": "!stablehlo.token", "index": "index", "none": "none",
              "witness": "!shape.witness"}
    if base in simple:
        return simple[base]
    if _ELEMENT.fullmatch(base):
        return base
    raise VhloError(f"VHLO type !vhlo.{name} has no StableHLO conversion in shlo")


def _attribute(name: str, body: str | None) -> str:
    base = _VERSION.sub("", name)
    if base in ("tensor", "string", "integer", "float", "bool", "type", "array", "dict"):
        return body or ""
    structured = {"output_operand_alias": "output_operand_alias",
                  "channel_handle": "channel_handle", "result_accuracy": "result_accuracy"}
    if base not in structured and base != "type_extensions":
        raise VhloError(f"VHLO attribute #vhlo.{name} has no StableHLO conversion in shlo")
    if body is None:
        raise VhloError(f"VHLO attribute #vhlo.{name} needs a <...> body")
    if base in structured:                  # (VHLO spells the fields in camelCase)
        fields = re.sub(r"\b([a-z]+[A-Za-z]*)(?=\s*=)",
                        lambda m: re.sub(r"([a-z])([A-Z])", r"\1_\2", m.group(1)).lower(), body)
        return f"#stablehlo.{structured[base]}<{fields}>"
    return f"#stablehlo.bounds<{body.partition('=')[2].strip().strip('[]')}>"


def _enum(text: str) -> str:
    name, _, value = text.strip().partition(" ")
    base = _VERSION.sub("", name)
    if base in _ENUMS:
        return f"#stablehlo<{base} {value}>"
    if base == "api_version" and value in _API_VERSIONS:
        return f"{_API_VERSIONS[value]} : i32"
    if base == "result_accuracy_mode":
        return f"#stablehlo<result_accuracy_mode {value}>"
    raise VhloError(f"VHLO enum #vhlo<{text}> has no StableHLO conversion in shlo")


# -- ops ----------------------------------------------------------------------------------

def _op(name: str, rest: str, owner: str) -> str:
    """An op line's name and properties in StableHLO's form (`rest`: after the name)."""
    new = {"func": "func.func", "call": "func.call"}.get(name, f"stablehlo.{name}")
    if name == "return":
        new = "func.return" if owner == "func" else "stablehlo.return"
    start = rest.find("<{", _matching(rest, 0) if rest.startswith("(") else 0)
    if start < 0:
        return f'"{new}"{rest}'
    end = _matching(rest, start + 1)
    props = dict(_entries(rest[start + 2:end]))
    props = _PROPERTIES.get(name, lambda p: p)(props)
    props = {k: v for k, v in props.items() if v != "none"}
    text = ", ".join(f"{k} = {v}" if v is not None else k for k, v in props.items())
    return f'"{new}"{rest[:start]}<{{{text}}}>{rest[end + 2:]}' if props else \
        f'"{new}"{rest[:start].rstrip()}{rest[end + 2:]}'


def _entries(text: str) -> list[tuple[str, str]]:
    """`a = 1, b = [2, 3]` -> [(a, 1), (b, [2, 3])]."""
    parts, depth, last, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
        elif c in _OPENS:
            depth += 1
        elif c in _CLOSES and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[last:i])
            last = i + 1
        i += 1
    parts.append(text[last:])
    entries = []
    for part in (p.strip() for p in parts if p.strip()):
        key, _, value = part.partition("=")
        entries.append((key.strip(), value.strip()))
    return entries


def _ints(value: str) -> str:
    """`dense<[1, 2]> : tensor<2xi64>` (or a splat, or `3 : i64`) as `[1, 2]` / `3`."""
    m = re.fullmatch(r"dense<(.*)>\s*:\s*tensor<(?:(\d+)x)?\w+>", value.strip())
    if not m:
        return value.split(":")[0].strip()
    values, count = m.group(1).strip(), int(m.group(2) or 1)
    if not values.startswith("["):
        return "[" + ", ".join([values] * count) + "]" if values else "[]"
    return values


def _structured(props: dict, key: str, kind: str, fields: list[str], scalars=()) -> dict:
    items = []
    for field in fields:
        value = props.pop(field, None)
        if value is None:
            continue
        value = _ints(value)
        if value != "[]":
            items.append(f"{field} = {value}")
    for field in scalars:
        if field in props:
            items.append(f"{field} = {_ints(props.pop(field))}")
    return {key: f"#stablehlo.{kind}<{', '.join(items)}>", **props}


def _gather(props: dict) -> dict:
    return _structured(props, "dimension_numbers", "gather", [
        "offset_dims", "collapsed_slice_dims", "operand_batching_dims",
        "start_indices_batching_dims", "start_index_map"], ["index_vector_dim"])


def _scatter(props: dict) -> dict:
    return _structured(props, "scatter_dimension_numbers", "scatter", [
        "update_window_dims", "inserted_window_dims", "input_batching_dims",
        "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"], ["index_vector_dim"])


_ALGORITHM = ["lhs_precision_type", "rhs_precision_type", "accumulation_type",
              "lhs_component_count", "rhs_component_count", "num_primitive_operations",
              "allow_imprecise_accumulation"]


def _dot_general(props: dict) -> dict:
    algorithm = {f: props.pop(f) for f in _ALGORITHM if f in props}
    out = {}
    for k, v in props.items():
        if k not in ("lhs_batching_dimensions", "rhs_batching_dimensions",
                     "lhs_contracting_dimensions", "rhs_contracting_dimensions"):
            out[k] = v
    dims = ", ".join(f"{f} = {_ints(props[f])}" for f in (
        "lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
        "rhs_contracting_dimensions") if f in props and _ints(props[f]) != "[]")
    out = {"dot_dimension_numbers": f"#stablehlo.dot<{dims}>", **out}
    if any(v != "none" for v in algorithm.values()):
        out["algorithm"] = "#stablehlo.dot_algorithm<" + ", ".join(
            f"{k} = {_ints(v) if 'count' in k or 'operations' in k else v.split(':')[0].strip()}"
            for k, v in algorithm.items()) + ">"
    return out


_CONV = ["input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
         "kernel_input_feature_dimension", "kernel_output_feature_dimension",
         "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
         "output_spatial_dimensions"]


def _convolution(props: dict) -> dict:
    fields = ", ".join(f"{f} = {_ints(props.pop(f))}" for f in _CONV if f in props)
    return {"dimension_numbers": f"#stablehlo.conv<raw {fields}>", **props}


def _channel(props: dict) -> dict:
    channel = props.pop("channel_id", None)
    kind = props.pop("channel_type", None)
    if props.get("use_global_device_ids") is not None:
        if props.pop("use_global_device_ids").startswith("true"):
            props["use_global_device_ids"] = None           # a unit attribute
    if channel is not None and (_ints(channel) != "0" or kind is not None):
        handle = _ints(channel)
        props["channel_handle"] = (f"#stablehlo.channel_handle<handle = {handle}, type = "
                                   f"{_ints(kind) if kind is not None else 1}>")
    return props


def _symbol(value: str) -> str:
    name = value.strip().strip('"')
    return f"@{name}" if re.fullmatch(r"[A-Za-z_][\w.$-]*", name) else f'@"{name}"'


def _func(props: dict) -> dict:
    for key in ("arg_attrs", "res_attrs"):
        if props.get(key) in ("[]", None):
            props.pop(key, None)
    if props.get("sym_visibility") in ('""', None):
        props.pop("sym_visibility", None)
    return props


def _call(props: dict) -> dict:
    props["callee"] = _symbol(props["callee"])
    return props


def _custom_call(props: dict) -> dict:
    if "called_computations" in props:
        names = [p.strip() for p in props.pop("called_computations").strip()[1:-1].split(",")
                 if p.strip()]
        if names:
            props["called_computations"] = "[" + ", ".join(_symbol(n) for n in names) + "]"
    return props


def _composite(props: dict) -> dict:
    props["decomposition"] = _symbol(props["decomposition"])
    return props


def _without_default_accuracy(props: dict) -> dict:
    if "result_accuracy" in props and "DEFAULT" in props["result_accuracy"]:
        props.pop("result_accuracy")
    return props


_PROPERTIES = {
    "gather": _gather, "dynamic_gather": _gather, "scatter": _scatter,
    "dot_general": _dot_general, "convolution": _convolution, "dynamic_conv": _convolution,
    "all_reduce": _channel, "all_gather": _channel, "reduce_scatter": _channel,
    "all_to_all": _channel, "collective_permute": _channel, "collective_broadcast": _channel,
    "send": _channel, "recv": _channel, "func": _func, "call": _call,
    "custom_call": _custom_call, "composite": _composite,
    **{op: _without_default_accuracy for op in (
        "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "sine",
        "cosine", "tan", "tanh", "sqrt", "rsqrt", "cbrt")},
}
