module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["m"=4]> {stablehlo.mesh = {axes = [{name = "m", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}, %arg1: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"m"}]>}, %arg2: tensor<256x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}, %arg3: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}) -> (tensor<32x64xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}, tensor<32x64xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}, tensor<64x256xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"m"}]>}, tensor<256x64xf32> {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<32x64xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<32x64xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<32x64xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %cst_3 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<32x1xf32>
    %13 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %14 = stablehlo.subtract %arg0, %13 : tensor<32x64xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %16 = stablehlo.add %12, %15 : tensor<32x1xf32>
    %17 = stablehlo.rsqrt %16 : tensor<32x1xf32>
    %18 = stablehlo.divide %17, %16 : tensor<32x1xf32>
    %cst_5 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<32x1xf32>
    %21 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %22 = stablehlo.multiply %14, %21 : tensor<32x64xf32>
    %23 = stablehlo.dot_general %22, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32>
    %24 = stablehlo.multiply %23, %23 : tensor<32x256xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<32x256xf32>
    %26 = stablehlo.multiply %23, %23 : tensor<32x256xf32>
    %cst_6 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<32x256xf32>
    %cst_7 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %30 = stablehlo.multiply %29, %25 : tensor<32x256xf32>
    %31 = stablehlo.add %23, %30 : tensor<32x256xf32>
    %cst_8 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<32x256xf32>
    %34 = stablehlo.tanh %33 : tensor<32x256xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %36 = stablehlo.subtract %35, %34 : tensor<32x256xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %38 = stablehlo.add %37, %34 : tensor<32x256xf32>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %40 = stablehlo.multiply %39, %38 : tensor<32x256xf32>
    %41 = stablehlo.multiply %23, %40 : tensor<32x256xf32>
    %42 = sdy.sharding_constraint %41 <@mesh, [{}, {"m"}]> : tensor<32x256xf32>
    %43 = stablehlo.dot_general %42, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
    %44 = sdy.sharding_constraint %43 <@mesh, [{"m"}, {}]> : tensor<32x64xf32>
    %45 = sdy.sharding_constraint %arg3 <@mesh, [{"m"}, {}]> : tensor<32x64xf32>
    %46 = stablehlo.dot_general %45, %42, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<32x256xf32>) -> tensor<64x256xf32>
    %47 = stablehlo.transpose %46, dims = [1, 0] : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %48 = stablehlo.dot_general %45, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %49 = sdy.sharding_constraint %48 <@mesh, [{}, {"m"}]> : tensor<32x256xf32>
    %50 = stablehlo.multiply %23, %49 : tensor<32x256xf32>
    %51 = stablehlo.multiply %49, %40 : tensor<32x256xf32>
    %cst_12 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %53 = stablehlo.multiply %52, %50 : tensor<32x256xf32>
    %54 = stablehlo.multiply %53, %36 : tensor<32x256xf32>
    %55 = stablehlo.multiply %54, %34 : tensor<32x256xf32>
    %56 = stablehlo.add %54, %55 : tensor<32x256xf32>
    %cst_13 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %58 = stablehlo.multiply %57, %56 : tensor<32x256xf32>
    %59 = stablehlo.add %51, %58 : tensor<32x256xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
    %61 = stablehlo.multiply %60, %58 : tensor<32x256xf32>
    %62 = stablehlo.multiply %61, %28 : tensor<32x256xf32>
    %63 = stablehlo.add %59, %62 : tensor<32x256xf32>
    %64 = stablehlo.dot_general %63, %22, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<32x64xf32>) -> tensor<256x64xf32>
    %65 = stablehlo.transpose %64, dims = [1, 0] : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %66 = stablehlo.dot_general %63, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x256xf32>, tensor<64x256xf32>) -> tensor<32x64xf32>
    %67 = stablehlo.multiply %14, %66 : tensor<32x64xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_15) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %69 = stablehlo.reshape %68 : (tensor<32xf32>) -> tensor<32x1xf32>
    %70 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %71 = stablehlo.multiply %66, %70 : tensor<32x64xf32>
    %72 = stablehlo.multiply %69, %20 : tensor<32x1xf32>
    %73 = stablehlo.negate %71 : tensor<32x64xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_16) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %75 = stablehlo.reshape %74 : (tensor<32xf32>) -> tensor<32x1xf32>
    %cst_17 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %77 = stablehlo.divide %72, %76 : tensor<32x1xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.reduce(%77 init: %cst_18) applies stablehlo.add across dimensions = [1] : (tensor<32x1xf32>, tensor<f32>) -> tensor<32xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %80 = stablehlo.multiply %79, %8 : tensor<32x64xf32>
    %81 = stablehlo.negate %80 : tensor<32x64xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.reduce(%81 init: %cst_19) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %83 = stablehlo.reshape %82 : (tensor<32xf32>) -> tensor<32x1xf32>
    %84 = stablehlo.add %71, %80 : tensor<32x64xf32>
    %85 = stablehlo.add %75, %83 : tensor<32x1xf32>
    %cst_20 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<32x1xf32>
    %87 = stablehlo.divide %85, %86 : tensor<32x1xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.reduce(%87 init: %cst_21) applies stablehlo.add across dimensions = [1] : (tensor<32x1xf32>, tensor<f32>) -> tensor<32xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %90 = stablehlo.add %84, %89 : tensor<32x64xf32>
    return %44, %90, %65, %47 : tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x256xf32>, tensor<256x64xf32>
  }
}
