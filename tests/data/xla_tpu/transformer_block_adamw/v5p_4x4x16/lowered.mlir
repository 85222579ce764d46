module @jit_train_step attributes {mhlo.num_partitions = 256 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=32, "model"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 32 : i64}, {name = "model", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg1: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<1024x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg7: tensor<4096x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg8: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg9: tensor<16x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg10: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg11: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg12: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg13: tensor<4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg14: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg15: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg16: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<1024x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg20: tensor<4096x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg21: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg22: tensor<16x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg23: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg24: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg25: tensor<4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg26: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg27: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg28: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg29: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg30: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg31: tensor<1024x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg32: tensor<4096x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg33: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg34: tensor<16x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg35: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg36: tensor<1024x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg37: tensor<64x512x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg38: tensor<64x512x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<4096xf32> {jax.result_info = "result[0]['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, tensor<1024xf32> {jax.result_info = "result[0]['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[0]['ln1_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[0]['ln1_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[0]['ln2_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[0]['ln2_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024x4096xf32> {jax.result_info = "result[0]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<4096x1024xf32> {jax.result_info = "result[0]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[0]['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<16x64x1024xf32> {jax.result_info = "result[0]['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[0]['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[0]['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<4096xf32> {jax.result_info = "result[1][0].mu['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['ln1_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['ln1_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['ln2_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['ln2_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024x4096xf32> {jax.result_info = "result[1][0].mu['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<4096x1024xf32> {jax.result_info = "result[1][0].mu['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].mu['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<16x64x1024xf32> {jax.result_info = "result[1][0].mu['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].mu['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].mu['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<4096xf32> {jax.result_info = "result[1][0].nu['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['ln1_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['ln1_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['ln2_b']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['ln2_g']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<1024x4096xf32> {jax.result_info = "result[1][0].nu['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<4096x1024xf32> {jax.result_info = "result[1][0].nu['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].nu['wk']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<16x64x1024xf32> {jax.result_info = "result[1][0].nu['wo']", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].nu['wq']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<1024x16x64xf32> {jax.result_info = "result[1][0].nu['wv']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg37 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %cst_0 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<64x512x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %5 = stablehlo.subtract %arg37, %4 : tensor<64x512x1024xf32>
    %6 = chlo.square %5 : tensor<64x512x1024xf32> -> tensor<64x512x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %cst_2 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<64x512x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %12 = stablehlo.subtract %arg37, %11 : tensor<64x512x1024xf32>
    %cst_3 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<64x512x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<64x512x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<64x512x1024xf32>
    %18 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<64x512x1024xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %23 = stablehlo.add %20, %22 : tensor<64x512x1024xf32>
    %24 = stablehlo.dot_general %23, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x16x64xf32>
    %25 = stablehlo.dot_general %23, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x16x64xf32>
    %26 = stablehlo.dot_general %23, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x16x64xf32>
    %27 = stablehlo.dot_general %24, %25, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<64x512x16x64xf32>) -> tensor<64x16x512x512xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x16x512x512xf32>
    %29 = stablehlo.divide %27, %28 : tensor<64x16x512x512xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %30 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<512x512xi1>
    %31 = call @tril(%30) : (tensor<512x512xi1>) -> tensor<512x512xi1>
    %cst_5 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %32:2 = call @_where(%31, %29, %cst_5) : (tensor<512x512xi1>, tensor<64x16x512x512xf32>, tensor<f32>) -> (tensor<64x16x512x512xf32>, tensor<64x16x512x512xi1>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %33 = stablehlo.reduce(%32#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<64x16x512x512xf32>, tensor<f32>) -> tensor<64x16x512xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x16x512xf32>
    %35 = stablehlo.maximum %34, %33 : tensor<64x16x512xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<64x16x512xf32>) -> tensor<64x16x512x1xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<64x16x512x1xf32>) -> tensor<64x16x512x512xf32>
    %38 = stablehlo.subtract %32#0, %37 : tensor<64x16x512x512xf32>
    %39 = stablehlo.exponential %38 : tensor<64x16x512x512xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<64x16x512x512xf32>, tensor<f32>) -> tensor<64x16x512xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<64x16x512xf32>) -> tensor<64x16x512x1xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<64x16x512x1xf32>) -> tensor<64x16x512x512xf32>
    %43 = stablehlo.divide %39, %42 : tensor<64x16x512x512xf32>
    %44 = stablehlo.multiply %41, %41 : tensor<64x16x512x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<64x16x512x1xf32>
    %46 = stablehlo.divide %45, %44 : tensor<64x16x512x1xf32>
    %47 = stablehlo.dot_general %26, %43, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<64x16x512x512xf32>) -> tensor<64x16x64x512xf32>
    %48 = stablehlo.transpose %47, dims = [0, 3, 1, 2] : (tensor<64x16x64x512xf32>) -> tensor<64x512x16x64xf32>
    %49 = stablehlo.dot_general %48, %arg9, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<16x64x1024xf32>) -> tensor<64x512x1024xf32>
    %50 = stablehlo.add %arg37, %49 : tensor<64x512x1024xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %cst_11 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %54 = stablehlo.divide %52, %53 : tensor<64x512x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %56 = stablehlo.subtract %50, %55 : tensor<64x512x1024xf32>
    %57 = chlo.square %56 : tensor<64x512x1024xf32> -> tensor<64x512x1024xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x512x1024xf32>
    %59 = stablehlo.multiply %58, %56 : tensor<64x512x1024xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%57 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %cst_14 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %63 = stablehlo.divide %61, %62 : tensor<64x512x1xf32>
    %64 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %65 = stablehlo.subtract %50, %64 : tensor<64x512x1024xf32>
    %cst_15 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %67 = stablehlo.add %63, %66 : tensor<64x512x1xf32>
    %68 = stablehlo.rsqrt %67 : tensor<64x512x1xf32>
    %69 = stablehlo.divide %68, %67 : tensor<64x512x1xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %71 = stablehlo.multiply %70, %69 : tensor<64x512x1xf32>
    %72 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %73 = stablehlo.multiply %65, %72 : tensor<64x512x1024xf32>
    %74 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %76 = stablehlo.multiply %73, %75 : tensor<64x512x1024xf32>
    %77 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %79 = stablehlo.add %76, %78 : tensor<64x512x1024xf32>
    %80 = stablehlo.dot_general %79, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x512x4096xf32>
    %81 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<4096xf32>) -> tensor<1x1x4096xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2] : (tensor<1x1x4096xf32>) -> tensor<64x512x4096xf32>
    %83 = stablehlo.add %80, %82 : tensor<64x512x4096xf32>
    %84 = stablehlo.multiply %83, %83 : tensor<64x512x4096xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<64x512x4096xf32>
    %86 = stablehlo.multiply %83, %83 : tensor<64x512x4096xf32>
    %cst_17 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %88 = stablehlo.multiply %87, %86 : tensor<64x512x4096xf32>
    %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %90 = stablehlo.multiply %89, %85 : tensor<64x512x4096xf32>
    %91 = stablehlo.add %83, %90 : tensor<64x512x4096xf32>
    %cst_19 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %93 = stablehlo.multiply %92, %91 : tensor<64x512x4096xf32>
    %94 = stablehlo.tanh %93 : tensor<64x512x4096xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %96 = stablehlo.subtract %95, %94 : tensor<64x512x4096xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %98 = stablehlo.add %97, %94 : tensor<64x512x4096xf32>
    %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %100 = stablehlo.multiply %99, %98 : tensor<64x512x4096xf32>
    %101 = stablehlo.multiply %83, %100 : tensor<64x512x4096xf32>
    %102 = stablehlo.dot_general %101, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x512x4096xf32>, tensor<4096x1024xf32>) -> tensor<64x512x1024xf32>
    %103 = stablehlo.add %50, %102 : tensor<64x512x1024xf32>
    %104 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %105 = stablehlo.broadcast_in_dim %104, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %106 = stablehlo.add %103, %105 : tensor<64x512x1024xf32>
    %107 = stablehlo.subtract %106, %arg38 : tensor<64x512x1024xf32>
    %108 = chlo.square %107 : tensor<64x512x1024xf32> -> tensor<64x512x1024xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<64x512x1024xf32>
    %110 = stablehlo.multiply %109, %107 : tensor<64x512x1024xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %111 = stablehlo.reduce(%108 init: %cst_24) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_25 = stablehlo.constant dense<0x4C000000> : tensor<f32>
    %112 = stablehlo.divide %111, %cst_25 : tensor<f32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_27 = stablehlo.constant dense<0x4C000000> : tensor<f32>
    %113 = stablehlo.divide %cst_26, %cst_27 : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %113, dims = [] : (tensor<f32>) -> tensor<64x512x1024xf32>
    %115 = stablehlo.multiply %114, %110 : tensor<64x512x1024xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %116 = stablehlo.reduce(%115 init: %cst_28) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %117 = stablehlo.reshape %116 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %118 = stablehlo.reduce(%117 init: %cst_29) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %119 = stablehlo.dot_general %115, %101, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<64x512x4096xf32>) -> tensor<1024x4096xf32>
    %120 = stablehlo.transpose %119, dims = [1, 0] : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
    %121 = stablehlo.dot_general %115, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<4096x1024xf32>) -> tensor<64x512x4096xf32>
    %122 = stablehlo.multiply %83, %121 : tensor<64x512x4096xf32>
    %123 = stablehlo.multiply %121, %100 : tensor<64x512x4096xf32>
    %cst_30 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %125 = stablehlo.multiply %124, %122 : tensor<64x512x4096xf32>
    %126 = stablehlo.multiply %125, %96 : tensor<64x512x4096xf32>
    %127 = stablehlo.multiply %126, %94 : tensor<64x512x4096xf32>
    %128 = stablehlo.add %126, %127 : tensor<64x512x4096xf32>
    %cst_31 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %130 = stablehlo.multiply %129, %128 : tensor<64x512x4096xf32>
    %131 = stablehlo.add %123, %130 : tensor<64x512x4096xf32>
    %cst_32 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<64x512x4096xf32>
    %133 = stablehlo.multiply %132, %130 : tensor<64x512x4096xf32>
    %134 = stablehlo.multiply %133, %88 : tensor<64x512x4096xf32>
    %135 = stablehlo.add %131, %134 : tensor<64x512x4096xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %136 = stablehlo.reduce(%135 init: %cst_33) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    %137 = stablehlo.reshape %136 : (tensor<4096xf32>) -> tensor<1x1x4096xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.reduce(%137 init: %cst_34) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x4096xf32>, tensor<f32>) -> tensor<4096xf32>
    %139 = stablehlo.dot_general %135, %79, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x4096xf32>, tensor<64x512x1024xf32>) -> tensor<4096x1024xf32>
    %140 = stablehlo.transpose %139, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %141 = stablehlo.dot_general %135, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x4096xf32>, tensor<1024x4096xf32>) -> tensor<64x512x1024xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %142 = stablehlo.reduce(%141 init: %cst_35) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %143 = stablehlo.reshape %142 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%143 init: %cst_36) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %145 = stablehlo.multiply %73, %141 : tensor<64x512x1024xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%145 init: %cst_37) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %147 = stablehlo.reshape %146 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %148 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x512x1024xf32>
    %149 = stablehlo.multiply %141, %148 : tensor<64x512x1024xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %150 = stablehlo.reduce(%147 init: %cst_38) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %151 = stablehlo.multiply %65, %149 : tensor<64x512x1024xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %152 = stablehlo.reduce(%151 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %153 = stablehlo.reshape %152 : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %154 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x1024xf32>
    %155 = stablehlo.multiply %149, %154 : tensor<64x512x1024xf32>
    %156 = stablehlo.multiply %153, %71 : tensor<64x512x1xf32>
    %157 = stablehlo.negate %155 : tensor<64x512x1024xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %158 = stablehlo.reduce(%157 init: %cst_40) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %159 = stablehlo.reshape %158 : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %160 = stablehlo.add %115, %155 : tensor<64x512x1024xf32>
    %cst_41 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %162 = stablehlo.divide %156, %161 : tensor<64x512x1xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %163 = stablehlo.reduce(%162 init: %cst_42) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1xf32>, tensor<f32>) -> tensor<64x512xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1024xf32>
    %165 = stablehlo.multiply %164, %59 : tensor<64x512x1024xf32>
    %166 = stablehlo.negate %165 : tensor<64x512x1024xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %167 = stablehlo.reduce(%166 init: %cst_43) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<64x512xf32>
    %168 = stablehlo.reshape %167 : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %169 = stablehlo.add %160, %165 : tensor<64x512x1024xf32>
    %170 = stablehlo.add %159, %168 : tensor<64x512x1xf32>
    %cst_44 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<64x512x1xf32>
    %172 = stablehlo.divide %170, %171 : tensor<64x512x1xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %173 = stablehlo.reduce(%172 init: %cst_45) applies stablehlo.add across dimensions = [2] : (tensor<64x512x1xf32>, tensor<f32>) -> tensor<64x512xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1024xf32>
    %175 = stablehlo.add %169, %174 : tensor<64x512x1024xf32>
    %176 = stablehlo.dot_general %175, %48, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<64x512x16x64xf32>) -> tensor<1024x16x64xf32>
    %177 = stablehlo.transpose %176, dims = [1, 2, 0] : (tensor<1024x16x64xf32>) -> tensor<16x64x1024xf32>
    %178 = stablehlo.dot_general %175, %arg9, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x512x1024xf32>, tensor<16x64x1024xf32>) -> tensor<64x512x16x64xf32>
    %179 = stablehlo.transpose %178, dims = [0, 2, 3, 1] : (tensor<64x512x16x64xf32>) -> tensor<64x16x64x512xf32>
    %180 = stablehlo.dot_general %179, %26, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x512xf32>, tensor<64x512x16x64xf32>) -> tensor<64x16x512x512xf32>
    %181 = stablehlo.dot_general %179, %43, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x512xf32>, tensor<64x16x512x512xf32>) -> tensor<64x16x64x512xf32>
    %182 = stablehlo.transpose %181, dims = [0, 3, 1, 2] : (tensor<64x16x64x512xf32>) -> tensor<64x512x16x64xf32>
    %183 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<64x16x512x1xf32>) -> tensor<64x16x512x512xf32>
    %184 = stablehlo.multiply %180, %183 : tensor<64x16x512x512xf32>
    %185 = stablehlo.multiply %184, %39 : tensor<64x16x512x512xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %186 = stablehlo.reduce(%185 init: %cst_46) applies stablehlo.add across dimensions = [3] : (tensor<64x16x512x512xf32>, tensor<f32>) -> tensor<64x16x512xf32>
    %187 = stablehlo.reshape %186 : (tensor<64x16x512xf32>) -> tensor<64x16x512x1xf32>
    %188 = stablehlo.negate %187 : tensor<64x16x512x1xf32>
    %189 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<64x16x512x1xf32>) -> tensor<64x16x512x512xf32>
    %190 = stablehlo.divide %180, %189 : tensor<64x16x512x512xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %191 = stablehlo.reduce(%188 init: %cst_47) applies stablehlo.add across dimensions = [3] : (tensor<64x16x512x1xf32>, tensor<f32>) -> tensor<64x16x512xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0, 1, 2] : (tensor<64x16x512xf32>) -> tensor<64x16x512x512xf32>
    %193 = stablehlo.add %190, %192 : tensor<64x16x512x512xf32>
    %194 = stablehlo.multiply %193, %39 : tensor<64x16x512x512xf32>
    %195 = call @_where_0(%32#1, %194) : (tensor<64x16x512x512xi1>, tensor<64x16x512x512xf32>) -> tensor<64x16x512x512xf32>
    %cst_48 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %196 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<64x16x512x512xf32>
    %197 = stablehlo.divide %195, %196 : tensor<64x16x512x512xf32>
    %198 = stablehlo.dot_general %197, %24, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x512x512xf32>, tensor<64x512x16x64xf32>) -> tensor<64x16x512x64xf32>
    %199 = stablehlo.transpose %198, dims = [0, 2, 1, 3] : (tensor<64x16x512x64xf32>) -> tensor<64x512x16x64xf32>
    %200 = stablehlo.dot_general %197, %25, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x512x512xf32>, tensor<64x512x16x64xf32>) -> tensor<64x16x512x64xf32>
    %201 = stablehlo.transpose %200, dims = [0, 2, 1, 3] : (tensor<64x16x512x64xf32>) -> tensor<64x512x16x64xf32>
    %202 = stablehlo.dot_general %182, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<64x512x1024xf32>) -> tensor<16x64x1024xf32>
    %203 = stablehlo.transpose %202, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %204 = stablehlo.dot_general %182, %arg11, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x1024xf32>
    %205 = stablehlo.dot_general %199, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<64x512x1024xf32>) -> tensor<16x64x1024xf32>
    %206 = stablehlo.transpose %205, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %207 = stablehlo.dot_general %199, %arg8, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x1024xf32>
    %208 = stablehlo.add %204, %207 : tensor<64x512x1024xf32>
    %209 = stablehlo.dot_general %201, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<64x512x1024xf32>) -> tensor<16x64x1024xf32>
    %210 = stablehlo.transpose %209, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %211 = stablehlo.dot_general %201, %arg10, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x512x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x512x1024xf32>
    %212 = stablehlo.add %208, %211 : tensor<64x512x1024xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %213 = stablehlo.reduce(%212 init: %cst_49) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %214 = stablehlo.reshape %213 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %215 = stablehlo.reduce(%214 init: %cst_50) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %216 = stablehlo.multiply %17, %212 : tensor<64x512x1024xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %217 = stablehlo.reduce(%216 init: %cst_51) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %218 = stablehlo.reshape %217 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %219 = stablehlo.reduce(%218 init: %cst_52) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %cst_53 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %221 = stablehlo.multiply %220, %138 : tensor<4096xf32>
    %cst_54 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %223 = stablehlo.multiply %222, %arg13 : tensor<4096xf32>
    %224 = stablehlo.add %221, %223 : tensor<4096xf32>
    %cst_55 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %226 = stablehlo.multiply %225, %118 : tensor<1024xf32>
    %cst_56 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %227 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %228 = stablehlo.multiply %227, %arg14 : tensor<1024xf32>
    %229 = stablehlo.add %226, %228 : tensor<1024xf32>
    %cst_57 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %231 = stablehlo.multiply %230, %215 : tensor<1024xf32>
    %cst_58 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %233 = stablehlo.multiply %232, %arg15 : tensor<1024xf32>
    %234 = stablehlo.add %231, %233 : tensor<1024xf32>
    %cst_59 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %235 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %236 = stablehlo.multiply %235, %219 : tensor<1024xf32>
    %cst_60 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %238 = stablehlo.multiply %237, %arg16 : tensor<1024xf32>
    %239 = stablehlo.add %236, %238 : tensor<1024xf32>
    %cst_61 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %240 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %241 = stablehlo.multiply %240, %144 : tensor<1024xf32>
    %cst_62 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %242 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %243 = stablehlo.multiply %242, %arg17 : tensor<1024xf32>
    %244 = stablehlo.add %241, %243 : tensor<1024xf32>
    %cst_63 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %245 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %246 = stablehlo.multiply %245, %150 : tensor<1024xf32>
    %cst_64 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %248 = stablehlo.multiply %247, %arg18 : tensor<1024xf32>
    %249 = stablehlo.add %246, %248 : tensor<1024xf32>
    %cst_65 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %250 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %251 = stablehlo.multiply %250, %140 : tensor<1024x4096xf32>
    %cst_66 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %252 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %253 = stablehlo.multiply %252, %arg19 : tensor<1024x4096xf32>
    %254 = stablehlo.add %251, %253 : tensor<1024x4096xf32>
    %cst_67 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %256 = stablehlo.multiply %255, %120 : tensor<4096x1024xf32>
    %cst_68 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %257 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %258 = stablehlo.multiply %257, %arg20 : tensor<4096x1024xf32>
    %259 = stablehlo.add %256, %258 : tensor<4096x1024xf32>
    %cst_69 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %260 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %261 = stablehlo.multiply %260, %206 : tensor<1024x16x64xf32>
    %cst_70 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %262 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %263 = stablehlo.multiply %262, %arg21 : tensor<1024x16x64xf32>
    %264 = stablehlo.add %261, %263 : tensor<1024x16x64xf32>
    %cst_71 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %265 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %266 = stablehlo.multiply %265, %177 : tensor<16x64x1024xf32>
    %cst_72 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %267 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %268 = stablehlo.multiply %267, %arg22 : tensor<16x64x1024xf32>
    %269 = stablehlo.add %266, %268 : tensor<16x64x1024xf32>
    %cst_73 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %270 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %271 = stablehlo.multiply %270, %210 : tensor<1024x16x64xf32>
    %cst_74 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %272 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %273 = stablehlo.multiply %272, %arg23 : tensor<1024x16x64xf32>
    %274 = stablehlo.add %271, %273 : tensor<1024x16x64xf32>
    %cst_75 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %275 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %276 = stablehlo.multiply %275, %203 : tensor<1024x16x64xf32>
    %cst_76 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %277 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %278 = stablehlo.multiply %277, %arg24 : tensor<1024x16x64xf32>
    %279 = stablehlo.add %276, %278 : tensor<1024x16x64xf32>
    %280 = stablehlo.multiply %138, %138 : tensor<4096xf32>
    %cst_77 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %281 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %282 = stablehlo.multiply %281, %280 : tensor<4096xf32>
    %cst_78 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %283 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %284 = stablehlo.multiply %283, %arg25 : tensor<4096xf32>
    %285 = stablehlo.add %282, %284 : tensor<4096xf32>
    %286 = stablehlo.multiply %118, %118 : tensor<1024xf32>
    %cst_79 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %287 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %288 = stablehlo.multiply %287, %286 : tensor<1024xf32>
    %cst_80 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %289 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %290 = stablehlo.multiply %289, %arg26 : tensor<1024xf32>
    %291 = stablehlo.add %288, %290 : tensor<1024xf32>
    %292 = stablehlo.multiply %215, %215 : tensor<1024xf32>
    %cst_81 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %293 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %294 = stablehlo.multiply %293, %292 : tensor<1024xf32>
    %cst_82 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %295 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %296 = stablehlo.multiply %295, %arg27 : tensor<1024xf32>
    %297 = stablehlo.add %294, %296 : tensor<1024xf32>
    %298 = stablehlo.multiply %219, %219 : tensor<1024xf32>
    %cst_83 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %299 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %300 = stablehlo.multiply %299, %298 : tensor<1024xf32>
    %cst_84 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %301 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %302 = stablehlo.multiply %301, %arg28 : tensor<1024xf32>
    %303 = stablehlo.add %300, %302 : tensor<1024xf32>
    %304 = stablehlo.multiply %144, %144 : tensor<1024xf32>
    %cst_85 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %305 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %306 = stablehlo.multiply %305, %304 : tensor<1024xf32>
    %cst_86 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %307 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %308 = stablehlo.multiply %307, %arg29 : tensor<1024xf32>
    %309 = stablehlo.add %306, %308 : tensor<1024xf32>
    %310 = stablehlo.multiply %150, %150 : tensor<1024xf32>
    %cst_87 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %311 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %312 = stablehlo.multiply %311, %310 : tensor<1024xf32>
    %cst_88 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %313 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %314 = stablehlo.multiply %313, %arg30 : tensor<1024xf32>
    %315 = stablehlo.add %312, %314 : tensor<1024xf32>
    %316 = stablehlo.multiply %140, %140 : tensor<1024x4096xf32>
    %cst_89 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %317 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %318 = stablehlo.multiply %317, %316 : tensor<1024x4096xf32>
    %cst_90 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %319 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %320 = stablehlo.multiply %319, %arg31 : tensor<1024x4096xf32>
    %321 = stablehlo.add %318, %320 : tensor<1024x4096xf32>
    %322 = stablehlo.multiply %120, %120 : tensor<4096x1024xf32>
    %cst_91 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %323 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %324 = stablehlo.multiply %323, %322 : tensor<4096x1024xf32>
    %cst_92 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %325 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %326 = stablehlo.multiply %325, %arg32 : tensor<4096x1024xf32>
    %327 = stablehlo.add %324, %326 : tensor<4096x1024xf32>
    %328 = stablehlo.multiply %206, %206 : tensor<1024x16x64xf32>
    %cst_93 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %329 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %330 = stablehlo.multiply %329, %328 : tensor<1024x16x64xf32>
    %cst_94 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %331 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %332 = stablehlo.multiply %331, %arg33 : tensor<1024x16x64xf32>
    %333 = stablehlo.add %330, %332 : tensor<1024x16x64xf32>
    %334 = stablehlo.multiply %177, %177 : tensor<16x64x1024xf32>
    %cst_95 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %335 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %336 = stablehlo.multiply %335, %334 : tensor<16x64x1024xf32>
    %cst_96 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %337 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %338 = stablehlo.multiply %337, %arg34 : tensor<16x64x1024xf32>
    %339 = stablehlo.add %336, %338 : tensor<16x64x1024xf32>
    %340 = stablehlo.multiply %210, %210 : tensor<1024x16x64xf32>
    %cst_97 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %341 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %342 = stablehlo.multiply %341, %340 : tensor<1024x16x64xf32>
    %cst_98 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %343 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %344 = stablehlo.multiply %343, %arg35 : tensor<1024x16x64xf32>
    %345 = stablehlo.add %342, %344 : tensor<1024x16x64xf32>
    %346 = stablehlo.multiply %203, %203 : tensor<1024x16x64xf32>
    %cst_99 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %347 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %348 = stablehlo.multiply %347, %346 : tensor<1024x16x64xf32>
    %cst_100 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %349 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %350 = stablehlo.multiply %349, %arg36 : tensor<1024x16x64xf32>
    %351 = stablehlo.add %348, %350 : tensor<1024x16x64xf32>
    %c_101 = stablehlo.constant dense<2147483647> : tensor<i32>
    %352 = stablehlo.compare LT, %arg12, %c_101, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_102 = stablehlo.constant dense<1> : tensor<i32>
    %353 = stablehlo.add %arg12, %c_102 : tensor<i32>
    %c_103 = stablehlo.constant dense<2147483647> : tensor<i32>
    %354 = call @_where_1(%352, %353, %c_103) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_104 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %355 = stablehlo.convert %354 : (tensor<i32>) -> tensor<f32>
    %356 = stablehlo.power %cst_104, %355 : tensor<f32>
    %cst_105 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %357 = stablehlo.subtract %cst_105, %356 : tensor<f32>
    %358 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %359 = stablehlo.divide %224, %358 : tensor<4096xf32>
    %360 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %361 = stablehlo.divide %229, %360 : tensor<1024xf32>
    %362 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %363 = stablehlo.divide %234, %362 : tensor<1024xf32>
    %364 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %365 = stablehlo.divide %239, %364 : tensor<1024xf32>
    %366 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %367 = stablehlo.divide %244, %366 : tensor<1024xf32>
    %368 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %369 = stablehlo.divide %249, %368 : tensor<1024xf32>
    %370 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %371 = stablehlo.divide %254, %370 : tensor<1024x4096xf32>
    %372 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %373 = stablehlo.divide %259, %372 : tensor<4096x1024xf32>
    %374 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %375 = stablehlo.divide %264, %374 : tensor<1024x16x64xf32>
    %376 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %377 = stablehlo.divide %269, %376 : tensor<16x64x1024xf32>
    %378 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %379 = stablehlo.divide %274, %378 : tensor<1024x16x64xf32>
    %380 = stablehlo.broadcast_in_dim %357, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %381 = stablehlo.divide %279, %380 : tensor<1024x16x64xf32>
    %cst_106 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %382 = stablehlo.convert %354 : (tensor<i32>) -> tensor<f32>
    %383 = stablehlo.power %cst_106, %382 : tensor<f32>
    %cst_107 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %384 = stablehlo.subtract %cst_107, %383 : tensor<f32>
    %385 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %386 = stablehlo.divide %285, %385 : tensor<4096xf32>
    %387 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %388 = stablehlo.divide %291, %387 : tensor<1024xf32>
    %389 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %390 = stablehlo.divide %297, %389 : tensor<1024xf32>
    %391 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %392 = stablehlo.divide %303, %391 : tensor<1024xf32>
    %393 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %394 = stablehlo.divide %309, %393 : tensor<1024xf32>
    %395 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %396 = stablehlo.divide %315, %395 : tensor<1024xf32>
    %397 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %398 = stablehlo.divide %321, %397 : tensor<1024x4096xf32>
    %399 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %400 = stablehlo.divide %327, %399 : tensor<4096x1024xf32>
    %401 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %402 = stablehlo.divide %333, %401 : tensor<1024x16x64xf32>
    %403 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %404 = stablehlo.divide %339, %403 : tensor<16x64x1024xf32>
    %405 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %406 = stablehlo.divide %345, %405 : tensor<1024x16x64xf32>
    %407 = stablehlo.broadcast_in_dim %384, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %408 = stablehlo.divide %351, %407 : tensor<1024x16x64xf32>
    %cst_108 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %409 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %410 = stablehlo.add %386, %409 : tensor<4096xf32>
    %411 = stablehlo.sqrt %410 : tensor<4096xf32>
    %cst_109 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %412 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %413 = stablehlo.add %411, %412 : tensor<4096xf32>
    %414 = stablehlo.divide %359, %413 : tensor<4096xf32>
    %cst_110 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %415 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %416 = stablehlo.add %388, %415 : tensor<1024xf32>
    %417 = stablehlo.sqrt %416 : tensor<1024xf32>
    %cst_111 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %418 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %419 = stablehlo.add %417, %418 : tensor<1024xf32>
    %420 = stablehlo.divide %361, %419 : tensor<1024xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %421 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %422 = stablehlo.add %390, %421 : tensor<1024xf32>
    %423 = stablehlo.sqrt %422 : tensor<1024xf32>
    %cst_113 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %424 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %425 = stablehlo.add %423, %424 : tensor<1024xf32>
    %426 = stablehlo.divide %363, %425 : tensor<1024xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %427 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %428 = stablehlo.add %392, %427 : tensor<1024xf32>
    %429 = stablehlo.sqrt %428 : tensor<1024xf32>
    %cst_115 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %430 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %431 = stablehlo.add %429, %430 : tensor<1024xf32>
    %432 = stablehlo.divide %365, %431 : tensor<1024xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %433 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %434 = stablehlo.add %394, %433 : tensor<1024xf32>
    %435 = stablehlo.sqrt %434 : tensor<1024xf32>
    %cst_117 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %436 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %437 = stablehlo.add %435, %436 : tensor<1024xf32>
    %438 = stablehlo.divide %367, %437 : tensor<1024xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %439 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %440 = stablehlo.add %396, %439 : tensor<1024xf32>
    %441 = stablehlo.sqrt %440 : tensor<1024xf32>
    %cst_119 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %442 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %443 = stablehlo.add %441, %442 : tensor<1024xf32>
    %444 = stablehlo.divide %369, %443 : tensor<1024xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %445 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %446 = stablehlo.add %398, %445 : tensor<1024x4096xf32>
    %447 = stablehlo.sqrt %446 : tensor<1024x4096xf32>
    %cst_121 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %448 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %449 = stablehlo.add %447, %448 : tensor<1024x4096xf32>
    %450 = stablehlo.divide %371, %449 : tensor<1024x4096xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %451 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %452 = stablehlo.add %400, %451 : tensor<4096x1024xf32>
    %453 = stablehlo.sqrt %452 : tensor<4096x1024xf32>
    %cst_123 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %454 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %455 = stablehlo.add %453, %454 : tensor<4096x1024xf32>
    %456 = stablehlo.divide %373, %455 : tensor<4096x1024xf32>
    %cst_124 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %457 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %458 = stablehlo.add %402, %457 : tensor<1024x16x64xf32>
    %459 = stablehlo.sqrt %458 : tensor<1024x16x64xf32>
    %cst_125 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %460 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %461 = stablehlo.add %459, %460 : tensor<1024x16x64xf32>
    %462 = stablehlo.divide %375, %461 : tensor<1024x16x64xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %463 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %464 = stablehlo.add %404, %463 : tensor<16x64x1024xf32>
    %465 = stablehlo.sqrt %464 : tensor<16x64x1024xf32>
    %cst_127 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %466 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %467 = stablehlo.add %465, %466 : tensor<16x64x1024xf32>
    %468 = stablehlo.divide %377, %467 : tensor<16x64x1024xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %469 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %470 = stablehlo.add %406, %469 : tensor<1024x16x64xf32>
    %471 = stablehlo.sqrt %470 : tensor<1024x16x64xf32>
    %cst_129 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %472 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %473 = stablehlo.add %471, %472 : tensor<1024x16x64xf32>
    %474 = stablehlo.divide %379, %473 : tensor<1024x16x64xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %475 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %476 = stablehlo.add %408, %475 : tensor<1024x16x64xf32>
    %477 = stablehlo.sqrt %476 : tensor<1024x16x64xf32>
    %cst_131 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %478 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %479 = stablehlo.add %477, %478 : tensor<1024x16x64xf32>
    %480 = stablehlo.divide %381, %479 : tensor<1024x16x64xf32>
    %cst_132 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %481 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %482 = stablehlo.multiply %481, %arg0 : tensor<4096xf32>
    %483 = stablehlo.add %414, %482 : tensor<4096xf32>
    %cst_133 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %484 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %485 = stablehlo.multiply %484, %arg1 : tensor<1024xf32>
    %486 = stablehlo.add %420, %485 : tensor<1024xf32>
    %cst_134 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %487 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %488 = stablehlo.multiply %487, %arg2 : tensor<1024xf32>
    %489 = stablehlo.add %426, %488 : tensor<1024xf32>
    %cst_135 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %490 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %491 = stablehlo.multiply %490, %arg3 : tensor<1024xf32>
    %492 = stablehlo.add %432, %491 : tensor<1024xf32>
    %cst_136 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %493 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %494 = stablehlo.multiply %493, %arg4 : tensor<1024xf32>
    %495 = stablehlo.add %438, %494 : tensor<1024xf32>
    %cst_137 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %496 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %497 = stablehlo.multiply %496, %arg5 : tensor<1024xf32>
    %498 = stablehlo.add %444, %497 : tensor<1024xf32>
    %cst_138 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %499 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %500 = stablehlo.multiply %499, %arg6 : tensor<1024x4096xf32>
    %501 = stablehlo.add %450, %500 : tensor<1024x4096xf32>
    %cst_139 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %502 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %503 = stablehlo.multiply %502, %arg7 : tensor<4096x1024xf32>
    %504 = stablehlo.add %456, %503 : tensor<4096x1024xf32>
    %cst_140 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %505 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %506 = stablehlo.multiply %505, %arg8 : tensor<1024x16x64xf32>
    %507 = stablehlo.add %462, %506 : tensor<1024x16x64xf32>
    %cst_141 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %508 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %509 = stablehlo.multiply %508, %arg9 : tensor<16x64x1024xf32>
    %510 = stablehlo.add %468, %509 : tensor<16x64x1024xf32>
    %cst_142 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %511 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %512 = stablehlo.multiply %511, %arg10 : tensor<1024x16x64xf32>
    %513 = stablehlo.add %474, %512 : tensor<1024x16x64xf32>
    %cst_143 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %514 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %515 = stablehlo.multiply %514, %arg11 : tensor<1024x16x64xf32>
    %516 = stablehlo.add %480, %515 : tensor<1024x16x64xf32>
    %cst_144 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %517 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %518 = stablehlo.multiply %517, %483 : tensor<4096xf32>
    %cst_145 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %519 = stablehlo.broadcast_in_dim %cst_145, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %520 = stablehlo.multiply %519, %486 : tensor<1024xf32>
    %cst_146 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %521 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %522 = stablehlo.multiply %521, %489 : tensor<1024xf32>
    %cst_147 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %523 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %524 = stablehlo.multiply %523, %492 : tensor<1024xf32>
    %cst_148 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %525 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %526 = stablehlo.multiply %525, %495 : tensor<1024xf32>
    %cst_149 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %527 = stablehlo.broadcast_in_dim %cst_149, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %528 = stablehlo.multiply %527, %498 : tensor<1024xf32>
    %cst_150 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %529 = stablehlo.broadcast_in_dim %cst_150, dims = [] : (tensor<f32>) -> tensor<1024x4096xf32>
    %530 = stablehlo.multiply %529, %501 : tensor<1024x4096xf32>
    %cst_151 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %531 = stablehlo.broadcast_in_dim %cst_151, dims = [] : (tensor<f32>) -> tensor<4096x1024xf32>
    %532 = stablehlo.multiply %531, %504 : tensor<4096x1024xf32>
    %cst_152 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %533 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %534 = stablehlo.multiply %533, %507 : tensor<1024x16x64xf32>
    %cst_153 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %535 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<16x64x1024xf32>
    %536 = stablehlo.multiply %535, %510 : tensor<16x64x1024xf32>
    %cst_154 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %537 = stablehlo.broadcast_in_dim %cst_154, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %538 = stablehlo.multiply %537, %513 : tensor<1024x16x64xf32>
    %cst_155 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %539 = stablehlo.broadcast_in_dim %cst_155, dims = [] : (tensor<f32>) -> tensor<1024x16x64xf32>
    %540 = stablehlo.multiply %539, %516 : tensor<1024x16x64xf32>
    %541 = stablehlo.add %arg0, %518 : tensor<4096xf32>
    %542 = stablehlo.add %arg1, %520 : tensor<1024xf32>
    %543 = stablehlo.add %arg2, %522 : tensor<1024xf32>
    %544 = stablehlo.add %arg3, %524 : tensor<1024xf32>
    %545 = stablehlo.add %arg4, %526 : tensor<1024xf32>
    %546 = stablehlo.add %arg5, %528 : tensor<1024xf32>
    %547 = stablehlo.add %arg6, %530 : tensor<1024x4096xf32>
    %548 = stablehlo.add %arg7, %532 : tensor<4096x1024xf32>
    %549 = stablehlo.add %arg8, %534 : tensor<1024x16x64xf32>
    %550 = stablehlo.add %arg9, %536 : tensor<16x64x1024xf32>
    %551 = stablehlo.add %arg10, %538 : tensor<1024x16x64xf32>
    %552 = stablehlo.add %arg11, %540 : tensor<1024x16x64xf32>
    return %541, %542, %543, %544, %545, %546, %547, %548, %549, %550, %551, %552, %354, %224, %229, %234, %239, %244, %249, %254, %259, %264, %269, %274, %279, %285, %291, %297, %303, %309, %315, %321, %327, %333, %339, %345, %351, %112 : tensor<4096xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>, tensor<4096xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<4096xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<f32>
  }
  func.func private @tril(%arg0: tensor<512x512xi1>) -> tensor<512x512xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<512x512xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<512x512xi32>
    %2 = stablehlo.add %0, %1 : tensor<512x512xi32>
    %3 = stablehlo.iota dim = 1 : tensor<512x512xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<512x512xi32>, tensor<512x512xi32>) -> tensor<512x512xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<512x512xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<512x512xi1>, tensor<512x512xi1>
    return %6 : tensor<512x512xi1>
  }
  func.func private @_where(%arg0: tensor<512x512xi1>, %arg1: tensor<64x16x512x512xf32>, %arg2: tensor<f32>) -> (tensor<64x16x512x512xf32>, tensor<64x16x512x512xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<512x512xi1>) -> tensor<64x16x512x512xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<64x16x512x512xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<64x16x512x512xi1>, tensor<64x16x512x512xf32>
    return %2, %0 : tensor<64x16x512x512xf32>, tensor<64x16x512x512xi1>
  }
  func.func private @_where_0(%arg0: tensor<64x16x512x512xi1>, %arg1: tensor<64x16x512x512xf32>) -> tensor<64x16x512x512xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x16x512x512xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<64x16x512x512xi1>, tensor<64x16x512x512xf32>
    return %1 : tensor<64x16x512x512xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
