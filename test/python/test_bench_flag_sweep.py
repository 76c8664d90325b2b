"""flag-sweep runs end to end on a tiny workload (timings are never asserted), and the cpu
tuning table picks its flags from what a module holds."""
import json

import shlo
from shlo.pipelines.cpu_tuning import MODULE_RULES, module_flags
from shlo.tools import flag_sweep


def test_sweep_times_every_flag_set_against_xla(tmp_path, capsys):
    out = tmp_path / "sweep.json"
    status = flag_sweep.main(["--only", "gather_1M", "--configs", "shlo_default,o0",
                              "--rounds", "1", "--budget", "0.01", "--json", str(out)])
    text = capsys.readouterr().out
    assert status == 0, text
    row = json.loads(out.read_text())
    assert set(row["configs"]) == {"shlo_default", "o0"}
    assert all(c["ratio_xla"] > 0 for c in row["configs"].values())
    assert "geomean (1 rows)" in text


def test_unknown_flag_set_is_a_clean_error(capsys):
    assert flag_sweep.main(["--only", "gather_1M", "--configs", "nope"]) == 2
    assert "unknown flag set(s) nope" in capsys.readouterr().err


def test_scatter_modules_get_their_flags(ctx):
    scatter = shlo.parse_module("""
    func.func @f(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<8xf32> {
      %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers =
          #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
                             index_vector_dim = 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
      return %0 : tensor<8xf32>
    }""", context=ctx)
    assert module_flags(scatter.operation) == MODULE_RULES["stablehlo.scatter"][0]
    plain = shlo.parse_module("func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                              "  return %x : tensor<4xf32>\n}", context=ctx)
    assert module_flags(plain.operation) == ()
