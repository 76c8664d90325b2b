"""XlaBuilder conversions, constants and random numbers (ConvertElementType, BitcastConvertType
incl. width-changing, Constant/ConstantLiteral, RngUniform, RngNormal, RngBitGenerator against
XLA itself through jax.lax, the old seed's RngBernoulli, ReplicaId/PartitionID on one replica)
on CPU and Vulkan. Random results are checked statistically (range, mean, spread).
"""
import ml_dtypes
import numpy as np

from shlo import xla
from xla_suite import Case, Suite, numeric_test, rng

R = rng(19)
F32, I32, U32, U64 = np.float32, np.int32, np.uint32, np.uint64
BF16 = ml_dtypes.bfloat16
N = 8192


def shape(dtype, dims):
    return xla.Shape.array_shape(dtype, dims)


def uniform_check(lo, hi, integer=False):
    def check(got, inputs):
        (x,) = got
        assert x.shape == (N,)
        assert x.min() >= lo and (x.max() < hi), (x.min(), x.max())
        width = hi - lo
        assert abs(x.mean() - (lo + hi - (1 if integer else 0)) / 2) < 0.05 * width, x.mean()
        assert len(np.unique(x)) > (min(width, N) * 0.5 if integer else N * 0.9)
    return check


def normal_check(mu, sigma):
    def check(got, inputs):
        (x,) = got
        assert x.shape == (N,) and x.dtype == F32
        assert abs(x.mean() - mu) < 5 * sigma / np.sqrt(N), x.mean()
        assert abs(x.std() / sigma - 1) < 0.05, x.std()
        assert abs(np.mean(np.abs(x - mu) < sigma) - 0.6827) < 0.03
    return check


def bernoulli_check(got, inputs):
    (x,) = got
    p = float(inputs[0])
    assert set(np.unique(x)) <= {0, 1}
    assert abs(x.mean() - p) < 5 * np.sqrt(p * (1 - p) / N), x.mean()


def rng_bit_generator_oracle(algorithm):
    """XLA's own RngBitGenerator (jax.lax on XLA:CPU), the u64[2] state seen as u32[4]."""
    def oracle(state):
        import jax
        from jax import lax
        algo = {"THREE_FRY": lax.RandomAlgorithm.RNG_THREE_FRY,
                "PHILOX": lax.RandomAlgorithm.RNG_PHILOX}[algorithm]
        with jax.default_device(jax.devices("cpu")[0]):
            key, bits = lax.rng_bit_generator(state.view(U32), (4, 8), np.uint32, algo)
        return [np.asarray(key).view(U64), np.asarray(bits)]
    return oracle


def bit_generator_case(name, algorithm, state):
    return Case(name, (state,),
                lambda b, s: [xla.GetTupleElement(xla.RngBitGenerator(algorithm, s,
                                                                      shape(U32, [4, 8])), i)
                              for i in (0, 1)],
                rng_bit_generator_oracle(algorithm.replace("RNG_", "")))


FLOATS = (R.standard_normal(32) * 100).astype(F32)
HALFWAY = np.array([1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, -1.0 - 2.0 ** -8, 3.0e38, 1e-3], F32)

