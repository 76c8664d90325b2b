// shlo-run reads .npy and raw inputs and writes results as iree-run-module's --output does.
// RUN: %PYTHON -c "import numpy as np; f = open('%t.in.npy', 'wb'); np.save(f, np.arange(6, dtype=np.float32).reshape(2, 3)); np.save(f, np.float32(10))"
// RUN: %PYTHON -c "import numpy as np; np.arange(6, dtype=np.float32).tofile('%t.raw')"
// RUN: shlo-run %s --function scale --input=@%t.in.npy --output=@%t.out.npy --output=+%t.out.npy --output= | filecheck %s
// RUN: %PYTHON -c "import numpy as np; f = open('%t.out.npy', 'rb'); print(np.load(f).tolist(), np.load(f).tolist())" | filecheck %s --check-prefix=NPY
// RUN: shlo-run %s --function scale --input=2x3xf32=@%t.raw --input=f32=2 --output=- --output=@%t.out.bin --output=- | filecheck %s --check-prefix=RAW
// RUN: %PYTHON -c "import numpy as np; print(np.fromfile('%t.out.bin', dtype=np.float32).tolist())" | filecheck %s --check-prefix=BIN
// RUN: not shlo-run %s --function scale --input=@%t.missing.npy 2>&1 | filecheck %s --check-prefix=NOFILE
// RUN: not shlo-run %s --function scale --input=2x3xf32=@%t.raw --input=f32=2 --output=x.npy 2>&1 | filecheck %s --check-prefix=BADOUT

// CHECK:       EXEC @scale
// CHECK-NOT:   result
// NPY:         {{\[\[}}0.0, 10.0, 20.0], [30.0, 40.0, 50.0]] [[0.0, 20.0, 40.0], [60.0, 80.0, 100.0]]
// RAW:         EXEC @scale
// RAW-NEXT:    result[0]: hal.buffer_view
// RAW-NEXT:    2x3xf32=[0 2 4][6 8 10]
// RAW-NEXT:    result[2]: hal.buffer_view
// RAW-NEXT:    f32=2
// BIN:         [0.0, 4.0, 8.0, 12.0, 16.0, 20.0]
// NOFILE:      shlo-run: --input=@{{.*}}missing.npy: cannot read .npy file
// BADOUT:      shlo-run: --output=x.npy: expected -, @FILE or +FILE
func.func @scale(%x: tensor<2x3xf32>, %s: tensor<f32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.multiply %x, %0 : tensor<2x3xf32>
  %2 = stablehlo.add %1, %1 : tensor<2x3xf32>
  return %1, %2, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
}
