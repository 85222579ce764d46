module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8x8x4xf32> {mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg2: tensor<4x4x4x4xf32> {mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}) -> (tensor<4x4x4x4xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}, tensor<4x8x8x4xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}, tensor<4x8x8x4xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}, tensor<8x16xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<4x8x8x4xf32> {jax.result_info = "result[4]", mhlo.sharding = "{devices=[2,1,1,4]<=[8]}"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.maximum %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x4x4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%arg0, %2) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %cst_1 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x8x4xf32>
    %5 = stablehlo.divide %3, %4 : tensor<4x8x8x4xf32>
    %6 = call @cumsum(%arg0) : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32>
    %7 = call @cumsum_1(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.reduce_window"(%arg0, %8) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %cst_3 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8x8x4xf32>
    %11 = stablehlo.divide %9, %10 : tensor<4x8x8x4xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x8x4xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<4x8x8x4xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8x8x4xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<4x8x8x4xf32>
    %cst_6 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x8x4xf32>
    %17 = stablehlo.divide %15, %16 : tensor<4x8x8x4xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.pad %17, %cst_7, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x10x10x4xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<f32>
    %20 = "stablehlo.reduce_window"(%18, %19) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<4x10x10x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x4x4x4xf32>
    %22 = stablehlo.multiply %21, %arg2 : tensor<4x4x4x4xf32>
    %cst_10 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %23 = stablehlo.pad %arg0, %cst_10, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = "stablehlo.select_and_scatter"(%23, %22, %cst_11) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<4x8x8x4xf32>, tensor<4x4x4x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %25 = stablehlo.slice %24 [0:4, 0:8, 0:8, 0:4] : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32>
    %26 = stablehlo.add %20, %25 : tensor<4x8x8x4xf32>
    return %1, %5, %6, %7, %26 : tensor<4x4x4x4xf32>, tensor<4x8x8x4xf32>, tensor<4x8x8x4xf32>, tensor<8x16xf32>, tensor<4x8x8x4xf32>
  }
  func.func private @cumsum(%arg0: tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32>
    return %0 : tensor<4x8x8x4xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<4x8x8x4xf32>) -> tensor<4x8x8x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [7, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 8, 1, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    return %1 : tensor<4x8x8x4xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = call @cumsum_2(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @cumsum_2(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
