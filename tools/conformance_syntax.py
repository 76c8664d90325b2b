"""Test-file text before parsing: `// -----` chunks, and test ops rewritten to generic form.

The StableHLO test files write `check.*` and `interpreter.probe/print` ops in their custom
syntax. IREE's context registers a different `check` dialect and no `interpreter` dialect,
so those ops cannot be parsed there as written. Each one is rewritten, in place and on the
same lines (diagnostics keep the file's line numbers), into the generic form of an op of
the unregistered `conformance` dialect, which carries the same operands and attributes:

    check.expect_almost_eq_const %0, dense<1.0> : tensor<f32> {tolerance = 0.1 : f64}
    %conformance_expected_7 = stablehlo.constant dense<1.0> : tensor<f32> "conformance.
        expect_almost_eq_const"(%0, %conformance_expected_7) {tolerance = 0.1 : f64} : ...

A `_const` check's expected attribute becomes a constant operand (named after its line), so
every check compares two SSA values.
"""
from __future__ import annotations

import dataclasses
import re

from shlo.dialect.types import split_top_level

from .conformance_values import ConformanceError, split_typed_attr
from .opt_split import split_input

DIALECT = "conformance"
_STATEMENT = re.compile(r"^(?P<indent>[ \t]*)(?P<results>%[\w#:]+\s*=\s*)?"
                        r"(?P<op>check\.\w+|interpreter\.(?:probe|print))\b(?P<rest>.*)$")


@dataclasses.dataclass(frozen=True)
class Chunk:
    """One `// -----` piece of a file: its index, first line, and text (padded to that line)."""
    index: int
    line: int
    text: str


def split_chunks(text: str) -> list[Chunk]:
    """The file's chunks, cut as MLIR's --split-input-file does; each text is padded so that
    MLIR's line numbers are the file's."""
    source = text.encode("utf-8")
    pieces, _ = split_input(source)
    return [Chunk(c.index, c.line, c.padded(source).decode("utf-8")) for c in pieces]


def rewrite_test_ops(text: str) -> str:
    """`text` with every check/interpreter test op in the generic form of `conformance.*`."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = _STATEMENT.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and (_depth("\n".join(lines[i:j + 1])) > 0
                                      or _strip_comment(lines[j]).rstrip().endswith(",")):
            j += 1
        statement = " ".join(_strip_comment(l).strip() for l in lines[i:j + 1])
        m = _STATEMENT.match(statement)
        assert m is not None, statement     # its first line matched
        generic = _generic(m.group("op"), m.group("rest").strip(), i + 1)
        out.append(m.group("indent") + (m.group("results") or "") + generic)
        out.extend([""] * (j - i))
        i = j + 1
    return "\n".join(out)


# The check ops' names before the `expect_` ones (StableHLO's tests of early 2023).
_OLD_NAMES = {"eq": "expect_eq_const", "almost_eq": "expect_almost_eq_const"}


def _generic(op: str, rest: str, line: int) -> str:
    name = op.split(".", 1)[1]
    if op.startswith("check.") and "dense<" in rest:
        name = _OLD_NAMES.get(name, name)
    try:
        if op.startswith("interpreter."):
            return _interpreter_op(name, rest)
        if name.endswith("_const"):
            return _const_check(name, rest, line)
        return _check(name, rest)
    except (ConformanceError, IndexError, ValueError):
        raise ConformanceError(f"line {line}: cannot read '{op} {rest}'") from None


def _const_check(name: str, rest: str, line: int) -> str:
    """`%lhs, dense<...> : T {attrs}`: the expected value becomes a constant op on the same line."""
    rest, extra = _pop_attr_dict(rest)
    lhs, attr = (s.strip() for s in rest.split(",", 1))
    literal, type_ = split_typed_attr(attr)
    expected = f"%{DIALECT}_expected_{line}"
    return (f"{expected} = stablehlo.constant {literal} : {type_} "
            + _format(name, [lhs, expected], extra, [type_, type_]))


def _check(name: str, rest: str) -> str:
    """`%a[, %b][, key = value]* {attrs} : T[, T]` -> operands plus attributes."""
    operands, attrs, types = _parts(rest)
    if len(types) == 1:
        types = types * len(operands)
    if len(types) != len(operands) or any("=" not in a for a in attrs):
        raise ConformanceError("operands, attributes and types do not line up")
    return _format(name, operands, attrs, types)


def _interpreter_op(name: str, rest: str) -> str:
    """`probe %x, probe_id = "id" : T` (result T) and `print %x : T` (no result)."""
    operands, attrs, types = _parts(rest)
    return _format(name, operands, attrs, types, types[0] if name == "probe" else "()")


def _parts(rest: str) -> tuple[list[str], list[str], list[str]]:
    """`%a, %b, key = value {k = v} : T, U` -> (operands, attributes, types)."""
    head, types = _split_last_colon(rest)
    head, extra = _pop_attr_dict(head)
    items = split_top_level(head)
    operands = [i for i in items if i.startswith("%")]
    return operands, [i for i in items if not i.startswith("%")] + extra, split_top_level(types)


def _format(name: str, operands, attrs, types, result: str = "()") -> str:
    attr_text = f" {{{', '.join(attrs)}}}" if attrs else ""
    return (f'"{DIALECT}.{name}"({", ".join(operands)}){attr_text} : '
            f'({", ".join(types)}) -> {result}')


def _split_last_colon(text: str) -> tuple[str, str]:
    parts = split_top_level(text, ":")
    if len(parts) < 2:
        raise ConformanceError("missing ': type'")
    return ":".join(parts[:-1]).strip(), parts[-1].strip()


def _pop_attr_dict(text: str) -> tuple[str, list[str]]:
    """Split a trailing `{a = 1, b = 2}` off `text`."""
    text = text.strip()
    if not text.endswith("}"):
        return text, []
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {"}": 1, "{": -1}.get(text[i], 0)
        if depth == 0:
            return text[:i].strip(), split_top_level(text[i + 1:-1])
    raise ConformanceError("unbalanced braces")


def _strip_comment(line: str) -> str:
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"' and line[i - 1:i] != "\\":
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
    return line


def _depth(text: str) -> int:
    """Bracket depth at the end of `text`, outside strings and comments."""
    depth = 0
    for line in text.split("\n"):
        line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', _strip_comment(line))
        for i, ch in enumerate(line):
            if ch in "([{<":
                depth += 1
            elif ch in ")]}" or (ch == ">" and line[i - 1:i] != "-"):
                depth -= 1
    return depth
