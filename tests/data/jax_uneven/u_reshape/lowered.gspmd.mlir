module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<6x2x2xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<24xf32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x4xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %3 = stablehlo.reshape %2 : (tensor<6x4xf32>) -> tensor<6x2x2xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x2x2xf32>
    %5 = stablehlo.add %3, %4 : tensor<6x2x2xf32>
    %6 = stablehlo.reshape %2 : (tensor<6x4xf32>) -> tensor<24xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<24xf32>
    return %5, %8 : tensor<6x2x2xf32>, tensor<24xf32>
  }
}
