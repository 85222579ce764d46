module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16x64xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<64x8x8xf32> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg2: tensor<64x8x8xf32> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg3: tensor<64x8x8xf32> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg4: tensor<8x8x64xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg5: tensor<2x16x64xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<2x16x64xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<2x16x64xf32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}, tensor<64x8x8xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, tensor<64x8x8xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, tensor<64x8x8xf32> {jax.result_info = "result[4]", mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, tensor<8x8x64xf32> {jax.result_info = "result[5]", mhlo.sharding = "{devices=[4,1,1]<=[4]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x8x8xf32>) -> tensor<2x16x8x8xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x8x8xf32>) -> tensor<2x16x8x8xf32>
    %2 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<64x8x8xf32>) -> tensor<2x16x8x8xf32>
    %3 = stablehlo.dot_general %0, %1, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<2x16x8x8xf32>) -> tensor<2x8x16x16xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x16x16xf32>
    %5 = stablehlo.divide %3, %4 : tensor<2x8x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<2x8x16x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8x16xf32>
    %8 = stablehlo.maximum %7, %6 : tensor<2x8x16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x8x16xf32>) -> tensor<2x8x16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<2x8x16x1xf32>) -> tensor<2x8x16x16xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x8x16x16xf32>
    %12 = stablehlo.exponential %11 : tensor<2x8x16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<2x8x16x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x8x16xf32>) -> tensor<2x8x16x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<2x8x16x1xf32>) -> tensor<2x8x16x16xf32>
    %16 = stablehlo.divide %12, %15 : tensor<2x8x16x16xf32>
    %17 = stablehlo.multiply %14, %14 : tensor<2x8x16x1xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x8x16x1xf32>
    %19 = stablehlo.divide %18, %17 : tensor<2x8x16x1xf32>
    %20 = stablehlo.dot_general %2, %16, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<2x8x16x16xf32>) -> tensor<2x8x8x16xf32>
    %21 = stablehlo.transpose %20, dims = [0, 3, 1, 2] : (tensor<2x8x8x16xf32>) -> tensor<2x16x8x8xf32>
    %22 = stablehlo.dot_general %21, %arg4, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<8x8x64xf32>) -> tensor<2x16x64xf32>
    %23 = stablehlo.dot_general %arg5, %21, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<2x16x8x8xf32>) -> tensor<64x8x8xf32>
    %24 = stablehlo.transpose %23, dims = [1, 2, 0] : (tensor<64x8x8xf32>) -> tensor<8x8x64xf32>
    %25 = stablehlo.dot_general %arg5, %arg4, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xf32>, tensor<8x8x64xf32>) -> tensor<2x16x8x8xf32>
    %26 = stablehlo.transpose %25, dims = [0, 2, 3, 1] : (tensor<2x16x8x8xf32>) -> tensor<2x8x8x16xf32>
    %27 = stablehlo.dot_general %26, %2, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8x16xf32>, tensor<2x16x8x8xf32>) -> tensor<2x8x16x16xf32>
    %28 = stablehlo.dot_general %26, %16, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8x16xf32>, tensor<2x8x16x16xf32>) -> tensor<2x8x8x16xf32>
    %29 = stablehlo.transpose %28, dims = [0, 3, 1, 2] : (tensor<2x8x8x16xf32>) -> tensor<2x16x8x8xf32>
    %30 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<2x8x16x1xf32>) -> tensor<2x8x16x16xf32>
    %31 = stablehlo.multiply %27, %30 : tensor<2x8x16x16xf32>
    %32 = stablehlo.multiply %31, %12 : tensor<2x8x16x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.reduce(%32 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<2x8x16x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
    %34 = stablehlo.reshape %33 : (tensor<2x8x16xf32>) -> tensor<2x8x16x1xf32>
    %35 = stablehlo.negate %34 : tensor<2x8x16x1xf32>
    %36 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<2x8x16x1xf32>) -> tensor<2x8x16x16xf32>
    %37 = stablehlo.divide %27, %36 : tensor<2x8x16x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%35 init: %cst_5) applies stablehlo.add across dimensions = [3] : (tensor<2x8x16x1xf32>, tensor<f32>) -> tensor<2x8x16xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<2x8x16xf32>) -> tensor<2x8x16x16xf32>
    %40 = stablehlo.add %37, %39 : tensor<2x8x16x16xf32>
    %41 = stablehlo.multiply %40, %12 : tensor<2x8x16x16xf32>
    %cst_6 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x8x16x16xf32>
    %43 = stablehlo.divide %41, %42 : tensor<2x8x16x16xf32>
    %44 = stablehlo.dot_general %43, %0, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16x16xf32>, tensor<2x16x8x8xf32>) -> tensor<2x8x16x8xf32>
    %45 = stablehlo.transpose %44, dims = [0, 2, 1, 3] : (tensor<2x8x16x8xf32>) -> tensor<2x16x8x8xf32>
    %46 = stablehlo.dot_general %43, %1, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x16x16xf32>, tensor<2x16x8x8xf32>) -> tensor<2x8x16x8xf32>
    %47 = stablehlo.transpose %46, dims = [0, 2, 1, 3] : (tensor<2x8x16x8xf32>) -> tensor<2x16x8x8xf32>
    %48 = stablehlo.dot_general %29, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<2x16x64xf32>) -> tensor<8x8x64xf32>
    %49 = stablehlo.transpose %48, dims = [2, 0, 1] : (tensor<8x8x64xf32>) -> tensor<64x8x8xf32>
    %50 = stablehlo.dot_general %29, %arg3, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<64x8x8xf32>) -> tensor<2x16x64xf32>
    %51 = stablehlo.dot_general %45, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<2x16x64xf32>) -> tensor<8x8x64xf32>
    %52 = stablehlo.transpose %51, dims = [2, 0, 1] : (tensor<8x8x64xf32>) -> tensor<64x8x8xf32>
    %53 = stablehlo.dot_general %45, %arg2, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<64x8x8xf32>) -> tensor<2x16x64xf32>
    %54 = stablehlo.add %50, %53 : tensor<2x16x64xf32>
    %55 = stablehlo.dot_general %47, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<2x16x64xf32>) -> tensor<8x8x64xf32>
    %56 = stablehlo.transpose %55, dims = [2, 0, 1] : (tensor<8x8x64xf32>) -> tensor<64x8x8xf32>
    %57 = stablehlo.dot_general %47, %arg1, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<2x16x8x8xf32>, tensor<64x8x8xf32>) -> tensor<2x16x64xf32>
    %58 = stablehlo.add %54, %57 : tensor<2x16x64xf32>
    return %22, %58, %56, %52, %49, %24 : tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<64x8x8xf32>, tensor<8x8x64xf32>
  }
}
