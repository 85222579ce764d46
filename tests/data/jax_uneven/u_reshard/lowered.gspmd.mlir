module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7x4xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<7xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<7x4xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<7x4xf32>) -> tensor<7x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<7x4xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : (tensor<7x4xf32>) -> tensor<7x4xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<7x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<7x4xf32>, tensor<f32>) -> tensor<7xf32>
    return %8 : tensor<7xf32>
  }
}
