module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x64xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<64x256xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg2: tensor<256x64xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg3: tensor<32x64xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<32x64xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<32x64xf32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}, tensor<64x256xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,4]<=[4]}"}, tensor<256x64xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<32x256xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<32x256xf32>
    %3 = stablehlo.multiply %0, %0 : tensor<32x256xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<32x256xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %7 = stablehlo.multiply %6, %2 : tensor<32x256xf32>
    %8 = stablehlo.add %0, %7 : tensor<32x256xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<32x256xf32>
    %11 = stablehlo.tanh %10 : tensor<32x256xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %13 = stablehlo.subtract %12, %11 : tensor<32x256xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %15 = stablehlo.add %14, %11 : tensor<32x256xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %17 = stablehlo.multiply %16, %15 : tensor<32x256xf32>
    %18 = stablehlo.multiply %0, %17 : tensor<32x256xf32>
    %19 = stablehlo.dot_general %18, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
    %20 = stablehlo.dot_general %arg3, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<32x256xf32>) -> tensor<64x256xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %22 = stablehlo.dot_general %arg3, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %23 = stablehlo.multiply %0, %22 : tensor<32x256xf32>
    %24 = stablehlo.multiply %22, %17 : tensor<32x256xf32>
    %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %26 = stablehlo.multiply %25, %23 : tensor<32x256xf32>
    %27 = stablehlo.multiply %26, %13 : tensor<32x256xf32>
    %28 = stablehlo.multiply %27, %11 : tensor<32x256xf32>
    %29 = stablehlo.add %27, %28 : tensor<32x256xf32>
    %cst_6 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<32x256xf32>
    %32 = stablehlo.add %24, %31 : tensor<32x256xf32>
    %cst_7 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %34 = stablehlo.multiply %33, %31 : tensor<32x256xf32>
    %35 = stablehlo.multiply %34, %5 : tensor<32x256xf32>
    %36 = stablehlo.add %32, %35 : tensor<32x256xf32>
    %37 = stablehlo.dot_general %36, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<32x64xf32>) -> tensor<256x64xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0] : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %39 = stablehlo.dot_general %36, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<64x256xf32>) -> tensor<32x64xf32>
    return %19, %39, %38, %21 : tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x256xf32>, tensor<256x64xf32>
  }
}
