module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<3xi32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<3x16xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<f32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}, tensor<8x16xf32> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<3x16xf32> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %25 = stablehlo.subtract %arg3, %arg4 : tensor<f32>
      stablehlo.return %25 : tensor<f32>
    }) : (tensor<8x16xf32>, tensor<3x1xi32>, tensor<3x16xf32>) -> tensor<8x16xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<8x16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %10 = stablehlo.multiply %6, %9 : tensor<8x16xf32>
    %11 = stablehlo.multiply %9, %6 : tensor<8x16xf32>
    %12 = stablehlo.add %10, %11 : tensor<8x16xf32>
    %c_2 = stablehlo.constant dense<7> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %14 = stablehlo.compare GE, %5, %13, SIGNED : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %15 = stablehlo.broadcast_in_dim %c_2, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<3x1xi32>
    %17 = stablehlo.compare LE, %5, %16, SIGNED : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %18 = stablehlo.and %14, %17 : tensor<3x1xi1>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %19 = stablehlo.reduce(%18 init: %c_4) applies stablehlo.and across dimensions = [1] : (tensor<3x1xi1>, tensor<i1>) -> tensor<3xi1>
    %20 = "stablehlo.gather"(%12, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<3x1xi32>) -> tensor<3x16xf32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<3xi1>) -> tensor<3x16xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x16xf32>
    %23 = stablehlo.select %21, %20, %22 : tensor<3x16xi1>, tensor<3x16xf32>
    %24 = stablehlo.negate %23 : tensor<3x16xf32>
    return %6, %8, %12, %24 : tensor<8x16xf32>, tensor<f32>, tensor<8x16xf32>, tensor<3x16xf32>
  }
}
