module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<4x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<7x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<4x5xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.exponential %arg0 : tensor<4x7xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x"}]> : tensor<4x7xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x5xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<7x5xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{"x"}, {}]> : tensor<7x5xf32>
    %5 = stablehlo.dot_general %1, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x7xf32>, tensor<7x5xf32>) -> tensor<4x5xf32>
    return %5 : tensor<4x5xf32>
  }
}
