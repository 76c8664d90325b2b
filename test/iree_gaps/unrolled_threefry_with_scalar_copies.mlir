// jax.random.bernoulli((16, 16)) of x[16, 16] (shlo-fuzz --jax program 5:84, its dropout layer alone), as
// shlo's CPU pipeline left it with shlo-copy-rotated-loop-carries run before shlo-unroll-scan-loops:
// the threefry loop unrolled, its keys copied by select(true, key, 0) each trip. The reference
// interpreter agrees with XLA; IREE 3.13's CPU backend (no shlo passes) gets 56 of 256 wrong.
// test_copy_rotated_loop_carries.py::test_iree_cpu_computes_the_unrolled_copies_wrong
module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x16xf32>, %arg1: tensor<i32>, %arg2: tensor<16xi32>) -> (tensor<16x16xf32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<1x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<1x1xf32>
    %c = stablehlo.constant dense<0> : tensor<4xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<ui32>
    %c_2 = stablehlo.constant dense<32> : tensor<i32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_7 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %c_8 = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_9 = stablehlo.constant dense<466688986> : tensor<ui32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %c_11 = stablehlo.constant dense<5> : tensor<i32>
    %c_12 = stablehlo.constant dense<1> : tensor<i32>
    %c_13 = stablehlo.constant dense<32> : tensor<ui32>
    %c_14 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %c_15 = stablehlo.constant dense<9> : tensor<ui32>
    %c_16 = stablehlo.constant dense<32> : tensor<ui64>
    %c_17 = stablehlo.constant dense<16> : tensor<ui64>
    %c_18 = stablehlo.constant dense<true> : tensor<i1>
    %0 = stablehlo.optimization_barrier %c_18 : tensor<i1>
    %1 = stablehlo.shift_right_logical %arg1, %c_2 : tensor<i32>
    %2 = stablehlo.convert %1 : (tensor<i32>) -> tensor<ui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %4 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %6 = stablehlo.concatenate %3, %5, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %7 = stablehlo.slice %6 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %8 = stablehlo.reshape %7 : (tensor<1xui32>) -> tensor<ui32>
    %9 = stablehlo.slice %6 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %10 = stablehlo.reshape %9 : (tensor<1xui32>) -> tensor<ui32>
    %11 = stablehlo.iota dim = 0 : tensor<16x16xui64>
    %12 = stablehlo.iota dim = 1 : tensor<16x16xui64>
    %13 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<ui64>) -> tensor<16x16xui64>
    %14 = stablehlo.multiply %13, %11 : tensor<16x16xui64>
    %15 = stablehlo.add %14, %12 : tensor<16x16xui64>
    %16 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<ui64>) -> tensor<16x16xui64>
    %17 = stablehlo.shift_right_logical %15, %16 : tensor<16x16xui64>
    %18 = stablehlo.convert %15 : (tensor<16x16xui64>) -> tensor<16x16xui32>
    %19 = stablehlo.convert %17 : (tensor<16x16xui64>) -> tensor<16x16xui32>
    %20 = stablehlo.xor %8, %10 : tensor<ui32>
    %21 = stablehlo.xor %20, %c_9 : tensor<ui32>
    %22 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %23 = stablehlo.add %19, %22 : tensor<16x16xui32>
    %24 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %25 = stablehlo.add %18, %24 : tensor<16x16xui32>
    %26 = stablehlo.add %c_10, %c_12 : tensor<i32>
    %27 = stablehlo.slice %c_8 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %28 = stablehlo.reshape %27 : (tensor<1xui32>) -> tensor<ui32>
    %29 = stablehlo.add %23, %25 : tensor<16x16xui32>
    %30 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %31 = stablehlo.shift_left %25, %30 : tensor<16x16xui32>
    %32 = stablehlo.subtract %c_13, %28 : tensor<ui32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %34 = stablehlo.shift_right_logical %25, %33 : tensor<16x16xui32>
    %35 = stablehlo.or %31, %34 : tensor<16x16xui32>
    %36 = stablehlo.xor %29, %35 : tensor<16x16xui32>
    %37 = stablehlo.slice %c_8 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %38 = stablehlo.reshape %37 : (tensor<1xui32>) -> tensor<ui32>
    %39 = stablehlo.add %29, %36 : tensor<16x16xui32>
    %40 = stablehlo.broadcast_in_dim %38, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %41 = stablehlo.shift_left %36, %40 : tensor<16x16xui32>
    %42 = stablehlo.subtract %c_13, %38 : tensor<ui32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %44 = stablehlo.shift_right_logical %36, %43 : tensor<16x16xui32>
    %45 = stablehlo.or %41, %44 : tensor<16x16xui32>
    %46 = stablehlo.xor %39, %45 : tensor<16x16xui32>
    %47 = stablehlo.slice %c_8 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %48 = stablehlo.reshape %47 : (tensor<1xui32>) -> tensor<ui32>
    %49 = stablehlo.add %39, %46 : tensor<16x16xui32>
    %50 = stablehlo.broadcast_in_dim %48, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %51 = stablehlo.shift_left %46, %50 : tensor<16x16xui32>
    %52 = stablehlo.subtract %c_13, %48 : tensor<ui32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %54 = stablehlo.shift_right_logical %46, %53 : tensor<16x16xui32>
    %55 = stablehlo.or %51, %54 : tensor<16x16xui32>
    %56 = stablehlo.xor %49, %55 : tensor<16x16xui32>
    %57 = stablehlo.slice %c_8 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %58 = stablehlo.reshape %57 : (tensor<1xui32>) -> tensor<ui32>
    %59 = stablehlo.add %49, %56 : tensor<16x16xui32>
    %60 = stablehlo.broadcast_in_dim %58, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %61 = stablehlo.shift_left %56, %60 : tensor<16x16xui32>
    %62 = stablehlo.subtract %c_13, %58 : tensor<ui32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %64 = stablehlo.shift_right_logical %56, %63 : tensor<16x16xui32>
    %65 = stablehlo.or %61, %64 : tensor<16x16xui32>
    %66 = stablehlo.xor %59, %65 : tensor<16x16xui32>
    %67 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %68 = stablehlo.add %59, %67 : tensor<16x16xui32>
    %69 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %70 = stablehlo.add %66, %69 : tensor<16x16xui32>
    %71 = stablehlo.add %c_10, %c_12 : tensor<i32>
    %72 = stablehlo.convert %71 : (tensor<i32>) -> tensor<ui32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %74 = stablehlo.add %70, %73 : tensor<16x16xui32>
    %75 = stablehlo.add %c_10, %c_12 : tensor<i32>
    %76 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %77 = stablehlo.select %76, %21, %c_1 : tensor<i1>, tensor<ui32>
    %78 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %79 = stablehlo.select %78, %8, %c_1 : tensor<i1>, tensor<ui32>
    %80 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %81 = stablehlo.select %80, %10, %c_1 : tensor<i1>, tensor<ui32>
    %82 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %83 = stablehlo.select %82, %c_7, %c : tensor<4xi1>, tensor<4xui32>
    %84 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %85 = stablehlo.select %84, %c_8, %c : tensor<4xi1>, tensor<4xui32>
    %86 = stablehlo.add %26, %c_12 : tensor<i32>
    %87 = stablehlo.slice %83 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %88 = stablehlo.reshape %87 : (tensor<1xui32>) -> tensor<ui32>
    %89 = stablehlo.add %68, %74 : tensor<16x16xui32>
    %90 = stablehlo.broadcast_in_dim %88, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %91 = stablehlo.shift_left %74, %90 : tensor<16x16xui32>
    %92 = stablehlo.subtract %c_13, %88 : tensor<ui32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %94 = stablehlo.shift_right_logical %74, %93 : tensor<16x16xui32>
    %95 = stablehlo.or %91, %94 : tensor<16x16xui32>
    %96 = stablehlo.xor %89, %95 : tensor<16x16xui32>
    %97 = stablehlo.slice %83 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %98 = stablehlo.reshape %97 : (tensor<1xui32>) -> tensor<ui32>
    %99 = stablehlo.add %89, %96 : tensor<16x16xui32>
    %100 = stablehlo.broadcast_in_dim %98, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %101 = stablehlo.shift_left %96, %100 : tensor<16x16xui32>
    %102 = stablehlo.subtract %c_13, %98 : tensor<ui32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %104 = stablehlo.shift_right_logical %96, %103 : tensor<16x16xui32>
    %105 = stablehlo.or %101, %104 : tensor<16x16xui32>
    %106 = stablehlo.xor %99, %105 : tensor<16x16xui32>
    %107 = stablehlo.slice %83 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %108 = stablehlo.reshape %107 : (tensor<1xui32>) -> tensor<ui32>
    %109 = stablehlo.add %99, %106 : tensor<16x16xui32>
    %110 = stablehlo.broadcast_in_dim %108, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %111 = stablehlo.shift_left %106, %110 : tensor<16x16xui32>
    %112 = stablehlo.subtract %c_13, %108 : tensor<ui32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %114 = stablehlo.shift_right_logical %106, %113 : tensor<16x16xui32>
    %115 = stablehlo.or %111, %114 : tensor<16x16xui32>
    %116 = stablehlo.xor %109, %115 : tensor<16x16xui32>
    %117 = stablehlo.slice %83 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %118 = stablehlo.reshape %117 : (tensor<1xui32>) -> tensor<ui32>
    %119 = stablehlo.add %109, %116 : tensor<16x16xui32>
    %120 = stablehlo.broadcast_in_dim %118, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %121 = stablehlo.shift_left %116, %120 : tensor<16x16xui32>
    %122 = stablehlo.subtract %c_13, %118 : tensor<ui32>
    %123 = stablehlo.broadcast_in_dim %122, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %124 = stablehlo.shift_right_logical %116, %123 : tensor<16x16xui32>
    %125 = stablehlo.or %121, %124 : tensor<16x16xui32>
    %126 = stablehlo.xor %119, %125 : tensor<16x16xui32>
    %127 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %128 = stablehlo.add %119, %127 : tensor<16x16xui32>
    %129 = stablehlo.broadcast_in_dim %79, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %130 = stablehlo.add %126, %129 : tensor<16x16xui32>
    %131 = stablehlo.add %26, %c_12 : tensor<i32>
    %132 = stablehlo.convert %131 : (tensor<i32>) -> tensor<ui32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %134 = stablehlo.add %130, %133 : tensor<16x16xui32>
    %135 = stablehlo.add %75, %c_12 : tensor<i32>
    %136 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %137 = stablehlo.select %136, %79, %c_1 : tensor<i1>, tensor<ui32>
    %138 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %139 = stablehlo.select %138, %81, %c_1 : tensor<i1>, tensor<ui32>
    %140 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %141 = stablehlo.select %140, %77, %c_1 : tensor<i1>, tensor<ui32>
    %142 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %143 = stablehlo.select %142, %85, %c : tensor<4xi1>, tensor<4xui32>
    %144 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %145 = stablehlo.select %144, %83, %c : tensor<4xi1>, tensor<4xui32>
    %146 = stablehlo.add %86, %c_12 : tensor<i32>
    %147 = stablehlo.slice %143 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %148 = stablehlo.reshape %147 : (tensor<1xui32>) -> tensor<ui32>
    %149 = stablehlo.add %128, %134 : tensor<16x16xui32>
    %150 = stablehlo.broadcast_in_dim %148, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %151 = stablehlo.shift_left %134, %150 : tensor<16x16xui32>
    %152 = stablehlo.subtract %c_13, %148 : tensor<ui32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %154 = stablehlo.shift_right_logical %134, %153 : tensor<16x16xui32>
    %155 = stablehlo.or %151, %154 : tensor<16x16xui32>
    %156 = stablehlo.xor %149, %155 : tensor<16x16xui32>
    %157 = stablehlo.slice %143 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %158 = stablehlo.reshape %157 : (tensor<1xui32>) -> tensor<ui32>
    %159 = stablehlo.add %149, %156 : tensor<16x16xui32>
    %160 = stablehlo.broadcast_in_dim %158, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %161 = stablehlo.shift_left %156, %160 : tensor<16x16xui32>
    %162 = stablehlo.subtract %c_13, %158 : tensor<ui32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %164 = stablehlo.shift_right_logical %156, %163 : tensor<16x16xui32>
    %165 = stablehlo.or %161, %164 : tensor<16x16xui32>
    %166 = stablehlo.xor %159, %165 : tensor<16x16xui32>
    %167 = stablehlo.slice %143 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %168 = stablehlo.reshape %167 : (tensor<1xui32>) -> tensor<ui32>
    %169 = stablehlo.add %159, %166 : tensor<16x16xui32>
    %170 = stablehlo.broadcast_in_dim %168, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %171 = stablehlo.shift_left %166, %170 : tensor<16x16xui32>
    %172 = stablehlo.subtract %c_13, %168 : tensor<ui32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %174 = stablehlo.shift_right_logical %166, %173 : tensor<16x16xui32>
    %175 = stablehlo.or %171, %174 : tensor<16x16xui32>
    %176 = stablehlo.xor %169, %175 : tensor<16x16xui32>
    %177 = stablehlo.slice %143 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %178 = stablehlo.reshape %177 : (tensor<1xui32>) -> tensor<ui32>
    %179 = stablehlo.add %169, %176 : tensor<16x16xui32>
    %180 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %181 = stablehlo.shift_left %176, %180 : tensor<16x16xui32>
    %182 = stablehlo.subtract %c_13, %178 : tensor<ui32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %184 = stablehlo.shift_right_logical %176, %183 : tensor<16x16xui32>
    %185 = stablehlo.or %181, %184 : tensor<16x16xui32>
    %186 = stablehlo.xor %179, %185 : tensor<16x16xui32>
    %187 = stablehlo.broadcast_in_dim %137, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %188 = stablehlo.add %179, %187 : tensor<16x16xui32>
    %189 = stablehlo.broadcast_in_dim %139, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %190 = stablehlo.add %186, %189 : tensor<16x16xui32>
    %191 = stablehlo.add %86, %c_12 : tensor<i32>
    %192 = stablehlo.convert %191 : (tensor<i32>) -> tensor<ui32>
    %193 = stablehlo.broadcast_in_dim %192, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %194 = stablehlo.add %190, %193 : tensor<16x16xui32>
    %195 = stablehlo.add %135, %c_12 : tensor<i32>
    %196 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %197 = stablehlo.select %196, %139, %c_1 : tensor<i1>, tensor<ui32>
    %198 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %199 = stablehlo.select %198, %141, %c_1 : tensor<i1>, tensor<ui32>
    %200 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %201 = stablehlo.select %200, %137, %c_1 : tensor<i1>, tensor<ui32>
    %202 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %203 = stablehlo.select %202, %145, %c : tensor<4xi1>, tensor<4xui32>
    %204 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %205 = stablehlo.select %204, %143, %c : tensor<4xi1>, tensor<4xui32>
    %206 = stablehlo.add %146, %c_12 : tensor<i32>
    %207 = stablehlo.slice %203 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %208 = stablehlo.reshape %207 : (tensor<1xui32>) -> tensor<ui32>
    %209 = stablehlo.add %188, %194 : tensor<16x16xui32>
    %210 = stablehlo.broadcast_in_dim %208, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %211 = stablehlo.shift_left %194, %210 : tensor<16x16xui32>
    %212 = stablehlo.subtract %c_13, %208 : tensor<ui32>
    %213 = stablehlo.broadcast_in_dim %212, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %214 = stablehlo.shift_right_logical %194, %213 : tensor<16x16xui32>
    %215 = stablehlo.or %211, %214 : tensor<16x16xui32>
    %216 = stablehlo.xor %209, %215 : tensor<16x16xui32>
    %217 = stablehlo.slice %203 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %218 = stablehlo.reshape %217 : (tensor<1xui32>) -> tensor<ui32>
    %219 = stablehlo.add %209, %216 : tensor<16x16xui32>
    %220 = stablehlo.broadcast_in_dim %218, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %221 = stablehlo.shift_left %216, %220 : tensor<16x16xui32>
    %222 = stablehlo.subtract %c_13, %218 : tensor<ui32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %224 = stablehlo.shift_right_logical %216, %223 : tensor<16x16xui32>
    %225 = stablehlo.or %221, %224 : tensor<16x16xui32>
    %226 = stablehlo.xor %219, %225 : tensor<16x16xui32>
    %227 = stablehlo.slice %203 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %228 = stablehlo.reshape %227 : (tensor<1xui32>) -> tensor<ui32>
    %229 = stablehlo.add %219, %226 : tensor<16x16xui32>
    %230 = stablehlo.broadcast_in_dim %228, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %231 = stablehlo.shift_left %226, %230 : tensor<16x16xui32>
    %232 = stablehlo.subtract %c_13, %228 : tensor<ui32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %234 = stablehlo.shift_right_logical %226, %233 : tensor<16x16xui32>
    %235 = stablehlo.or %231, %234 : tensor<16x16xui32>
    %236 = stablehlo.xor %229, %235 : tensor<16x16xui32>
    %237 = stablehlo.slice %203 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %238 = stablehlo.reshape %237 : (tensor<1xui32>) -> tensor<ui32>
    %239 = stablehlo.add %229, %236 : tensor<16x16xui32>
    %240 = stablehlo.broadcast_in_dim %238, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %241 = stablehlo.shift_left %236, %240 : tensor<16x16xui32>
    %242 = stablehlo.subtract %c_13, %238 : tensor<ui32>
    %243 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %244 = stablehlo.shift_right_logical %236, %243 : tensor<16x16xui32>
    %245 = stablehlo.or %241, %244 : tensor<16x16xui32>
    %246 = stablehlo.xor %239, %245 : tensor<16x16xui32>
    %247 = stablehlo.broadcast_in_dim %197, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %248 = stablehlo.add %239, %247 : tensor<16x16xui32>
    %249 = stablehlo.broadcast_in_dim %199, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %250 = stablehlo.add %246, %249 : tensor<16x16xui32>
    %251 = stablehlo.add %146, %c_12 : tensor<i32>
    %252 = stablehlo.convert %251 : (tensor<i32>) -> tensor<ui32>
    %253 = stablehlo.broadcast_in_dim %252, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %254 = stablehlo.add %250, %253 : tensor<16x16xui32>
    %255 = stablehlo.add %195, %c_12 : tensor<i32>
    %256 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %257 = stablehlo.select %256, %199, %c_1 : tensor<i1>, tensor<ui32>
    %258 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %259 = stablehlo.select %258, %201, %c_1 : tensor<i1>, tensor<ui32>
    %260 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %261 = stablehlo.select %260, %197, %c_1 : tensor<i1>, tensor<ui32>
    %262 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %263 = stablehlo.select %262, %205, %c : tensor<4xi1>, tensor<4xui32>
    %264 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %265 = stablehlo.select %264, %203, %c : tensor<4xi1>, tensor<4xui32>
    %266 = stablehlo.add %206, %c_12 : tensor<i32>
    %267 = stablehlo.slice %263 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %268 = stablehlo.reshape %267 : (tensor<1xui32>) -> tensor<ui32>
    %269 = stablehlo.add %248, %254 : tensor<16x16xui32>
    %270 = stablehlo.broadcast_in_dim %268, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %271 = stablehlo.shift_left %254, %270 : tensor<16x16xui32>
    %272 = stablehlo.subtract %c_13, %268 : tensor<ui32>
    %273 = stablehlo.broadcast_in_dim %272, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %274 = stablehlo.shift_right_logical %254, %273 : tensor<16x16xui32>
    %275 = stablehlo.or %271, %274 : tensor<16x16xui32>
    %276 = stablehlo.xor %269, %275 : tensor<16x16xui32>
    %277 = stablehlo.slice %263 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %278 = stablehlo.reshape %277 : (tensor<1xui32>) -> tensor<ui32>
    %279 = stablehlo.add %269, %276 : tensor<16x16xui32>
    %280 = stablehlo.broadcast_in_dim %278, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %281 = stablehlo.shift_left %276, %280 : tensor<16x16xui32>
    %282 = stablehlo.subtract %c_13, %278 : tensor<ui32>
    %283 = stablehlo.broadcast_in_dim %282, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %284 = stablehlo.shift_right_logical %276, %283 : tensor<16x16xui32>
    %285 = stablehlo.or %281, %284 : tensor<16x16xui32>
    %286 = stablehlo.xor %279, %285 : tensor<16x16xui32>
    %287 = stablehlo.slice %263 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %288 = stablehlo.reshape %287 : (tensor<1xui32>) -> tensor<ui32>
    %289 = stablehlo.add %279, %286 : tensor<16x16xui32>
    %290 = stablehlo.broadcast_in_dim %288, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %291 = stablehlo.shift_left %286, %290 : tensor<16x16xui32>
    %292 = stablehlo.subtract %c_13, %288 : tensor<ui32>
    %293 = stablehlo.broadcast_in_dim %292, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %294 = stablehlo.shift_right_logical %286, %293 : tensor<16x16xui32>
    %295 = stablehlo.or %291, %294 : tensor<16x16xui32>
    %296 = stablehlo.xor %289, %295 : tensor<16x16xui32>
    %297 = stablehlo.slice %263 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %298 = stablehlo.reshape %297 : (tensor<1xui32>) -> tensor<ui32>
    %299 = stablehlo.add %289, %296 : tensor<16x16xui32>
    %300 = stablehlo.broadcast_in_dim %298, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %301 = stablehlo.shift_left %296, %300 : tensor<16x16xui32>
    %302 = stablehlo.subtract %c_13, %298 : tensor<ui32>
    %303 = stablehlo.broadcast_in_dim %302, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %304 = stablehlo.shift_right_logical %296, %303 : tensor<16x16xui32>
    %305 = stablehlo.or %301, %304 : tensor<16x16xui32>
    %306 = stablehlo.xor %299, %305 : tensor<16x16xui32>
    %307 = stablehlo.broadcast_in_dim %257, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %308 = stablehlo.add %299, %307 : tensor<16x16xui32>
    %309 = stablehlo.broadcast_in_dim %259, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %310 = stablehlo.add %306, %309 : tensor<16x16xui32>
    %311 = stablehlo.add %206, %c_12 : tensor<i32>
    %312 = stablehlo.convert %311 : (tensor<i32>) -> tensor<ui32>
    %313 = stablehlo.broadcast_in_dim %312, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %314 = stablehlo.add %310, %313 : tensor<16x16xui32>
    %315 = stablehlo.add %255, %c_12 : tensor<i32>
    %316 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %317 = stablehlo.select %316, %259, %c_1 : tensor<i1>, tensor<ui32>
    %318 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %319 = stablehlo.select %318, %261, %c_1 : tensor<i1>, tensor<ui32>
    %320 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<i1>
    %321 = stablehlo.select %320, %257, %c_1 : tensor<i1>, tensor<ui32>
    %322 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %323 = stablehlo.select %322, %265, %c : tensor<4xi1>, tensor<4xui32>
    %324 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %325 = stablehlo.select %324, %263, %c : tensor<4xi1>, tensor<4xui32>
    %326 = stablehlo.xor %308, %314 : tensor<16x16xui32>
    %327 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %328 = stablehlo.shift_right_logical %326, %327 : tensor<16x16xui32>
    %329 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<ui32>) -> tensor<16x16xui32>
    %330 = stablehlo.or %328, %329 : tensor<16x16xui32>
    %331 = stablehlo.bitcast_convert %330 : (tensor<16x16xui32>) -> tensor<16x16xf32>
    %332 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %333 = stablehlo.subtract %331, %332 : tensor<16x16xf32>
    %334 = stablehlo.broadcast_in_dim %cst, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<16x16xf32>
    %335 = stablehlo.multiply %333, %334 : tensor<16x16xf32>
    %336 = stablehlo.broadcast_in_dim %cst_0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<16x16xf32>
    %337 = stablehlo.add %335, %336 : tensor<16x16xf32>
    %338 = stablehlo.broadcast_in_dim %cst_0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<16x16xf32>
    %339 = stablehlo.maximum %338, %337 : tensor<16x16xf32>
    %340 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %341 = stablehlo.compare LT, %339, %340, FLOAT : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xi1>
    %342 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %343 = stablehlo.multiply %arg0, %342 : tensor<16x16xf32>
    %344 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %345 = stablehlo.select %341, %343, %344 : tensor<16x16xi1>, tensor<16x16xf32>
    return %345 : tensor<16x16xf32>
  }
}
