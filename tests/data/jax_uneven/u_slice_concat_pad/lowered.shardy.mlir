module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<2x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<4x3xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<8x3xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<9x4xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x3xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<6x3xf32>
    %3 = stablehlo.slice %2 [1:5, 0:3] : (tensor<6x3xf32>) -> tensor<4x3xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %5 = stablehlo.add %3, %4 : tensor<4x3xf32>
    %6 = stablehlo.concatenate %2, %arg1, dim = 0 : (tensor<6x3xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<8x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = call @_pad(%2, %c) : (tensor<6x3xf32>, tensor<i32>) -> tensor<9x4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<9x4xf32>
    %11 = stablehlo.subtract %9, %10 : tensor<9x4xf32>
    return %5, %8, %11 : tensor<4x3xf32>, tensor<8x3xf32>, tensor<9x4xf32>
  }
  func.func private @_pad(%arg0: tensor<6x3xf32>, %arg1: tensor<i32>) -> tensor<9x4xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [2, 1], interior = [0, 0] : (tensor<6x3xf32>, tensor<f32>) -> tensor<9x4xf32>
    return %1 : tensor<9x4xf32>
  }
}
