"""`shlo.jax.jit`: jax.jit's calling convention, compiled and run by shlo.

jax traces and lowers the function to StableHLO (`jax.jit(f).lower`), shlo compiles
that with its default pipeline for any target, and the compiled function is kept per
call signature: the pytree structure of the dynamic arguments, each leaf's shape,
dtype and weak type, the static arguments' values, and jax_enable_x64. Arguments are
pytrees of numpy arrays, jax arrays, numpy or Python scalars; results are numpy arrays
(ml_dtypes for bf16) in the pytree jax's lowering reports. jax is imported on first
use; it is an optional dependency (`pip install shlo[jax]`). See docs/jax.md.
"""
from __future__ import annotations

import functools
import inspect
import threading

import numpy as np

from ..errors import DeviceError, Error, InvocationError

__all__ = ["jit", "JitFunction", "Compiled", "LoweringError", "JaxMissingError"]

# custom_call targets through which jax calls back into Python (debug.print, callbacks)
_CALLBACKS = ("xla_python_cpu_callback", "xla_ffi_python_cpu_callback",
              "xla_python_gpu_callback", "xla_ffi_python_gpu_callback")


class LoweringError(Error):
    """jax could not trace or lower the function, or lowered it to what shlo cannot run."""


class JaxMissingError(Error, ImportError):
    """`shlo.jax` was used where jax is not installed."""


def _jax():
    try:
        import jax
    except ImportError as e:
        raise JaxMissingError(f"shlo.jax needs jax, which is not installed here ({e}): "
                              "pip install jax (or pip install 'shlo[jax]')") from None
    return jax


def jit(fun=None, target="cpu", *, static_argnums=None, static_argnames=None,
        donate_argnums=None, donate_argnames=None, **options):
    """Like `jax.jit`, compiled by shlo for `target` ("cpu", "vulkan", "cuda:sm_80", a
    `Target`). `options` go to `shlo.compile` (flags, demote_f64, fast_math, isolate, ...).
    Usable as a decorator, with or without arguments."""
    if fun is None:
        return functools.partial(jit, target=target, static_argnums=static_argnums,
                                 static_argnames=static_argnames, donate_argnums=donate_argnums,
                                 donate_argnames=donate_argnames, **options)
    return JitFunction(fun, target, static_argnums=static_argnums,
                       static_argnames=static_argnames, donate_argnums=donate_argnums,
                       donate_argnames=donate_argnames, **options)


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, (int, str)) else tuple(x)


