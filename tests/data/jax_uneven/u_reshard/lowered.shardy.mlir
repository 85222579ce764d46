module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<7x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<7xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<7x4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<7x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<7x4xf32>
    %5 = sdy.sharding_constraint %4 <@mesh, [{}, {"y"}]> : tensor<7x4xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<7x4xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<7x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<7x4xf32>, tensor<f32>) -> tensor<7xf32>
    return %8 : tensor<7xf32>
  }
}
