module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<3xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<3x5xf32>
    %1 = stablehlo.negate %0 : tensor<3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3 = stablehlo.subtract %1, %2 : tensor<3x5xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "", mhlo.sharding = "{devices=[1,8]<=[8]}"} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
    return %5 : tensor<3xf32>
  }
}
