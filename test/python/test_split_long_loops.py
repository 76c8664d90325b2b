"""shlo-split-long-reduce{max-length=4096} (the Vulkan target's bound) on scatters and
convolutions: scatter updates in chunks of at most 4096 elements, a scatter window or a
convolution (its kernel or its input features) longer than the bound in pieces; more than 16
chunks or pieces as one loop (a stablehlo.while over dynamic slices: one executable for all),
against numpy, with small integers (sums exact) at repeated indices (the order of the chunks
is the updates' order). On CPU with the Vulkan target's option, and on Vulkan."""
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _signs(rng, shape):
    return (rng.integers(1, 3, shape) * rng.choice([-1, 1], shape)).astype(np.float32)


def _cases(n: int, seed: int = 0):
    """name -> (jax function, args, numpy oracle): scatters of about n update elements."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, 97, n + 5).astype(np.int32)       # 16 + 1 chunks and a tail
    perm = rng.permutation(n).astype(np.int32)
    rows = rng.integers(0, 3, 4).astype(np.int32)            # repeated rows of n // 4 elements
    width = n // 4

    def add_at(e, w, i):
        out = e.copy()
        np.add.at(out, i, w)
        return out

    def max_at(e, w, i):
        out = e.copy()
        np.maximum.at(out, i, w)
        return out

    def set_at(e, w):
        out = e.copy()
        out[perm] = w
        return out
    def correlate(x, w, stride=1, dilation=1):
        """lax.conv_general_dilated of NCW x and OIW w, VALID, in float64."""
        taps = w.shape[2]
        out = (x.shape[2] - (taps - 1) * dilation - 1) // stride + 1
        windows = np.stack([x[:, :, j * stride:j * stride + (taps - 1) * dilation + 1:dilation]
                            for j in range(out)], axis=2)           # [N, C, out, taps]
        return np.einsum("ncjt,oct->noj", windows.astype(np.float64), w).astype(np.float32)
    taps, features = n // 4 + 5, n // 8
    return {
        "conv_kernel": (lambda x, w: jax.lax.conv_general_dilated(
            x, w, (3,), "VALID", rhs_dilation=(2,)),
            [_signs(rng, (1, 1, 3 * 3 + (taps - 1) * 2 + 1)), _signs(rng, (2, 1, taps))],
            lambda x, w: correlate(x, w, 3, 2)),
        "conv_features": (lambda x, w: jax.lax.conv_general_dilated(x, w, (1,), "VALID"),
                          [_signs(rng, (1, features, 10)), _signs(rng, (2, features, 3))],
                          correlate),
        "add": (lambda e, w: e.at[idx].add(w), [_signs(rng, 97), _signs(rng, n + 5)],
                lambda e, w: add_at(e, w, idx)),
        "max": (lambda e, w: e.at[idx[:n // 2]].max(w),
                [_signs(rng, 97), rng.integers(-50, 50, n // 2).astype(np.float32)],
                lambda e, w: max_at(e, w, idx[:n // 2])),
        "set": (lambda e, w: e.at[perm].set(w), [_signs(rng, n), _signs(rng, n)], set_at),
        "rows": (lambda e, w: e.at[rows].add(w), [_signs(rng, (3, width + 7)),
                                                  _signs(rng, (4, width + 7))],
                 lambda e, w: add_at(e, w, rows)),
    }


def _module(cases) -> str:
    from shlo.passes.pipeline import run_pipeline
    funcs = []
    for name, (f, args, _) in cases.items():
        module = shlo.parse_module(jax.jit(f).lower(*args).as_text(), context=shlo.context())
        run_pipeline(module.operation, "builtin.module(inline, symbol-dce)")
        (main,) = module.body.operations
        funcs.append(str(main).replace("@main(", f"@{name}(", 1))
    return "module {\n" + "\n".join(funcs) + "\n}\n"


def _bounded_cpu():
    """The cpu target's pipeline with the Vulkan target's bound on reduction lengths."""
    from shlo.passes.pipeline import parse_pipeline
    from shlo.pipelines import DEFAULT, target_pipeline
    from shlo.pipelines.targets import get_target
    pipeline = parse_pipeline(target_pipeline(DEFAULT, get_target("cpu")))
    pipeline.set_options("shlo-split-long-reduce", max_length=4096, threads=False)
    return pipeline.text(", ")


def _run(target: str, n: int):
    cases = _cases(n)
    if target == "vulkan":
        vulkan_or_skip()
        exe = shlo.compile(_module(cases), target="vulkan")
    else:
        # (a kernel piece of 4096 taps overflows the CPU's 32 KiB stack in llvm-cpu's
        # convolution, in line as in a loop: the bound is Vulkan's, so is that case)
        del cases["conv_kernel"]
        exe = shlo.compile(_module(cases), target="cpu", pipeline=_bounded_cpu())
    for name, (_, args, oracle) in cases.items():
        np.testing.assert_array_equal(np.asarray(exe.function(name)(*args)), oracle(*args),
                                      err_msg=name)


def test_chunks_become_loops(ctx):
    """1M updates: one loop of 16 trips per scatter and convolution (over update chunks, pieces
    of `rows`' long window, kernel or feature pieces), each trip doing an equal share of the
    pieces; 58 scatters in all where they were 901, one after another."""
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(_module(_cases(1 << 20)), context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-canonicalize-scatter, "
                                   "shlo-split-long-reduce{threads=false max-length=4096})")
    text = str(module)
    assert text.count("stablehlo.while") == 6
    # add: 16 per trip, the last 5 updates; max: 8; set: 16; rows: 4 pieces of 4 rows a
    # trip, the last piece
    assert text.count('"stablehlo.scatter"(') == 17 + 8 + 16 + 17


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_long_scatters_match_numpy(target):
    _run(target, 1 << 18)


@pytest.mark.slow
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("n", [1 << 16, 1 << 20, 1 << 24])
def test_long_scatters_sweep(target, n):
    _run(target, n)
