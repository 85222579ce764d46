module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg2: tensor<3xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<3x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<3x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<8x16xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xi32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xf32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xi32> {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xi32> {jax.result_info = "result[4]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xi32> {jax.result_info = "result[5]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xf32> {jax.result_info = "result[6]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xf32> {jax.result_info = "result[7]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xf32> {jax.result_info = "result[8]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<8x16xf32> {jax.result_info = "result[9]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %arg2, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %arg2, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x16xf32>
    %7 = "stablehlo.scatter"(%arg0, %5, %6) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.sine %arg5 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %9 = stablehlo.compare LT, %arg2, %8, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %11 = stablehlo.add %arg2, %10 : tensor<3xi32>
    %12 = stablehlo.select %9, %11, %arg2 : tensor<3xi1>, tensor<3xi32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3x16xi32>
    %15 = "stablehlo.scatter"(%arg1, %13, %14) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>):
      %c_22 = stablehlo.constant dense<3> : tensor<i32>
      %77 = stablehlo.multiply %arg5, %c_22 : tensor<i32>
      %c_23 = stablehlo.constant dense<1> : tensor<i32>
      %78 = stablehlo.add %77, %c_23 : tensor<i32>
      stablehlo.return %78 : tensor<i32>
    }) : (tensor<8x16xi32>, tensor<3x1xi32>, tensor<3x16xi32>) -> tensor<8x16xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %17 = stablehlo.compare LT, %arg2, %16, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_5 = stablehlo.constant dense<8> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %19 = stablehlo.add %arg2, %18 : tensor<3xi32>
    %20 = stablehlo.select %17, %19, %arg2 : tensor<3xi1>, tensor<3xi32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %22 = "stablehlo.scatter"(%arg0, %21, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.multiply %arg5, %arg6 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %24 = stablehlo.compare LT, %arg2, %23, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_7 = stablehlo.constant dense<8> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %26 = stablehlo.add %arg2, %25 : tensor<3xi32>
    %27 = stablehlo.select %24, %26, %arg2 : tensor<3xi1>, tensor<3xi32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %29 = "stablehlo.scatter"(%arg1, %28, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>):
      %77 = stablehlo.multiply %arg5, %arg6 : tensor<i32>
      stablehlo.return %77 : tensor<i32>
    }) : (tensor<8x16xi32>, tensor<3x1xi32>, tensor<3x16xi32>) -> tensor<8x16xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %31 = stablehlo.compare LT, %arg2, %30, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_9 = stablehlo.constant dense<8> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %33 = stablehlo.add %arg2, %32 : tensor<3xi32>
    %34 = stablehlo.select %31, %33, %arg2 : tensor<3xi1>, tensor<3xi32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %36 = "stablehlo.scatter"(%arg1, %35, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>):
      %77 = stablehlo.minimum %arg5, %arg6 : tensor<i32>
      stablehlo.return %77 : tensor<i32>
    }) : (tensor<8x16xi32>, tensor<3x1xi32>, tensor<3x16xi32>) -> tensor<8x16xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %37 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %38 = stablehlo.compare LT, %arg2, %37, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_11 = stablehlo.constant dense<8> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %40 = stablehlo.add %arg2, %39 : tensor<3xi32>
    %41 = stablehlo.select %38, %40, %arg2 : tensor<3xi1>, tensor<3xi32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %43 = "stablehlo.scatter"(%arg1, %42, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>):
      %77 = stablehlo.maximum %arg5, %arg6 : tensor<i32>
      stablehlo.return %77 : tensor<i32>
    }) : (tensor<8x16xi32>, tensor<3x1xi32>, tensor<3x16xi32>) -> tensor<8x16xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %44 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %45 = stablehlo.compare LT, %arg2, %44, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_13 = stablehlo.constant dense<8> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %47 = stablehlo.add %arg2, %46 : tensor<3xi32>
    %48 = stablehlo.select %45, %47, %arg2 : tensor<3xi1>, tensor<3xi32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %50 = "stablehlo.scatter"(%arg0, %49, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.minimum %arg5, %arg6 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %52 = stablehlo.compare LT, %arg2, %51, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_15 = stablehlo.constant dense<8> : tensor<i32>
    %53 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %54 = stablehlo.add %arg2, %53 : tensor<3xi32>
    %55 = stablehlo.select %52, %54, %arg2 : tensor<3xi1>, tensor<3xi32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %57 = "stablehlo.scatter"(%arg0, %56, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %59 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %60 = stablehlo.compare LT, %arg2, %59, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_18 = stablehlo.constant dense<8> : tensor<i32>
    %61 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %62 = stablehlo.add %arg2, %61 : tensor<3xi32>
    %63 = stablehlo.select %60, %62, %arg2 : tensor<3xi1>, tensor<3xi32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %65 = "stablehlo.scatter"(%58, %64, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.multiply %arg5, %arg6 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %66 = stablehlo.divide %arg0, %65 : tensor<8x16xf32>
    %67 = stablehlo.abs %arg0 : tensor<8x16xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %69 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %70 = stablehlo.compare LT, %arg2, %69, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_21 = stablehlo.constant dense<8> : tensor<i32>
    %71 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %72 = stablehlo.add %arg2, %71 : tensor<3xi32>
    %73 = stablehlo.select %70, %72, %arg2 : tensor<3xi1>, tensor<3xi32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %75 = "stablehlo.scatter"(%68, %74, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %77 = stablehlo.multiply %arg5, %arg6 : tensor<f32>
      stablehlo.return %77 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %76 = stablehlo.power %67, %75 : tensor<8x16xf32>
    return %7, %15, %22, %29, %36, %43, %50, %57, %66, %76 : tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xf32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
