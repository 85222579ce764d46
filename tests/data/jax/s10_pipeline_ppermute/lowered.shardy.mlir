module @jit_stage attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["pp"=4]> {stablehlo.mesh = {axes = [{name = "pp", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"pp"}, {}, {}]>}, %arg1: tensor<4x8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}) -> (tensor<4x4x8x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"pp"}, {}, {}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"pp"}, {}, {}]>, <@mesh, [{}, {}, {}]>] out_shardings=[<@mesh, [{"pp"}, {}, {}, {}]>] manual_axes={"pp"} (%arg2: tensor<1x64x64xf32>, %arg3: tensor<4x8x64xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %6 = stablehlo.compare EQ, %4, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.slice %arg3 [0:1, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
      %8 = stablehlo.reshape %7 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
      %9 = func.call @_where(%6, %8, %5) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %10 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %11 = stablehlo.dot_general %9, %10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %12 = stablehlo.tanh %11 : tensor<8x64xf32>
      %13 = "stablehlo.collective_permute"(%12) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %14 = stablehlo.compare EQ, %4, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %15 = stablehlo.slice %arg3 [1:2, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
      %16 = stablehlo.reshape %15 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
      %17 = func.call @_where_0(%14, %16, %13) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %18 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %19 = stablehlo.dot_general %17, %18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %20 = stablehlo.tanh %19 : tensor<8x64xf32>
      %21 = "stablehlo.collective_permute"(%20) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %22 = stablehlo.compare EQ, %4, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %23 = stablehlo.slice %arg3 [2:3, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
      %24 = stablehlo.reshape %23 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
      %25 = func.call @_where_0(%22, %24, %21) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %26 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %27 = stablehlo.dot_general %25, %26, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %28 = stablehlo.tanh %27 : tensor<8x64xf32>
      %29 = "stablehlo.collective_permute"(%28) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %c_4 = stablehlo.constant dense<0> : tensor<i32>
      %30 = stablehlo.compare EQ, %4, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %31 = stablehlo.slice %arg3 [3:4, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
      %32 = stablehlo.reshape %31 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
      %33 = func.call @_where_0(%30, %32, %29) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
      %34 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %35 = stablehlo.dot_general %33, %34, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %36 = stablehlo.tanh %35 : tensor<8x64xf32>
      %37 = "stablehlo.collective_permute"(%36) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %38 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %39 = stablehlo.dot_general %37, %38, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %40 = stablehlo.tanh %39 : tensor<8x64xf32>
      %41 = "stablehlo.collective_permute"(%40) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %42 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %43 = stablehlo.dot_general %41, %42, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %44 = stablehlo.tanh %43 : tensor<8x64xf32>
      %45 = "stablehlo.collective_permute"(%44) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
      %46 = stablehlo.reshape %arg2 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %47 = stablehlo.dot_general %45, %46, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %48 = stablehlo.tanh %47 : tensor<8x64xf32>
      %49 = stablehlo.broadcast_in_dim %36, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
      %50 = stablehlo.broadcast_in_dim %40, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
      %51 = stablehlo.broadcast_in_dim %44, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
      %52 = stablehlo.broadcast_in_dim %48, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
      %53 = stablehlo.concatenate %49, %50, %51, %52, dim = 0 : (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) -> tensor<4x8x64xf32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [1, 2, 3] : (tensor<4x8x64xf32>) -> tensor<1x4x8x64xf32>
      sdy.return %54 : tensor<1x4x8x64xf32>
    } : (tensor<4x64x64xf32>, tensor<4x8x64xf32>) -> tensor<4x4x8x64xf32>
    return %0 : tensor<4x4x8x64xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<8x64xf32>, %arg2: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<8x64xf32>
    return %0 : tensor<8x64xf32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<8x64xf32>, %arg2: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<8x64xf32>
    return %0 : tensor<8x64xf32>
  }
}
