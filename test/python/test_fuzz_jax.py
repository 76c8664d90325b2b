"""shlo-fuzz --jax (tools/fuzz/jax_programs.py): whole jax programs are deterministic per
seed, the comparison against XLA's f32 and f64 results flags wrong elements and no others,
runs find nothing on programs shlo gets right, and reproducers replay."""
import io
import json
import os

import numpy as np
import pytest

from conftest import vulkan_or_skip
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz import jax_programs as J
from shlo.tools.fuzz.runner import InProcess


def _small(count: int) -> list[str]:
    """Names of the first `count` programs of seed 11 on at most 1024 elements (quick to
    compile)."""
    names = (f"11:{i}" for i in range(1000))
    return [n for n in names if J.random_program(n).args[0].size <= 1024][:count]


def test_programs_are_deterministic_per_seed():
    a, b, c = J.random_program("7:3"), J.random_program("7:3"), J.random_program("7:4")
    assert a.describe() == b.describe() and a.blocks
    assert all(np.array_equal(x, y) for x, y in zip(a.args, b.args))
    assert (a.describe(), len(a.args)) != (c.describe(), len(c.args)) or \
        not all(np.array_equal(x, y) for x, y in zip(a.args, c.args))


def test_compare_flags_wrong_elements_only():
    rng = np.random.default_rng(0)
    exact = rng.standard_normal(4096)
    f32 = exact.astype(np.float32)
    want = J.Oracle([f32], [exact], [np.abs(f32 - exact)], [float(np.abs(exact).max())])
    assert J.compare([f32.copy()], want) is None
    ulp = np.nextafter(f32, np.float32(np.inf))     # one ulp off everywhere: XLA's own size
    assert J.compare([ulp], want) is None
    wrong = f32.copy()
    wrong[17] += np.float32(1e-3) * np.abs(f32).max()
    assert "1 of 4096 elements off" in J.compare([wrong], want)
    nan = f32.copy()
    nan[5] = np.nan
    assert "non-finite" in J.compare([nan], want)
    assert "float32[4095]" in J.compare([f32[1:]], want)
    assert "2 outputs" in J.compare([f32, f32], want)


def test_a_cancelled_gradient_is_rounded_at_the_others_magnitude():
    """The gradient of a layer norm's bias before a centering is 0 (XLA f32: 1e-19); summed
    in another order it is 1e-10, rounding at the magnitude of the other gradients, not an
    error; 1e-3 is (fuzz seed 2 program 60 as first generated)."""
    program = J.random_program("2:60", ["gather", "layernorm", "center"], train=True)
    want = J.oracle(program)
    assert float(np.abs(want.f64[1]).max()) < 1e-15 < want.magnitudes[1] * J.RTOL / 1e3
    noisy = [np.asarray(a, np.float32) for a in want.f32]
    noisy[1] = noisy[1] + np.float32(1e-10)         # (the bias's gradient; the gain's is 2)
    assert J.compare(noisy, want) is None
    noisy[1][0] += 1e-3
    assert "output 1: 1 of" in J.compare(noisy, want)


@pytest.mark.parametrize("layers", [["dense", "sort"], ["dense", "top_k"], ["conv", "pool"]])
def test_ordering_layers_by_their_inputs_is_the_same_program(layers, monkeypatch):
    """With no spread, the oracle's forms of sort, top-k and max pool that order by other keys
    (`ORDERED`, `flip_ties`) give the layers' results and gradients exactly."""
    monkeypatch.setattr(J, "TIE_SPREAD", 0.0)
    for train in (False, True):
        program = J.random_program("5:3", layers, train=train)
        for parity in (0, 1):
            flipped = program.ordered_by(J.flip_ties(parity))(*program.args)
            for a, b in zip(program.fn(*program.args), flipped):
                np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_dropout_draws_the_same_mask_for_the_f64_oracle():
    """jax.random.bernoulli(key, 0.5) draws f64 uniforms in x64 mode: the f64 oracle's mask
    differed from the f32 one at half the elements, each such element counted as noise, so
    the elements after a dropout layer went unchecked (seeds 3-9). With p an f32 the bits
    are the same."""
    program = J.random_program("5:84", ["dropout"], train=False)
    want = program.want
    np.testing.assert_array_equal(want.f32[0] == 0, want.f64[0] == 0)
    assert float(np.max(want.noise[0])) < 1e-6 * float(np.max(np.abs(want.f64[0])))


