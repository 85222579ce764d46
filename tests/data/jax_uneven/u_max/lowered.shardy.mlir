module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<3x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<3xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<3x5xf32>
    %1 = stablehlo.negate %0 : tensor<3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3 = stablehlo.subtract %1, %2 : tensor<3x5xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{}, {"x", "y"}]> : tensor<3x5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
    return %5 : tensor<3xf32>
  }
}
