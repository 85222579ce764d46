module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x3xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<f32> {mhlo.sharding = "{replicated}"}) -> (tensor<3xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<6x3xf32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x3xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<6x3xf32>) -> tensor<6x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.compare GT, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.convert %3 : (tensor<i1>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %cst_3 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
      %11 = stablehlo.multiply %2, %10 : tensor<6x3xf32>
      stablehlo.return %11 : tensor<6x3xf32>
    }, {
      %10 = stablehlo.tanh %2 : tensor<6x3xf32>
      stablehlo.return %10 : tensor<6x3xf32>
    }) : (tensor<i32>) -> tensor<6x3xf32>
    %6 = stablehlo.custom_call @Sharding(%5) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<6x3xf32>) -> tensor<6x3xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %8 = stablehlo.add %6, %7 : tensor<6x3xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<6x3xf32>, tensor<f32>) -> tensor<3xf32>
    return %9, %5 : tensor<3xf32>, tensor<6x3xf32>
  }
}
