module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg2: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x8xf32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, tensor<8x8xf32> {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, tensor<f32> {jax.result_info = "result[2][0]", mhlo.sharding = "{replicated}"}, tensor<8x16xf32> {jax.result_info = "result[2][1]", mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %13 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %14 = stablehlo.tanh %13 : tensor<8x8xf32>
      stablehlo.return %14 : tensor<8x8xf32>
    }, {
      %13 = stablehlo.slice %arg1 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
      %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %15 = stablehlo.multiply %13, %14 : tensor<8x8xf32>
      stablehlo.return %15 : tensor<8x8xf32>
    }, {
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %13 = stablehlo.reduce(%arg1 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
      %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
      stablehlo.return %15 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %2 = stablehlo.negate %arg1 : tensor<8x16xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %3 = stablehlo.clamp %c_1, %arg0, %c_2 : tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %13 = stablehlo.dot_general %2, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %14 = stablehlo.tanh %13 : tensor<8x8xf32>
      stablehlo.return %14 : tensor<8x8xf32>
    }, {
      %13 = stablehlo.slice %2 [0:8, 0:8] : (tensor<8x16xf32>) -> tensor<8x8xf32>
      %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %15 = stablehlo.multiply %13, %14 : tensor<8x8xf32>
      stablehlo.return %15 : tensor<8x8xf32>
    }, {
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %13 = stablehlo.reduce(%2 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
      %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
      stablehlo.return %15 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %5 = stablehlo.add %arg0, %c_3 : tensor<i32>
    %6 = stablehlo.convert %5 : (tensor<i32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<8x8xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare GT, %arg0, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.convert %9 : (tensor<i1>) -> tensor<i32>
    %11:4 = "stablehlo.case"(%10) ({
      %13 = stablehlo.multiply %arg1, %arg1 : tensor<8x16xf32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %14 = stablehlo.reduce(%13 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
      %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      stablehlo.return %14, %arg1, %15, %16 : tensor<f32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
    }, {
      %13 = stablehlo.sine %arg1 : tensor<8x16xf32>
      %14 = stablehlo.cosine %arg1 : tensor<8x16xf32>
      %15 = stablehlo.multiply %13, %arg1 : tensor<8x16xf32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %16 = stablehlo.reduce(%15 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %16, %14, %arg1, %13 : tensor<f32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
    }) : (tensor<i32>) -> (tensor<f32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = "stablehlo.case"(%10) ({
      %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %14 = stablehlo.multiply %11#1, %13 : tensor<8x16xf32>
      %15 = stablehlo.multiply %13, %11#1 : tensor<8x16xf32>
      %16 = stablehlo.add %14, %15 : tensor<8x16xf32>
      stablehlo.return %16 : tensor<8x16xf32>
    }, {
      %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %14 = stablehlo.multiply %11#3, %13 : tensor<8x16xf32>
      %15 = stablehlo.multiply %13, %11#2 : tensor<8x16xf32>
      %16 = stablehlo.multiply %15, %11#1 : tensor<8x16xf32>
      %17 = stablehlo.add %14, %16 : tensor<8x16xf32>
      stablehlo.return %17 : tensor<8x16xf32>
    }) : (tensor<i32>) -> tensor<8x16xf32>
    return %1, %8, %11#0, %12 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>, tensor<8x16xf32>
  }
}
