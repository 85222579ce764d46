module @jit_step attributes {mhlo.num_partitions = 16 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "expert"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 4 : i64}, {name = "expert", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<4x1024x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"expert"}, {}, {}]>}, %arg2: tensor<4x4096x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"expert"}, {}, {}]>}, %arg3: tensor<8x512x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg4: tensor<8x512x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<f32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<8x512x2xi32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[3]['router']", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<4x1024x4096xf32> {jax.result_info = "result[3]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{"expert"}, {}, {}]>}, tensor<4x4096x1024xf32> {jax.result_info = "result[3]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"expert"}, {}, {}]>}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x1024xf32>, tensor<1024x4xf32>) -> tensor<8x512x4xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<8x512x4xf32>, tensor<f32>) -> tensor<8x512xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<8x512xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x4xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<8x512x4xf32>
    %7 = stablehlo.exponential %6 : tensor<8x512x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<8x512x4xf32>, tensor<f32>) -> tensor<8x512xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x4xf32>
    %11 = stablehlo.divide %7, %10 : tensor<8x512x4xf32>
    %12 = stablehlo.multiply %9, %9 : tensor<8x512x1xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %14 = stablehlo.divide %13, %12 : tensor<8x512x1xf32>
    %values, %indices = chlo.top_k(%11, k = 2) : tensor<8x512x4xf32> -> (tensor<8x512x2xf32>, tensor<8x512x2xi32>)
    %15 = stablehlo.reshape %indices : (tensor<8x512x2xi32>) -> tensor<8x512x2x1xi32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%values init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<8x512x2xf32>, tensor<f32>) -> tensor<8x512xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x2xf32>
    %19 = stablehlo.divide %values, %18 : tensor<8x512x2xf32>
    %20 = stablehlo.multiply %17, %17 : tensor<8x512x1xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %22 = stablehlo.divide %21, %20 : tensor<8x512x1xf32>
    %23 = call @_one_hot(%indices) : (tensor<8x512x2xi32>) -> tensor<8x512x2x4xf32>
    %24 = stablehlo.dot_general %19, %23, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x512x2xf32>, tensor<8x512x2x4xf32>) -> tensor<8x512x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%23 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<8x512x2x4xf32>, tensor<f32>) -> tensor<8x512x4xf32>
    %26 = stablehlo.dot_general %25, %arg3, batching_dims = [0, 1] x [0, 1], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<8x512x4xf32>, tensor<8x512x1024xf32>) -> tensor<8x512x4x1024xf32>
    %27 = stablehlo.transpose %26, dims = [2, 0, 1, 3] : (tensor<8x512x4x1024xf32>) -> tensor<4x8x512x1024xf32>
    %28 = sdy.sharding_constraint %27 <@mesh, [{"expert"}, {"data"}, {}, {}]> : tensor<4x8x512x1024xf32>
    %29 = stablehlo.dot_general %28, %arg1, batching_dims = [0] x [0], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x1024xf32>, tensor<4x1024x4096xf32>) -> tensor<4x8x512x4096xf32>
    %30 = call @relu(%29) : (tensor<4x8x512x4096xf32>) -> tensor<4x8x512x4096xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x512x4096xf32>
    %32 = stablehlo.compare GT, %29, %31, FLOAT : (tensor<4x8x512x4096xf32>, tensor<4x8x512x4096xf32>) -> tensor<4x8x512x4096xi1>
    %33 = stablehlo.dot_general %30, %arg2, batching_dims = [0] x [0], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x4096xf32>, tensor<4x4096x1024xf32>) -> tensor<4x8x512x1024xf32>
    %34 = stablehlo.dot_general %33, %24, batching_dims = [1, 2] x [0, 1], contracting_dims = [0] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x1024xf32>, tensor<8x512x4xf32>) -> tensor<8x512x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%11 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x512x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_8 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %37 = stablehlo.divide %35, %36 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%25 init: %cst_9) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x512x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_10 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %40 = stablehlo.divide %38, %39 : tensor<4xf32>
    %41 = stablehlo.multiply %37, %40 : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %43 = stablehlo.divide %41, %42 : tensor<4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.reduce(%43 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_13 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %45 = stablehlo.multiply %cst_13, %44 : tensor<f32>
    %46 = stablehlo.subtract %34, %arg4 : tensor<8x512x1024xf32>
    %47 = stablehlo.multiply %46, %46 : tensor<8x512x1024xf32>
    %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x512x1024xf32>
    %49 = stablehlo.multiply %48, %46 : tensor<8x512x1024xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%47 init: %cst_15) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x512x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_16 = stablehlo.constant dense<0x4A800000> : tensor<f32>
    %51 = stablehlo.divide %50, %cst_16 : tensor<f32>
    %cst_17 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %52 = stablehlo.multiply %cst_17, %45 : tensor<f32>
    %53 = stablehlo.add %51, %52 : tensor<f32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_19 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %54 = stablehlo.multiply %cst_19, %cst_18 : tensor<f32>
    %cst_20 = stablehlo.constant dense<0x4A800000> : tensor<f32>
    %55 = stablehlo.divide %cst_18, %cst_20 : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [] : (tensor<f32>) -> tensor<8x512x1024xf32>
    %57 = stablehlo.multiply %56, %49 : tensor<8x512x1024xf32>
    %cst_21 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %58 = stablehlo.multiply %cst_21, %54 : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_22 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %61 = stablehlo.divide %59, %60 : tensor<4xf32>
    %62 = stablehlo.multiply %61, %40 : tensor<4xf32>
    %cst_23 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %64 = stablehlo.divide %62, %63 : tensor<4xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [2] : (tensor<4xf32>) -> tensor<8x512x4xf32>
    %66 = stablehlo.dot_general %57, %33, batching_dims = [0, 1] x [1, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x512x1024xf32>, tensor<4x8x512x1024xf32>) -> tensor<8x512x4xf32>
    %67 = stablehlo.dot_general %57, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<8x512x1024xf32>, tensor<8x512x4xf32>) -> tensor<8x512x1024x4xf32>
    %68 = stablehlo.transpose %67, dims = [3, 0, 1, 2] : (tensor<8x512x1024x4xf32>) -> tensor<4x8x512x1024xf32>
    %69 = stablehlo.dot_general %68, %30, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x1024xf32>, tensor<4x8x512x4096xf32>) -> tensor<4x1024x4096xf32>
    %70 = stablehlo.transpose %69, dims = [0, 2, 1] : (tensor<4x1024x4096xf32>) -> tensor<4x4096x1024xf32>
    %71 = stablehlo.dot_general %68, %arg2, batching_dims = [0] x [0], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x1024xf32>, tensor<4x4096x1024xf32>) -> tensor<4x8x512x4096xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x8x512x4096xf32>
    %73 = stablehlo.select %32, %71, %72 : tensor<4x8x512x4096xi1>, tensor<4x8x512x4096xf32>
    %74 = stablehlo.dot_general %73, %28, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x512x4096xf32>, tensor<4x8x512x1024xf32>) -> tensor<4x4096x1024xf32>
    %75 = stablehlo.transpose %74, dims = [0, 2, 1] : (tensor<4x4096x1024xf32>) -> tensor<4x1024x4096xf32>
    %76 = stablehlo.dot_general %66, %23, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x512x4xf32>, tensor<8x512x2x4xf32>) -> tensor<8x512x2xf32>
    %77 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x2xf32>
    %78 = stablehlo.multiply %76, %77 : tensor<8x512x2xf32>
    %79 = stablehlo.multiply %78, %values : tensor<8x512x2xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.reduce(%79 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<8x512x2xf32>, tensor<f32>) -> tensor<8x512xf32>
    %81 = stablehlo.reshape %80 : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %82 = stablehlo.negate %81 : tensor<8x512x1xf32>
    %83 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x2xf32>
    %84 = stablehlo.divide %76, %83 : tensor<8x512x2xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%82 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<8x512x1xf32>, tensor<f32>) -> tensor<8x512xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x2xf32>
    %87 = stablehlo.add %84, %86 : tensor<8x512x2xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x512x4xf32>
    %89 = "stablehlo.scatter"(%88, %15, %87) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %114 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %114 : tensor<f32>
    }) : (tensor<8x512x4xf32>, tensor<8x512x2x1xi32>, tensor<8x512x2xf32>) -> tensor<8x512x4xf32>
    %90 = stablehlo.add %65, %89 : tensor<8x512x4xf32>
    %91 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x4xf32>
    %92 = stablehlo.multiply %90, %91 : tensor<8x512x4xf32>
    %93 = stablehlo.multiply %92, %7 : tensor<8x512x4xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.reduce(%93 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<8x512x4xf32>, tensor<f32>) -> tensor<8x512xf32>
    %95 = stablehlo.reshape %94 : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %96 = stablehlo.negate %95 : tensor<8x512x1xf32>
    %97 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x4xf32>
    %98 = stablehlo.divide %90, %97 : tensor<8x512x4xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%96 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<8x512x1xf32>, tensor<f32>) -> tensor<8x512xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x4xf32>
    %101 = stablehlo.add %98, %100 : tensor<8x512x4xf32>
    %102 = stablehlo.multiply %101, %7 : tensor<8x512x4xf32>
    %103 = stablehlo.dot_general %102, %arg3, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x512x4xf32>, tensor<8x512x1024xf32>) -> tensor<4x1024xf32>
    %104 = stablehlo.transpose %103, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %106 = stablehlo.multiply %105, %104 : tensor<1024x4xf32>
    %107 = stablehlo.subtract %arg0, %106 : tensor<1024x4xf32>
    %cst_31 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %109 = stablehlo.multiply %108, %75 : tensor<4x1024x4096xf32>
    %110 = stablehlo.subtract %arg1, %109 : tensor<4x1024x4096xf32>
    %cst_32 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x4096x1024xf32>
    %112 = stablehlo.multiply %111, %70 : tensor<4x4096x1024xf32>
    %113 = stablehlo.subtract %arg2, %112 : tensor<4x4096x1024xf32>
    return %53, %45, %indices, %107, %110, %113 : tensor<f32>, tensor<f32>, tensor<8x512x2xi32>, tensor<1024x4xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
  }
  func.func private @_one_hot(%arg0: tensor<8x512x2xi32>) -> tensor<8x512x2x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<8x512x2xi32>) -> tensor<8x512x2x1xi32>
    %1 = stablehlo.iota dim = 3 : tensor<1x1x1x4xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2, 3] : (tensor<8x512x2x1xi32>) -> tensor<8x512x2x4xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x4xi32>) -> tensor<8x512x2x4xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x512x2x4xi32>, tensor<8x512x2x4xi32>) -> tensor<8x512x2x4xi1>
    %5 = stablehlo.convert %4 : (tensor<8x512x2x4xi1>) -> tensor<8x512x2x4xf32>
    return %5 : tensor<8x512x2x4xf32>
  }
  func.func private @relu(%arg0: tensor<4x8x512x4096xf32>) -> tensor<4x8x512x4096xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x512x4096xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x8x512x4096xf32>
    return %1 : tensor<4x8x512x4096xf32>
  }
}
