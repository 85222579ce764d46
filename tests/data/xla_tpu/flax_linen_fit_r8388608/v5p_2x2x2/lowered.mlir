module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg1: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg3: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg5: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg6: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg7: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg8: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg9: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg10: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg11: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg12: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg13: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg14: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg15: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg16: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg17: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg18: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg19: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg20: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg21: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg22: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg23: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg24: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg25: tensor<1024x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg26: tensor<16777216x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<i32> {jax.result_info = "result.step", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_0']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_0']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_1']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_1']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_2']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_2']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_3']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.params['DotReluDot_3']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<i32> {jax.result_info = "result.opt_state[0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_0']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_0']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_1']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_1']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_2']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_2']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_3']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].mu['DotReluDot_3']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_0']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_0']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_1']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_1']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_2']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_2']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_3']['Dense_0']['kernel'].value", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, tensor<1024x1024xf32> {jax.result_info = "result.opt_state[0].nu['DotReluDot_3']['W2'].value", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) {
    %0 = stablehlo.dot_general %arg26, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %1 = call @relu(%0) : (tensor<16777216x1024xf32>) -> tensor<16777216x1024xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<16777216x1024xi1>
    %4 = sdy.sharding_constraint %1 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %7 = stablehlo.dot_general %6, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %8 = call @relu(%7) : (tensor<16777216x1024xf32>) -> tensor<16777216x1024xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %10 = stablehlo.compare GT, %7, %9, FLOAT : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<16777216x1024xi1>
    %11 = sdy.sharding_constraint %8 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %12 = stablehlo.dot_general %11, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %13 = sdy.sharding_constraint %12 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %14 = stablehlo.dot_general %13, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %15 = call @relu(%14) : (tensor<16777216x1024xf32>) -> tensor<16777216x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %17 = stablehlo.compare GT, %14, %16, FLOAT : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<16777216x1024xi1>
    %18 = sdy.sharding_constraint %15 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %19 = stablehlo.dot_general %18, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %21 = stablehlo.dot_general %20, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %22 = call @relu(%21) : (tensor<16777216x1024xf32>) -> tensor<16777216x1024xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %24 = stablehlo.compare GT, %21, %23, FLOAT : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<16777216x1024xi1>
    %25 = sdy.sharding_constraint %22 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %27 = sdy.sharding_constraint %26 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %28 = stablehlo.dot_general %27, %25, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %30 = stablehlo.dot_general %27, %arg8, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %31 = sdy.sharding_constraint %30 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %33 = stablehlo.select %24, %31, %32 : tensor<16777216x1024xi1>, tensor<16777216x1024xf32>
    %34 = stablehlo.dot_general %33, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %35 = stablehlo.transpose %34, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %36 = stablehlo.dot_general %33, %arg7, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %37 = sdy.sharding_constraint %36 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %38 = stablehlo.dot_general %37, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %39 = stablehlo.transpose %38, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %40 = stablehlo.dot_general %37, %arg6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %41 = sdy.sharding_constraint %40 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %43 = stablehlo.select %17, %41, %42 : tensor<16777216x1024xi1>, tensor<16777216x1024xf32>
    %44 = stablehlo.dot_general %43, %13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %45 = stablehlo.transpose %44, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %46 = stablehlo.dot_general %43, %arg5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %47 = sdy.sharding_constraint %46 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %48 = stablehlo.dot_general %47, %11, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %49 = stablehlo.transpose %48, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %50 = stablehlo.dot_general %47, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %51 = sdy.sharding_constraint %50 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %53 = stablehlo.select %10, %51, %52 : tensor<16777216x1024xi1>, tensor<16777216x1024xf32>
    %54 = stablehlo.dot_general %53, %6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %55 = stablehlo.transpose %54, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %56 = stablehlo.dot_general %53, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %57 = sdy.sharding_constraint %56 <@mesh, [{"data"}, {}]> : tensor<16777216x1024xf32>
    %58 = stablehlo.dot_general %57, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %59 = stablehlo.transpose %58, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %60 = stablehlo.dot_general %57, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<1024x1024xf32>) -> tensor<16777216x1024xf32>
    %61 = sdy.sharding_constraint %60 <@mesh, [{"data"}, {"model"}]> : tensor<16777216x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %63 = stablehlo.select %3, %61, %62 : tensor<16777216x1024xi1>, tensor<16777216x1024xf32>
    %64 = stablehlo.dot_general %63, %arg26, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16777216x1024xf32>, tensor<16777216x1024xf32>) -> tensor<1024x1024xf32>
    %65 = stablehlo.transpose %64, dims = [1, 0] : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %cst_8 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %67 = stablehlo.multiply %66, %65 : tensor<1024x1024xf32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %69 = stablehlo.multiply %68, %arg10 : tensor<1024x1024xf32>
    %70 = stablehlo.add %67, %69 : tensor<1024x1024xf32>
    %cst_10 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %72 = stablehlo.multiply %71, %59 : tensor<1024x1024xf32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %74 = stablehlo.multiply %73, %arg11 : tensor<1024x1024xf32>
    %75 = stablehlo.add %72, %74 : tensor<1024x1024xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %77 = stablehlo.multiply %76, %55 : tensor<1024x1024xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %79 = stablehlo.multiply %78, %arg12 : tensor<1024x1024xf32>
    %80 = stablehlo.add %77, %79 : tensor<1024x1024xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %82 = stablehlo.multiply %81, %49 : tensor<1024x1024xf32>
    %cst_15 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %84 = stablehlo.multiply %83, %arg13 : tensor<1024x1024xf32>
    %85 = stablehlo.add %82, %84 : tensor<1024x1024xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %87 = stablehlo.multiply %86, %45 : tensor<1024x1024xf32>
    %cst_17 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %89 = stablehlo.multiply %88, %arg14 : tensor<1024x1024xf32>
    %90 = stablehlo.add %87, %89 : tensor<1024x1024xf32>
    %cst_18 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %92 = stablehlo.multiply %91, %39 : tensor<1024x1024xf32>
    %cst_19 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %94 = stablehlo.multiply %93, %arg15 : tensor<1024x1024xf32>
    %95 = stablehlo.add %92, %94 : tensor<1024x1024xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %97 = stablehlo.multiply %96, %35 : tensor<1024x1024xf32>
    %cst_21 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %99 = stablehlo.multiply %98, %arg16 : tensor<1024x1024xf32>
    %100 = stablehlo.add %97, %99 : tensor<1024x1024xf32>
    %cst_22 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %102 = stablehlo.multiply %101, %29 : tensor<1024x1024xf32>
    %cst_23 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %104 = stablehlo.multiply %103, %arg17 : tensor<1024x1024xf32>
    %105 = stablehlo.add %102, %104 : tensor<1024x1024xf32>
    %106 = stablehlo.multiply %65, %65 : tensor<1024x1024xf32>
    %cst_24 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %108 = stablehlo.multiply %107, %106 : tensor<1024x1024xf32>
    %cst_25 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %110 = stablehlo.multiply %109, %arg18 : tensor<1024x1024xf32>
    %111 = stablehlo.add %108, %110 : tensor<1024x1024xf32>
    %112 = stablehlo.multiply %59, %59 : tensor<1024x1024xf32>
    %cst_26 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %114 = stablehlo.multiply %113, %112 : tensor<1024x1024xf32>
    %cst_27 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %116 = stablehlo.multiply %115, %arg19 : tensor<1024x1024xf32>
    %117 = stablehlo.add %114, %116 : tensor<1024x1024xf32>
    %118 = stablehlo.multiply %55, %55 : tensor<1024x1024xf32>
    %cst_28 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %120 = stablehlo.multiply %119, %118 : tensor<1024x1024xf32>
    %cst_29 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %122 = stablehlo.multiply %121, %arg20 : tensor<1024x1024xf32>
    %123 = stablehlo.add %120, %122 : tensor<1024x1024xf32>
    %124 = stablehlo.multiply %49, %49 : tensor<1024x1024xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %126 = stablehlo.multiply %125, %124 : tensor<1024x1024xf32>
    %cst_31 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %128 = stablehlo.multiply %127, %arg21 : tensor<1024x1024xf32>
    %129 = stablehlo.add %126, %128 : tensor<1024x1024xf32>
    %130 = stablehlo.multiply %45, %45 : tensor<1024x1024xf32>
    %cst_32 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %132 = stablehlo.multiply %131, %130 : tensor<1024x1024xf32>
    %cst_33 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %134 = stablehlo.multiply %133, %arg22 : tensor<1024x1024xf32>
    %135 = stablehlo.add %132, %134 : tensor<1024x1024xf32>
    %136 = stablehlo.multiply %39, %39 : tensor<1024x1024xf32>
    %cst_34 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %138 = stablehlo.multiply %137, %136 : tensor<1024x1024xf32>
    %cst_35 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %140 = stablehlo.multiply %139, %arg23 : tensor<1024x1024xf32>
    %141 = stablehlo.add %138, %140 : tensor<1024x1024xf32>
    %142 = stablehlo.multiply %35, %35 : tensor<1024x1024xf32>
    %cst_36 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %144 = stablehlo.multiply %143, %142 : tensor<1024x1024xf32>
    %cst_37 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %145 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %146 = stablehlo.multiply %145, %arg24 : tensor<1024x1024xf32>
    %147 = stablehlo.add %144, %146 : tensor<1024x1024xf32>
    %148 = stablehlo.multiply %29, %29 : tensor<1024x1024xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %150 = stablehlo.multiply %149, %148 : tensor<1024x1024xf32>
    %cst_39 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %152 = stablehlo.multiply %151, %arg25 : tensor<1024x1024xf32>
    %153 = stablehlo.add %150, %152 : tensor<1024x1024xf32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %154 = stablehlo.compare LT, %arg9, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_40 = stablehlo.constant dense<1> : tensor<i32>
    %155 = stablehlo.add %arg9, %c_40 : tensor<i32>
    %c_41 = stablehlo.constant dense<2147483647> : tensor<i32>
    %156 = call @_where(%154, %155, %c_41) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_42 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %157 = stablehlo.convert %156 : (tensor<i32>) -> tensor<f32>
    %158 = stablehlo.power %cst_42, %157 : tensor<f32>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %159 = stablehlo.subtract %cst_43, %158 : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %161 = stablehlo.divide %70, %160 : tensor<1024x1024xf32>
    %162 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %163 = stablehlo.divide %75, %162 : tensor<1024x1024xf32>
    %164 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %165 = stablehlo.divide %80, %164 : tensor<1024x1024xf32>
    %166 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %167 = stablehlo.divide %85, %166 : tensor<1024x1024xf32>
    %168 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %169 = stablehlo.divide %90, %168 : tensor<1024x1024xf32>
    %170 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %171 = stablehlo.divide %95, %170 : tensor<1024x1024xf32>
    %172 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %173 = stablehlo.divide %100, %172 : tensor<1024x1024xf32>
    %174 = stablehlo.broadcast_in_dim %159, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %175 = stablehlo.divide %105, %174 : tensor<1024x1024xf32>
    %cst_44 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %176 = stablehlo.convert %156 : (tensor<i32>) -> tensor<f32>
    %177 = stablehlo.power %cst_44, %176 : tensor<f32>
    %cst_45 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %178 = stablehlo.subtract %cst_45, %177 : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %180 = stablehlo.divide %111, %179 : tensor<1024x1024xf32>
    %181 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %182 = stablehlo.divide %117, %181 : tensor<1024x1024xf32>
    %183 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %184 = stablehlo.divide %123, %183 : tensor<1024x1024xf32>
    %185 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %186 = stablehlo.divide %129, %185 : tensor<1024x1024xf32>
    %187 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %188 = stablehlo.divide %135, %187 : tensor<1024x1024xf32>
    %189 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %190 = stablehlo.divide %141, %189 : tensor<1024x1024xf32>
    %191 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %192 = stablehlo.divide %147, %191 : tensor<1024x1024xf32>
    %193 = stablehlo.broadcast_in_dim %178, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %194 = stablehlo.divide %153, %193 : tensor<1024x1024xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %196 = stablehlo.add %180, %195 : tensor<1024x1024xf32>
    %197 = stablehlo.sqrt %196 : tensor<1024x1024xf32>
    %cst_47 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %199 = stablehlo.add %197, %198 : tensor<1024x1024xf32>
    %200 = stablehlo.divide %161, %199 : tensor<1024x1024xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %202 = stablehlo.add %182, %201 : tensor<1024x1024xf32>
    %203 = stablehlo.sqrt %202 : tensor<1024x1024xf32>
    %cst_49 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %204 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %205 = stablehlo.add %203, %204 : tensor<1024x1024xf32>
    %206 = stablehlo.divide %163, %205 : tensor<1024x1024xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %208 = stablehlo.add %184, %207 : tensor<1024x1024xf32>
    %209 = stablehlo.sqrt %208 : tensor<1024x1024xf32>
    %cst_51 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %210 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %211 = stablehlo.add %209, %210 : tensor<1024x1024xf32>
    %212 = stablehlo.divide %165, %211 : tensor<1024x1024xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %214 = stablehlo.add %186, %213 : tensor<1024x1024xf32>
    %215 = stablehlo.sqrt %214 : tensor<1024x1024xf32>
    %cst_53 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %217 = stablehlo.add %215, %216 : tensor<1024x1024xf32>
    %218 = stablehlo.divide %167, %217 : tensor<1024x1024xf32>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %220 = stablehlo.add %188, %219 : tensor<1024x1024xf32>
    %221 = stablehlo.sqrt %220 : tensor<1024x1024xf32>
    %cst_55 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %223 = stablehlo.add %221, %222 : tensor<1024x1024xf32>
    %224 = stablehlo.divide %169, %223 : tensor<1024x1024xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %226 = stablehlo.add %190, %225 : tensor<1024x1024xf32>
    %227 = stablehlo.sqrt %226 : tensor<1024x1024xf32>
    %cst_57 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %229 = stablehlo.add %227, %228 : tensor<1024x1024xf32>
    %230 = stablehlo.divide %171, %229 : tensor<1024x1024xf32>
    %cst_58 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %231 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %232 = stablehlo.add %192, %231 : tensor<1024x1024xf32>
    %233 = stablehlo.sqrt %232 : tensor<1024x1024xf32>
    %cst_59 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %234 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %235 = stablehlo.add %233, %234 : tensor<1024x1024xf32>
    %236 = stablehlo.divide %173, %235 : tensor<1024x1024xf32>
    %cst_60 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %238 = stablehlo.add %194, %237 : tensor<1024x1024xf32>
    %239 = stablehlo.sqrt %238 : tensor<1024x1024xf32>
    %cst_61 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %240 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %241 = stablehlo.add %239, %240 : tensor<1024x1024xf32>
    %242 = stablehlo.divide %175, %241 : tensor<1024x1024xf32>
    %cst_62 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %244 = stablehlo.multiply %243, %200 : tensor<1024x1024xf32>
    %cst_63 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %245 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %246 = stablehlo.multiply %245, %206 : tensor<1024x1024xf32>
    %cst_64 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %248 = stablehlo.multiply %247, %212 : tensor<1024x1024xf32>
    %cst_65 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %249 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %250 = stablehlo.multiply %249, %218 : tensor<1024x1024xf32>
    %cst_66 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %251 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %252 = stablehlo.multiply %251, %224 : tensor<1024x1024xf32>
    %cst_67 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %253 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %254 = stablehlo.multiply %253, %230 : tensor<1024x1024xf32>
    %cst_68 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %256 = stablehlo.multiply %255, %236 : tensor<1024x1024xf32>
    %cst_69 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %257 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
    %258 = stablehlo.multiply %257, %242 : tensor<1024x1024xf32>
    %259 = stablehlo.add %arg1, %244 : tensor<1024x1024xf32>
    %260 = stablehlo.add %arg2, %246 : tensor<1024x1024xf32>
    %261 = stablehlo.add %arg3, %248 : tensor<1024x1024xf32>
    %262 = stablehlo.add %arg4, %250 : tensor<1024x1024xf32>
    %263 = stablehlo.add %arg5, %252 : tensor<1024x1024xf32>
    %264 = stablehlo.add %arg6, %254 : tensor<1024x1024xf32>
    %265 = stablehlo.add %arg7, %256 : tensor<1024x1024xf32>
    %266 = stablehlo.add %arg8, %258 : tensor<1024x1024xf32>
    %c_70 = stablehlo.constant dense<1> : tensor<i32>
    %267 = stablehlo.add %arg0, %c_70 : tensor<i32>
    return %267, %259, %260, %261, %262, %263, %264, %265, %266, %156, %70, %75, %80, %85, %90, %95, %100, %105, %111, %117, %123, %129, %135, %141, %147, %153 : tensor<i32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<i32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>
  }
  func.func private @relu(%arg0: tensor<16777216x1024xf32>) -> tensor<16777216x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16777216x1024xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16777216x1024xf32>
    return %1 : tensor<16777216x1024xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
