module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["e"=4]> {stablehlo.mesh = {axes = [{name = "e", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, %arg1: tensor<4x16x4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}, {}]>}, %arg2: tensor<4x32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, %arg3: tensor<4x64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, %arg4: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}) -> (tensor<4x16x32xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, tensor<4x16x32xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, tensor<4x32x64xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}, tensor<4x64x32xf32> {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{"e"}, {}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x16x4x8xf32>) -> tensor<4x32x4x8xf32>
    %1 = stablehlo.transpose %0, dims = [2, 0, 3, 1] : (tensor<4x32x4x8xf32>) -> tensor<4x4x8x32xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"e"}, {}, {}, {}]> : tensor<4x4x8x32xf32>
    %3 = stablehlo.dot_general %2, %arg2, batching_dims = [0] x [0], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x32xf32>, tensor<4x32x64xf32>) -> tensor<4x4x8x64xf32>
    %4 = call @relu(%3) : (tensor<4x4x8x64xf32>) -> tensor<4x4x8x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x8x64xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<4x4x8x64xf32>, tensor<4x4x8x64xf32>) -> tensor<4x4x8x64xi1>
    %7 = stablehlo.dot_general %4, %arg3, batching_dims = [0] x [0], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x64xf32>, tensor<4x64x32xf32>) -> tensor<4x4x8x32xf32>
    %8 = sdy.sharding_constraint %7 <@mesh, [{}, {"e"}, {}, {}]> : tensor<4x4x8x32xf32>
    %9 = stablehlo.dot_general %arg1, %8, batching_dims = [0] x [1], contracting_dims = [3, 2] x [2, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x4x8xf32>, tensor<4x4x8x32xf32>) -> tensor<4x16x32xf32>
    %10 = stablehlo.dot_general %arg4, %arg1, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x16x4x8xf32>) -> tensor<4x32x4x8xf32>
    %11 = stablehlo.transpose %10, dims = [2, 0, 3, 1] : (tensor<4x32x4x8xf32>) -> tensor<4x4x8x32xf32>
    %12 = sdy.sharding_constraint %11 <@mesh, [{}, {"e"}, {}, {}]> : tensor<4x4x8x32xf32>
    %13 = stablehlo.dot_general %12, %4, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x32xf32>, tensor<4x4x8x64xf32>) -> tensor<4x32x64xf32>
    %14 = stablehlo.transpose %13, dims = [0, 2, 1] : (tensor<4x32x64xf32>) -> tensor<4x64x32xf32>
    %15 = stablehlo.dot_general %12, %arg3, batching_dims = [0] x [0], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x32xf32>, tensor<4x64x32xf32>) -> tensor<4x4x8x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4x8x64xf32>
    %17 = stablehlo.select %6, %15, %16 : tensor<4x4x8x64xi1>, tensor<4x4x8x64xf32>
    %18 = stablehlo.dot_general %17, %2, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x64xf32>, tensor<4x4x8x32xf32>) -> tensor<4x64x32xf32>
    %19 = stablehlo.transpose %18, dims = [0, 2, 1] : (tensor<4x64x32xf32>) -> tensor<4x32x64xf32>
    %20 = stablehlo.dot_general %17, %arg2, batching_dims = [0] x [0], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x8x64xf32>, tensor<4x32x64xf32>) -> tensor<4x4x8x32xf32>
    %21 = sdy.sharding_constraint %20 <@mesh, [{"e"}, {}, {}, {}]> : tensor<4x4x8x32xf32>
    %22 = stablehlo.transpose %21, dims = [1, 3, 0, 2] : (tensor<4x4x8x32xf32>) -> tensor<4x32x4x8xf32>
    %23 = stablehlo.dot_general %22, %arg1, batching_dims = [0] x [0], contracting_dims = [2, 3] x [2, 3], precision = [DEFAULT, DEFAULT] : (tensor<4x32x4x8xf32>, tensor<4x16x4x8xf32>) -> tensor<4x32x16xf32>
    %24 = stablehlo.transpose %23, dims = [0, 2, 1] : (tensor<4x32x16xf32>) -> tensor<4x16x32xf32>
    return %9, %24, %19, %14 : tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>
  }
  func.func private @relu(%arg0: tensor<4x4x8x64xf32>) -> tensor<4x4x8x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4x8x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x4x8x64xf32>
    return %1 : tensor<4x4x8x64xf32>
  }
}
