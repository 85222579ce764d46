module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x7xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<7x5xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<4x5xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.exponential %arg0 : tensor<4x7xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{devices=[1,4,2]<=[8] last_tile_dim_replicate}"} : (tensor<4x7xf32>) -> tensor<4x7xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x5xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<7x5xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<7x5xf32>) -> tensor<7x5xf32>
    %5 = stablehlo.dot_general %1, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x7xf32>, tensor<7x5xf32>) -> tensor<4x5xf32>
    return %5 : tensor<4x5xf32>
  }
}
