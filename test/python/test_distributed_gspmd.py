"""GSPMD shardings (`mhlo.sharding` strings) read as Shardy's (shlo.shardy.gspmd_axes): every
form jax writes (iota, transposed iota, explicit device lists, replicated trailing tiles) names
the same mesh axes as the device order it encodes (checked against numpy's device arrays), and
what has no Shardy form here is a one-line error. (Whole programs: test_distributed.)"""
import numpy as np
import pytest

import shlo
from shlo.shardy import gspmd_axes


def _devices(sizes, dims, tiles):
    """The sorted ids of the devices holding each tile, of a sharding with mesh `sizes` and
    axes `dims` (the axes no dimension names replicate it): shape tiles + [replicas]."""
    ids = np.arange(int(np.prod(sizes))).reshape(sizes)
    out = []
    for index in np.ndindex(*tiles):
        where = [slice(None)] * len(sizes)
        for d, axes in enumerate(dims):
            k = index[d]
            for a in reversed(axes):
                where[a] = k % sizes[a]
                k //= sizes[a]
        out.append(np.sort(ids[tuple(where)].reshape(-1)))
    return np.array(out).reshape(list(tiles) + [-1])


@pytest.mark.parametrize("text, rank, tiles, devices", [
    ("{devices=[2,2]<=[4]}", 2, [2, 2], np.arange(4).reshape(2, 2)),
    ("{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}", 2, [2, 1],
     np.arange(4).reshape(2, 2).T.reshape(2, 1, 2)),
    ("{devices=[4,2]<=[2,4]T(1,0)}", 2, [4, 2], np.arange(8).reshape(2, 4).T),
    ("{devices=[2,2]0,2,1,3}", 2, [2, 2], np.array([[0, 2], [1, 3]])),
    ("{devices=[1,8]<=[8]}", 2, [1, 8], np.arange(8).reshape(1, 8)),
    ("{devices=[2,4]<=[2,2,2]T(2,0,1)}", 2, [2, 4],
     np.arange(8).reshape(2, 2, 2).transpose(2, 0, 1).reshape(2, 4)),
    ("{devices=[3,2]<=[6]}", 2, [3, 2], None),
])
@pytest.mark.every_case
def test_tiled_shardings_name_the_devices_they_encode(text, rank, tiles, devices):
    if devices is None:                 # 6 = 2 x 3: a dimension 3 ways needs a sub-axis
        with pytest.raises(shlo.ParseError, match="sub-axis"):
            gspmd_axes(text, rank, "x")
        return
    sizes, dims = gspmd_axes(text, rank, "x")
    assert int(np.prod(sizes)) == devices.size
    want = np.sort(devices.reshape(tiles + [-1]), axis=-1)
    np.testing.assert_array_equal(_devices(sizes, dims, tiles), want)


def test_replicated_and_unsupported_shardings():
    assert gspmd_axes("{replicated}", 3, "x") == ([], [[], [], []])
    for text, pattern in [("{manual}", "manual GSPMD sharding"),
                          ("{maximal device=1}", "maximal"),
                          ("{{replicated}, {manual}}", "no Shardy form"),
                          ("{devices=[2,2]<=[4] last_tile_dims={manual}}", "partly manual"),
                          ("{devices=[2,2]<=[4]}", "tiles 2 dimension")]:
        with pytest.raises(shlo.ParseError, match=pattern) as info:
            gspmd_axes(text, 3 if "tiles" in pattern else 2, "f argument 0")
        assert "\n" not in str(info.value)


PARTLY_MANUAL = """
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={manual}}"} : (tensor<8xf32>) -> tensor<4xf32>
    %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[4]<=[4]}"} : (tensor<4xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}"""


def test_a_shard_map_over_part_of_the_mesh_is_a_clear_error():
    pytest.importorskip("jaxlib")
    assert shlo.shardy.is_sharded_program(PARTLY_MANUAL)
    with pytest.raises(shlo.ParseError, match=r"a shard_map over part of the mesh \(GSPMD "
                                              r"sharding 'devices=\[2,2\]<=\[4\] last_tile_dims"
                                              r"=\{manual\}'\); lower it with Shardy") as info:
        shlo.shardy.per_device_program(PARTLY_MANUAL)
    assert "\n" not in str(info.value)