def test_a_bf16_layer_s_gradients_allow_its_rounding():
    """A training step through the bf16 layer (fuzz seed 11 program 1: [attention, bf16] on
    vulkan): 2 of the 65536 weight gradients came out one bf16 ulp from XLA's, a rounding of
    jax's bf16 transpose product that XLA's f32 and f64 took alike (noise 0). The noise now
    holds a bf16 rounding; 2 ulps off is still flagged."""
    program = J.random_program("11:1", ["attention", "bf16"], train=True)
    want = program.want
    got = [np.array(a) for a in want.f32]
    i = int(np.argmax(np.abs(want.f64[4])))
    got[4].flat[i] = np.float32(want.f64[4].flat[i] * (1 + 2.0 ** -8))      # one bf16 ulp
    assert J.compare(got, want) is None
    got[4].flat[i] = np.float32(want.f64[4].flat[i] * (1 + 2.0 ** -4))
    assert "output 4" in J.compare(got, want)


def test_nearly_tied_sort_inputs_are_rounding_noise():
    """[dense, sort] as a training step (fuzz seed 5 program 3): two of the sort's inputs lie
    one f32 ulp apart, and shlo's f32 order of them differed from XLA's, moving two bias
    gradients by 1.3e-5 (16 times more than the inputs' rounding explained). XLA's own f32
    result with near ties the other way round is within the noise now, and was not without
    the flipped runs; a real error still is one."""
    program = J.random_program("5:3", ["dense", "sort"], train=True)
    plain = J.Oracle(*_plain(program))
    flipped = [[np.array(a) for a in program.ordered_by(J.flip_ties(parity))(*program.args)]
               for parity in (0, 1)]
    flagged = [f for f in flipped if J.compare(f, plain) is not None]
    assert flagged, "no near tie flipped"
    assert J.compare(flagged[0], program.want) is None
    quiet = int(np.argmin(program.want.noise[1]))     # (not one of the flipped pair)
    flagged[0][1][quiet] += 1e-3 * program.want.magnitudes[1]
    assert "output 1" in J.compare(flagged[0], program.want)


def test_values_near_a_bf16_rounding_tie_are_rounding_noise():
    """The bf16 layer's input one f32 rounding from a bf16 rounding tie (fuzz seed 15 program
    68, forward on vulkan: 41 of 16384 outputs 1.5e-4 off where the noise was 8e-9: the layer
    norm's output 1 ulp from XLA's at 2 elements, which then rounded to the other bf16). XLA's
    own f32 result with the layer's inputs moved by 4 ulps either way (the few near a tie
    rounding the other way) is within the noise now (the flipped runs round such values both
    ways, as for the int8 layer), and was not before; a real error still is one."""
    import jax.numpy as jnp
    program = J.random_program("15:68", ["slogdet", "layernorm", "while", "bf16"])
    plain = J.Oracle(*_plain(program))
    eps = float(np.finfo(np.float32).eps)

    def moved(x):
        signs = np.random.default_rng(0).choice([-1.0, 1.0], x.shape)
        return x * (1 + 4 * eps * jnp.asarray(signs, x.dtype))
    got = [np.array(a) for a in program.ordered_by(moved)(*program.args)]
    assert "output 0" in J.compare(got, plain)
    assert J.compare(got, program.want) is None
    quiet = np.unravel_index(int(np.argmin(program.want.noise[0])), got[0].shape)
    got[0][quiet] += 1e-3 * program.want.magnitudes[0]
    assert "output 0" in J.compare(got, program.want)


def _plain(program):
    """The oracle's fields for `program` without its flipped runs."""
    import dataclasses
    return dataclasses.astuple(J.oracle(dataclasses.replace(program, ordered_by=None)))


def test_a_run_on_cpu_finds_nothing():
    first = int(_small(1)[0].split(":")[1])
    out = io.StringIO()
    result = J.run(1, 11, ["cpu"], None, InProcess(), first=first,
                   progress=fuzz.Progress(1, out))
    assert result["summary"] == "1 jax programs, 0 mismatches, 0 crashes, 0 errors"
    assert "1/1" in out.getvalue()


