module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<6x3xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<6x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0) : tensor<i32>, tensor<6x3xf32>
    cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @closed_call(%iterArg_0) : (tensor<6x3xf32>) -> tensor<6x3xf32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %3, %2 : tensor<i32>, tensor<6x3xf32>
    }
    return %1#1 : tensor<6x3xf32>
  }
  func.func private @closed_call(%arg0: tensor<6x3xf32>) -> tensor<6x3xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<6x3xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<6x3xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %4 = stablehlo.add %2, %3 : tensor<6x3xf32>
    %5 = sdy.sharding_constraint %4 <@mesh, [{"x"}, {}]> : tensor<6x3xf32>
    return %5 : tensor<6x3xf32>
  }
}
