module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=4]> {stablehlo.mesh = {axes = [{name = "d", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<512x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}, %arg1: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}, %arg2: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<64x128xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}, tensor<128x64xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x64xf32>, tensor<64x128xf32>) -> tensor<512x128xf32>
    %1 = call @relu(%0) : (tensor<512x128xf32>) -> tensor<512x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<512x128xf32>, tensor<512x128xf32>) -> tensor<512x128xi1>
    %4 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x128xf32>, tensor<128x64xf32>) -> tensor<512x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<512x64xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<512x64xf32>
    %7 = stablehlo.dot_general %6, %1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x64xf32>, tensor<512x128xf32>) -> tensor<64x128xf32>
    %8 = stablehlo.transpose %7, dims = [1, 0] : (tensor<64x128xf32>) -> tensor<128x64xf32>
    %9 = stablehlo.dot_general %6, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<512x64xf32>, tensor<128x64xf32>) -> tensor<512x128xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %11 = stablehlo.select %3, %9, %10 : tensor<512x128xi1>, tensor<512x128xf32>
    %12 = stablehlo.dot_general %11, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x128xf32>, tensor<512x64xf32>) -> tensor<128x64xf32>
    %13 = stablehlo.transpose %12, dims = [1, 0] : (tensor<128x64xf32>) -> tensor<64x128xf32>
    return %5, %13, %8 : tensor<f32>, tensor<64x128xf32>, tensor<128x64xf32>
  }
  func.func private @relu(%arg0: tensor<512x128xf32>) -> tensor<512x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<512x128xf32>
    return %1 : tensor<512x128xf32>
  }
}
