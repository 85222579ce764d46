module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x3xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<3x5xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<6x5xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<6x3xf32>) -> tensor<6x3xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x3xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
    %2 = stablehlo.tanh %1 : tensor<6x5xf32>
    return %2 : tensor<6x5xf32>
  }
}
