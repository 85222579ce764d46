module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<4x8xi32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> (tensor<4x8x16xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,4,1]<=[8]}"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<32x16xf32>, tensor<4x8xi32>) -> tensor<4x8x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x16xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<4x8x16xf32>
    return %2 : tensor<4x8x16xf32>
  }
  func.func private @_take(%arg0: tensor<32x16xf32>, %arg1: tensor<4x8xi32>) -> tensor<4x8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<4x8xi32>) -> tensor<4x8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<32x16xf32>, tensor<4x8x1xi32>) -> tensor<4x8x16xf32>
    return %1 : tensor<4x8x16xf32>
  }
}
