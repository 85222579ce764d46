module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<3x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<6x5xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<6x3xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x3xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
    %2 = stablehlo.tanh %1 : tensor<6x5xf32>
    return %2 : tensor<6x5xf32>
  }
}