def _static_args(signature, argnums, argnames) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Static positions and names, each inferred from the other as jax.jit does."""
    argnums, argnames = _as_tuple(argnums), _as_tuple(argnames)
    if signature is None:
        return argnums, argnames
    named = [(i, p.name) for i, p in enumerate(signature.parameters.values())
             if p.kind == p.POSITIONAL_OR_KEYWORD]
    if argnames and not argnums:
        argnums = tuple(i for i, name in named if name in argnames)
    elif argnums and not argnames:
        argnames = tuple(name for i, name in named if i in argnums)
    return argnums, argnames


def _function_name(fun) -> str:
    while isinstance(fun, functools.partial):
        fun = fun.func
    return getattr(fun, "__name__", None) or type(fun).__name__


# (numpy dtype, jax_enable_x64) -> the dtype jax computes it in (float64 -> float32 without x64)
_CANONICAL: dict[tuple, object] = {}


def _spec_text(spec: tuple) -> str:
    """`float32[4,3]`, `~float32[]` when weakly typed (jax's notation)."""
    shape, dtype, weak = spec
    return f"{'~' if weak else ''}{getattr(dtype, 'name', dtype)}[{','.join(map(str, shape))}]"


def _is_key(dtype) -> bool:
    """A typed PRNG key's dtype (jax.random.key's key<fry>): jax lowers its data, uint32."""
    if dtype is None or isinstance(dtype, np.dtype):
        return False                # (every numpy leaf of every call: no import)
    from jax import dtypes
    return dtypes.issubdtype(dtype, dtypes.prng_key)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


class _Call:
    """One call's arguments split as the compiled function sees them."""

    def __init__(self, owner: "JitFunction", args: tuple, kwargs: dict):
        jax = owner._jax
        self.owner, self.args, self.kwargs = owner, args, kwargs
        count = len(args)
        static = {i % count for i in owner._static_argnums if -count <= i < count}
        self.positions = [i for i in range(count) if i not in static]
        statics = tuple((i, type(args[i]), args[i]) for i in sorted(static)) + tuple(
            (k, type(kwargs[k]), kwargs[k]) for k in sorted(kwargs) if k in owner._static_argnames)
        self.dynamic = (tuple(args[i] for i in self.positions),
                        {k: v for k, v in kwargs.items() if k not in owner._static_argnames})
        self.leaves, self.treedef = jax.tree_util.tree_flatten(self.dynamic)
        x64 = bool(jax.config.jax_enable_x64)
        self.specs = tuple(self._spec(index, leaf, x64) for index, leaf in enumerate(self.leaves))
        self.key = (self.treedef, self.specs, statics, x64)
        try:
            hash(self.key)
        except TypeError:
            raise InvocationError(owner._named(self._unhashable(statics))) from None

    def _spec(self, index: int, leaf, x64: bool) -> tuple:
        """(shape, dtype, weak type) of a leaf as jax.typeof gives them; a numpy array's
        from its shape and dtype (4x faster: its dtype's canonical form is cached)."""
        if type(leaf) is np.ndarray:
            dtype = _CANONICAL.get((leaf.dtype, x64))
            if dtype is not None:
                return leaf.shape, dtype, False
        elif isinstance(leaf, self.owner._tracer):
            raise InvocationError(self.owner._named(
                f"argument {self.leaf_name(index)!r} is a jax tracer: a shlo.jax.jit "
                "function runs outside jax's transformations (jit, grad, vmap); "
                "transform the Python function, then shlo.jax.jit it"))
        try:
            aval = self.owner._jax.typeof(leaf)
        except (TypeError, OverflowError, ValueError) as e:
            raise InvocationError(self.owner._named(
                f"argument {self.leaf_name(index)!r} is not an array jax accepts: "
                f"{_first_line(e)}")) from None
        if type(leaf) is np.ndarray:
            _CANONICAL[leaf.dtype, x64] = aval.dtype
        return aval.shape, aval.dtype, aval.weak_type

    def _unhashable(self, statics) -> str:
        for name, kind, value in statics:
            try:
                hash(value)
            except TypeError:
                where = f"{self.owner._parameter(name)!r} (position {name})" \
                    if isinstance(name, int) else repr(name)
                return (f"static argument {where} is unhashable ({kind.__name__}): static "
                        "arguments must be hashable (e.g. a tuple instead of a list)")
        return f"an argument's pytree structure is unhashable: {self.treedef}"

    def leaf_name(self, index: int) -> str:
        """`params['w']`: the parameter and path of dynamic leaf `index`."""
        jax = self.owner._jax
        path = jax.tree_util.tree_flatten_with_path(self.dynamic)[0][index][0]
        (group, top), rest = path[:2], path[2:]
        if group.idx == 0:
            root = self.owner._parameter(self.positions[top.idx])
        else:
            root = str(top.key)
        return root + jax.tree_util.keystr(tuple(rest))

    def arrays(self) -> list[np.ndarray]:
        """The leaves as numpy arrays of the lowered dtypes (jax's canonical ones: f32 for
        a float64 leaf when jax_enable_x64 is off; a typed PRNG key's data, as jax lowers
        it)."""
        out = []
        for index, (leaf, (_, dtype, _)) in enumerate(zip(self.leaves, self.specs)):
            try:
                if _is_key(dtype):
                    out.append(np.asarray(self.owner._jax.random.key_data(leaf)))
                    continue
                array = np.asarray(leaf)
            except Exception as e:
                raise InvocationError(self.owner._named(
                    f"argument {self.leaf_name(index)!r} cannot be read on the host: "
                    f"{_first_line(e)}")) from None
            out.append(array if array.dtype == dtype else array.astype(dtype))
        return out


class Compiled:
    """A `JitFunction` compiled for one call signature: call it with arguments of that
    signature. `executable` is the shlo `Executable` (flat numpy arrays in and out),
    `text` the StableHLO jax lowered."""

    def __init__(self, owner: "JitFunction", call: _Call, text: str, executable, out_tree,
                 out_dtypes=()):
        self._owner, self._key = owner, call.key
        self._treedef, self._specs = call.treedef, call.specs
        self.text, self.executable, self.out_tree = text, executable, out_tree
        # per result leaf, a typed PRNG key's dtype (its data comes back), else None
        self._out_keys = [d if _is_key(d) else None for d in out_dtypes]

    def __call__(self, *args, **kwargs):
        call = _Call(self._owner, args, kwargs)
        if call.key != self._key:
            raise InvocationError(self._owner._named(self._mismatch(call)))
        return self._run(call)

    def _mismatch(self, call: _Call) -> str:
        if call.treedef != self._treedef:
            return (f"compiled for arguments of structure {self._treedef}, "
                    f"got {call.treedef}")
        for index, (want, got) in enumerate(zip(self._specs, call.specs)):
            if want != got:
                return (f"argument {call.leaf_name(index)!r} is {_spec_text(got)}, "
                        f"compiled for {_spec_text(want)}")
        return "compiled for other static arguments (or jax_enable_x64)"

    def _run(self, call: _Call):
        arrays = call.arrays()
        try:
            results = self.executable(*arrays)
        except Error as e:
            raise self._owner._renamed(e) from None
        if self.out_tree.num_leaves == 1:
            results = (results,)
        if any(self._out_keys):
            wrap = self._owner._jax.random.wrap_key_data
            results = [r if key is None else wrap(np.array(r), impl=key._impl)   # (a copy:
                       for r, key in zip(results, self._out_keys)]   # jax keeps what it wraps)
        return self.out_tree.unflatten(list(results))


class JitFunction:
    """The result of `shlo.jax.jit(f)`: call it as `f` is called. `lower(*args)` gives the
    StableHLO text, `compile(*args)` the `Compiled` function; compiled functions are kept
    per call signature (`cache_size()`)."""

    def __init__(self, fun, target="cpu", *, static_argnums=None, static_argnames=None,
                 donate_argnums=None, donate_argnames=None, **options):
        jax = self._jax = _jax()
        self._tracer = jax.core.Tracer
        if not callable(fun):
            raise InvocationError(f"shlo.jax.jit: expected a function, got "
                                  f"{type(fun).__name__}")
        self.fun, self.target, self.options = fun, target, options
        self.name = _function_name(fun)
        from ..pipelines.targets import get_target
        try:
            self._target = get_target(target, options.get("flags", ()))
        except Error as e:
            raise self._renamed(e) from None
        # Donation is accepted and not passed on: shlo returns new arrays and never writes
        # into its arguments (docs/jax.md).
        self.donate_argnums, self.donate_argnames = donate_argnums, donate_argnames
        try:
            self._jitted = jax.jit(fun, static_argnums=static_argnums,
                                   static_argnames=static_argnames, keep_unused=True)
        except (TypeError, ValueError) as e:
            raise InvocationError(self._named(_first_line(e))) from e
        self._signature: inspect.Signature | None
        try:
            self._signature = inspect.signature(fun)
        except (TypeError, ValueError):
            self._signature = None
        self._static_argnums, self._static_argnames = _static_args(
            self._signature, static_argnums, static_argnames)
        self._cache: dict[tuple, Compiled] = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, fun, updated=())

    def __call__(self, *args, **kwargs):
        call = _Call(self, args, kwargs)
        compiled = self._cache.get(call.key)
        if compiled is None:
            compiled = self._compile(call, check_device=True)
        return compiled._run(call)

    def __get__(self, instance, owner=None):
        """As a method, the instance is the first argument (as with jax.jit)."""
        return self if instance is None else functools.partial(self, instance)

    def lower(self, *args, debug_info: bool = False, **kwargs) -> str:
        """The StableHLO text jax lowers `f` to for these arguments (`debug_info`: with the
        Python source locations, as shlo compiles it)."""
        return self._lower(_Call(self, args, kwargs), debug_info)[0]

    def compile(self, *args, **kwargs) -> Compiled:
        """The compiled function for these arguments' signature (compiled now if new)."""
        call = _Call(self, args, kwargs)
        return self._cache.get(call.key) or self._compile(call, check_device=False)

    def cache_size(self) -> int:
        """How many call signatures have been compiled."""
        return len(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()

    # ---- internals ----------------------------------------------------------------------
    def _named(self, message: str) -> str:
        return f"shlo.jax.jit({self.name}): {message}"

    def _renamed(self, e: Error) -> Error:
        """`e` with the function's name in front of its message (same class and fields)."""
        e.message = self._named(e.message)
        e.args = (self._named(str(e)),)
        return e

    def _parameter(self, position: int) -> str:
        """The name of positional parameter `position` (`args[i]` past the named ones)."""
        if self._signature is not None:
            params = [p for p in self._signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if position < len(params):
                return params[position].name
        return f"args[{position}]"

    def _lower(self, call: _Call, debug_info: bool = True):
        """(StableHLO text, output pytree, output leaves' dtypes) for a call, or a one-line
        LoweringError. With
        `debug_info` the ops carry their Python source locations, which shlo's errors name."""
        for index, (_, dtype, _) in enumerate(call.specs):
            if not isinstance(dtype, np.dtype) and not _is_key(dtype):
                raise LoweringError(self._named(
                    f"argument {call.leaf_name(index)!r} has dtype {dtype}, which has no "
                    "numpy form"))
        try:
            lowered = self._jitted.lower(*call.args, **call.kwargs)
        except Error:
            raise
        except Exception as e:
            specs = ", ".join(map(_spec_text, call.specs))
            raise LoweringError(self._named(
                f"jax could not lower it for arguments ({specs}): {_first_line(e)}")) from e
        if lowered.in_tree != call.treedef:     # keep_unused=True: one module input per leaf
            raise LoweringError(self._named(
                f"jax lowered arguments of structure {lowered.in_tree}, expected "
                f"{call.treedef}"))
        compile_args = getattr(getattr(lowered, "_lowering", None), "compile_args", {})
        text = lowered.as_text(debug_info=debug_info)
        ordered = compile_args.get("ordered_effects") or ("!stablehlo.token" in text
                                                          and "jax.token" in text)
        if ordered:
            names = ", ".join(type(e).__name__ for e in ordered) \
                if isinstance(ordered, (list, tuple)) else "tokens"
            raise LoweringError(self._named(
                f"the program has ordered effects ({names}): shlo cannot run them (use "
                "unordered ones, or none)"))
        if compile_args.get("host_callbacks") or any(f"@{c}(" in text for c in _CALLBACKS):
            raise LoweringError(self._named(
                "the program calls back into Python (jax.debug.print, jax.debug.callback, "
                "jax.pure_callback or io_callback), which a shlo executable cannot do"))
        out_dtypes = [getattr(o, "dtype", None) for o in
                      self._jax.tree.leaves(getattr(lowered, "out_info", ()))]
        return text, lowered.out_tree, out_dtypes

    def _compile(self, call: _Call, *, check_device: bool) -> Compiled:
        from .compiler import compile as shlo_compile
        from .devices import driver_available

        with self._lock:
            compiled = self._cache.get(call.key)
            if compiled is not None:
                return compiled
            target = self._target
            if check_device:
                ok, why = driver_available(target.driver)
                if not ok:
                    raise DeviceError(self._named(
                        f"target '{target.name}' runs on the '{target.driver}' driver, which "
                        f"is not usable here: {why}"))
            text, out_tree, out_dtypes = self._lower(call)
            try:
                executable = shlo_compile(text, self.target, **self.options)
            except Error as e:
                raise self._renamed(e) from None
            compiled = self._cache[call.key] = Compiled(self, call, text, executable, out_tree,
                                                        out_dtypes)
            return compiled