CASES = [
    # the seed's example: s32 {0, 1, 2} -> f32 {0.0, 1.0, 2.0}
    Case("convert_s32_to_f32", (np.array([0, 1, 2, -7, 2 ** 24 + 1], I32),),
         lambda b, x: xla.ConvertElementType(x, "F32"), lambda x: x.astype(F32)),
    Case("convert_f32_to_s32_truncates", (FLOATS,),
         lambda b, x: xla.ConvertElementType(x, np.int32), lambda x: np.trunc(x).astype(I32)),
    Case("convert_f32_to_bf16_rounds_even", (HALFWAY,),
         lambda b, x: xla.ConvertElementType(x, "BF16"), lambda x: x.astype(BF16)),
    Case("convert_f32_to_f16", (FLOATS,), lambda b, x: xla.ConvertElementType(x, np.float16),
         lambda x: x.astype(np.float16)),
    Case("convert_f32_to_pred", (np.array([0.0, -0.0, 1.5, np.nan, -2.0], F32),),
         lambda b, x: xla.ConvertElementType(x, "PRED"), lambda x: x != 0),
    Case("convert_pred_to_s32", (np.array([True, False, True]),),
         lambda b, x: xla.ConvertElementType(x, I32), lambda x: x.astype(I32)),
    Case("convert_s32_to_u8_wraps", (np.array([0, 255, 256, -1, 1000], I32),),
         lambda b, x: xla.ConvertElementType(x, "U8"), lambda x: x.astype(np.uint8)),
    Case("bitcast_f32_to_s32", (FLOATS,), lambda b, x: xla.BitcastConvertType(x, "S32"),
         lambda x: x.view(I32)),
    Case("bitcast_s32_to_f32", (FLOATS.view(I32),),
         lambda b, x: xla.BitcastConvertType(x, np.float32), lambda x: x.view(F32)),
    # width-changing: f32[n] -> u16[n, 2] (a new minor dimension, memory order), and back
    Case("bitcast_f32_to_u16_pairs", (FLOATS[:6],),
         lambda b, x: xla.BitcastConvertType(x, "U16"), lambda x: x.view(np.uint16).reshape(6, 2)),
    Case("bitcast_s8_quads_to_s32", (R.integers(-128, 128, (5, 4)).astype(np.int8),),
         lambda b, x: xla.BitcastConvertType(x, "S32"), lambda x: x.view(I32).reshape(5)),
    Case("bitcast_f32_scalar_to_f16_pair", (F32(1.7),),
         lambda b, x: xla.BitcastConvertType(x, "F16"), lambda x: x.reshape(1).view(np.float16)),
    Case("constant_and_constant_literal", (FLOATS[:4],),
         lambda b, x: [xla.Add(x, xla.Constant(b, np.array([1, 2, 3, 4], F32))),
                       xla.Mul(x, xla.ConstantLiteral(b, F32(0.5))),
                       xla.Select(xla.Constant(b, np.array([True, False, True, False])), x,
                                  xla.Neg(x))],
         lambda x: [x + np.array([1, 2, 3, 4], F32), x * F32(0.5),
                    np.where([True, False, True, False], x, -x)]),
    Case("rng_uniform_f32", (F32(-2.0), F32(3.0)),
         lambda b, lo, hi: xla.RngUniform(lo, hi, shape(F32, [N])), None,
         check=uniform_check(-2.0, 3.0)),
    Case("rng_uniform_s32", (I32(-5), I32(37)),
         lambda b, lo, hi: xla.RngUniform(lo, hi, shape("S32", [N])), None,
         check=uniform_check(-5, 37, integer=True)),
    Case("rng_normal", (F32(1.5), F32(0.25)),
         lambda b, mu, sigma: xla.RngNormal(mu, sigma, shape(F32, [N])), None,
         check=normal_check(1.5, 0.25)),
    Case("rng_bernoulli_old_seed", (F32(0.3),),
         lambda b, p: xla.RngBernoulli(p, shape("U32", [N])), None, check=bernoulli_check),
    bit_generator_case("rng_bit_generator_three_fry", "THREE_FRY",
                       np.array([0x1234_5678_9ABC_DEF0, 42], U64)),
    bit_generator_case("rng_bit_generator_philox", "RNG_PHILOX",
                       np.array([7, 0xFFFF_FFFF_0000_0001], U64)),
    Case("replica_id_single_replica", (U32(10),),
         lambda b, x: xla.Add(xla.ReplicaId(b), x), lambda x: np.asarray(x, U32)),
    Case("partition_id_single_partition", (U32(3),),
         lambda b, x: xla.Add(xla.PartitionID(b, shape(U32, [])), x), lambda x: np.asarray(x, U32)),
]

SUITE = Suite("convert_rng", CASES)
test_convert_rng = numeric_test(SUITE)


def test_rng_bit_generator_state_advances():
    """Two draws from successive states differ (the returned state is really new)."""
    b = xla.XlaBuilder("rng_twice")
    s = xla.Parameter(b, 0, shape(U64, [2]), "s")
    first = xla.RngBitGenerator("THREE_FRY", s, shape(U32, [16]))
    second = xla.RngBitGenerator("THREE_FRY", xla.GetTupleElement(first, 0), shape(U32, [16]))
    comp = b.build(xla.Tuple([xla.GetTupleElement(first, 1), xla.GetTupleElement(second, 1)]))
    import shlo
    a, c = shlo.compile(comp.module, target="cpu")(np.array([1, 2], U64))
    assert a.shape == c.shape == (16,) and not np.array_equal(a, c)