@pytest.mark.slow
def test_a_run_on_vulkan_finds_nothing():
    vulkan_or_skip()
    result = J.run(3, 11, ["vulkan"], None, InProcess())
    assert result["summary"] == "3 jax programs, 0 mismatches, 0 crashes, 0 errors"


def test_a_reproducer_replays(tmp_path):
    """Saved, a program replays with `shlo-fuzz --replay`; with XLA's saved results changed
    (as if shlo were wrong), the replay reports the mismatch."""
    program = J.random_program(_small(1)[0])
    where = str(tmp_path / "jax-mismatch-cpu-11")
    J.save(where, program, "cpu", "mismatch", "planted")
    with open(os.path.join(where, "meta.json")) as f:
        assert json.load(f)["kind"] == "jax"
    assert fuzz.replay(where, None, InProcess()) is None
    for prefix in ("xla_f32", "xla_f64"):      # (the noise stays)
        path = os.path.join(where, f"{prefix}_0.npy")
        np.save(path, np.load(path) + 1)
    assert "elements off" in fuzz.replay(where, "cpu", InProcess())


def test_a_program_xla_cannot_run_is_skipped():
    """Seed 10 program 44 (a bf16 product after a solve): XLA's CPU fails ("Unsupported element
    type for DotThunk::Execute: BF16 x BF16 = F32"); without an oracle the program is skipped
    and counted, and the run goes on (it stopped the fuzzer)."""
    result = J.run(1, 10, ["cpu"], None, InProcess(), first=44)
    assert result["summary"] == ("0 jax programs, 0 mismatches, 0 crashes, 0 errors, "
                                 "1 skipped (XLA fails)")


def test_the_eigh_layer_s_eigenvalues_are_apart():
    """The eigh layer's matrix has eigenvalues at least 1/m apart (seed 11 program 89 and
    seed 12 program 32: gaps of 2e-4 made its gradient's f32 rounding, XLA's own included,
    100-5000x the sampled noise)."""
    for seed in range(5):
        a = J.random_program(f"gap:{seed}", ["eigh"], train=True).args[3]
        values = np.linalg.eigvalsh(a.astype(np.float64))
        assert np.allclose(a, a.T) and np.diff(values).min() >= 0.99 / len(a)
        assert 1 <= values.min() and values.max() <= 3 + 1e-6


def test_layers_added_later_are_drawn_from_their_seed_on():
    """A recorded seed draws the programs it drew (docs/fuzzing.md); later seeds draw the new
    layers too."""
    new = set(J.SINCE_SEED)
    assert not new & set(J.layer_names("17:3")) and new <= set(J.layer_names("18:0"))
    assert J.layer_names("gap:0") == sorted(J.LAYERS)
    drawn = {name for i in range(200) for name in J.random_program(f"18:{i}").blocks}
    assert new <= drawn


@pytest.mark.parametrize("layer", sorted(J.SINCE_SEED))
@pytest.mark.parametrize("train", [False, True])
def test_a_new_layer_agrees_with_xla_on_cpu(layer, train):
    program = J.random_program(f"new:{layer}", [layer, "dense"], train=train)
    assert J.check(program, "cpu", InProcess()) is None


@pytest.mark.xfail(strict=False, reason="open (2026-12-03): on vulkan, an int8 layer, a "
                   "lax.cond, then eigh's Jacobi loop: eigh's matrix function comes back "
                   "wrong (0.96 off, at times 1e4), also before this session's changes; "
                   "right without shlo-read-condition-values or shlo-legalize-vulkan-ops, "
                   "or with every loop's results fenced (shlo-barrier-loop-results"
                   "{every-loop=true}), and on the cpu with the same decomposition")
def test_int8_then_cond_then_eigh_vulkan():
    """shlo-fuzz --jax seed 19 program 42 ([int8, switch, eigh, int8] forward: 15848 of 16384
    outputs off on vulkan), reduced to its first three layers; against XLA. Wrong in every
    run here, by amounts that vary (a race or a stale buffer): not strict, as lavapipe's
    threads and vectors follow the machine."""
    vulkan_or_skip()
    program = J.random_program("19:42", ["int8", "cond", "eigh"], train=False)
    assert J.check(program, "vulkan", InProcess()) is None
