module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xi32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<8x16x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8]}"}) -> (tensor<64x32xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %2 = stablehlo.compare LT, %arg0, %1, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %4 = stablehlo.add %arg0, %3 : tensor<8x16xi32>
    %5 = stablehlo.select %2, %4, %arg0 : tensor<8x16xi1>, tensor<8x16xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<8x16xi32>) -> tensor<8x16x1xi32>
    %7 = "stablehlo.scatter"(%0, %6, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %8 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<64x32xf32>, tensor<8x16x1xi32>, tensor<8x16x32xf32>) -> tensor<64x32xf32>
    return %7 : tensor<64x32xf32>
  }
}
