module @jit_stage attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x64x64xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg1: tensor<4x8x64xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<4x4x8x64xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[4,1,1,1]<=[4]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x64x64xf32>) -> tensor<1x64x64xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %4 = call @shmap_body(%1, %3) : (tensor<1x64x64xf32>, tensor<4x8x64xf32>) -> tensor<1x4x8x64xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<1x4x8x64xf32>) -> tensor<1x4x8x64xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[4,1,1,1]<=[4]}"} : (tensor<1x4x8x64xf32>) -> tensor<4x4x8x64xf32>
    return %6 : tensor<4x4x8x64xf32>
  }
  func.func private @shmap_body(%arg0: tensor<1x64x64xf32>, %arg1: tensor<4x8x64xf32>) -> (tensor<1x4x8x64xf32> {jax.result_info = "[('pp',), None, None, None]"}) {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %0 = stablehlo.partition_id : tensor<ui32>
    %1 = stablehlo.divide %0, %c : tensor<ui32>
    %2 = stablehlo.remainder %1, %c_0 : tensor<ui32>
    %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare EQ, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.slice %arg1 [0:1, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
    %8 = call @_where(%5, %7, %4) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %9 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %10 = stablehlo.dot_general %8, %9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %11 = stablehlo.tanh %10 : tensor<8x64xf32>
    %12 = "stablehlo.collective_permute"(%11) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.compare EQ, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %14 = stablehlo.slice %arg1 [1:2, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
    %16 = call @_where_0(%13, %15, %12) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %18 = stablehlo.dot_general %16, %17, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %19 = stablehlo.tanh %18 : tensor<8x64xf32>
    %20 = "stablehlo.collective_permute"(%19) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.compare EQ, %3, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %22 = stablehlo.slice %arg1 [2:3, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
    %23 = stablehlo.reshape %22 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
    %24 = call @_where_0(%21, %23, %20) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %25 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %26 = stablehlo.dot_general %24, %25, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %27 = stablehlo.tanh %26 : tensor<8x64xf32>
    %28 = "stablehlo.collective_permute"(%27) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.compare EQ, %3, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %30 = stablehlo.slice %arg1 [3:4, 0:8, 0:64] : (tensor<4x8x64xf32>) -> tensor<1x8x64xf32>
    %31 = stablehlo.reshape %30 : (tensor<1x8x64xf32>) -> tensor<8x64xf32>
    %32 = call @_where_0(%29, %31, %28) : (tensor<i1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %33 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %34 = stablehlo.dot_general %32, %33, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %35 = stablehlo.tanh %34 : tensor<8x64xf32>
    %36 = "stablehlo.collective_permute"(%35) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %37 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %38 = stablehlo.dot_general %36, %37, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %39 = stablehlo.tanh %38 : tensor<8x64xf32>
    %40 = "stablehlo.collective_permute"(%39) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %41 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %42 = stablehlo.dot_general %40, %41, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %43 = stablehlo.tanh %42 : tensor<8x64xf32>
    %44 = "stablehlo.collective_permute"(%43) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %45 = stablehlo.reshape %arg0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %46 = stablehlo.dot_general %44, %45, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %47 = stablehlo.tanh %46 : tensor<8x64xf32>
    %48 = stablehlo.broadcast_in_dim %35, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
    %49 = stablehlo.broadcast_in_dim %39, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
    %50 = stablehlo.broadcast_in_dim %43, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
    %51 = stablehlo.broadcast_in_dim %47, dims = [1, 2] : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
    %52 = stablehlo.concatenate %48, %49, %50, %51, dim = 0 : (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) -> tensor<4x8x64xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [1, 2, 3] : (tensor<4x8x64xf32>) -> tensor<1x4x8x64xf32>
    return %53 : tensor<1x4x8x64xf32>
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
