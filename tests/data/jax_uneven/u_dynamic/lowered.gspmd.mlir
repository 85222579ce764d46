module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x3xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<2x3xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<i32> {mhlo.sharding = "{replicated}"}) -> (tensor<2x3xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<6x3xf32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x3xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<6x3xf32>) -> tensor<6x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %4 = stablehlo.add %arg2, %c_0 : tensor<i32>
    %5 = stablehlo.select %3, %4, %arg2 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.dynamic_slice %2, %5, %c_1, sizes = [2, 3] : (tensor<6x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %8 = stablehlo.add %6, %7 : tensor<2x3xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %arg2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %10 = stablehlo.add %arg2, %c_4 : tensor<i32>
    %11 = stablehlo.select %9, %10, %arg2 : tensor<i1>, tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.dynamic_update_slice %2, %arg1, %11, %c_5 : (tensor<6x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
    %cst_6 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %14 = stablehlo.multiply %12, %13 : tensor<6x3xf32>
    return %8, %14 : tensor<2x3xf32>, tensor<6x3xf32>
  }
}
