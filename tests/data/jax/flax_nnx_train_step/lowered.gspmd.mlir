module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<32x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<i32> {mhlo.sharding = "{replicated}"}, %arg3: tensor<32x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg4: tensor<32x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg5: tensor<32x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg6: tensor<32x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg7: tensor<ui32> {mhlo.sharding = "{replicated}"}, %arg8: tensor<8x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg9: tensor<8x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> (tensor<f32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<32x32xf32> {jax.result_info = "result[1][0]['dot1']['kernel'].value", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<32x32xf32> {jax.result_info = "result[1][0]['w2'].value", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<i32> {jax.result_info = "result[1][1]['opt_state'][0]['count'].value", mhlo.sharding = "{replicated}"}, tensor<32x32xf32> {jax.result_info = "result[1][1]['opt_state'][0]['mu']['dot1']['kernel'].value", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<32x32xf32> {jax.result_info = "result[1][1]['opt_state'][0]['mu']['w2'].value", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<32x32xf32> {jax.result_info = "result[1][1]['opt_state'][0]['nu']['dot1']['kernel'].value", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<32x32xf32> {jax.result_info = "result[1][1]['opt_state'][0]['nu']['w2'].value", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<ui32> {jax.result_info = "result[1][1]['step'].value", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.dot_general %arg8, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %1 = call @relu(%0) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %4 = stablehlo.custom_call @Sharding(%1) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = stablehlo.dot_general %4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %6 = stablehlo.subtract %5, %arg9 : tensor<8x32xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %9 = stablehlo.multiply %8, %6 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %11 = stablehlo.divide %10, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %12 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.multiply %13, %9 : tensor<8x32xf32>
    %15 = stablehlo.dot_general %14, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<32x32xf32>
    %16 = stablehlo.transpose %15, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %17 = stablehlo.dot_general %14, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %18 = stablehlo.custom_call @Sharding(%17) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %20 = stablehlo.select %3, %18, %19 : tensor<8x32xi1>, tensor<8x32xf32>
    %21 = stablehlo.dot_general %20, %arg8, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<32x32xf32>
    %22 = stablehlo.transpose %21, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %cst_6 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %24 = stablehlo.multiply %23, %22 : tensor<32x32xf32>
    %cst_7 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %26 = stablehlo.multiply %25, %arg3 : tensor<32x32xf32>
    %27 = stablehlo.add %24, %26 : tensor<32x32xf32>
    %cst_8 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %29 = stablehlo.multiply %28, %16 : tensor<32x32xf32>
    %cst_9 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %31 = stablehlo.multiply %30, %arg4 : tensor<32x32xf32>
    %32 = stablehlo.add %29, %31 : tensor<32x32xf32>
    %33 = stablehlo.multiply %22, %22 : tensor<32x32xf32>
    %cst_10 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %35 = stablehlo.multiply %34, %33 : tensor<32x32xf32>
    %cst_11 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %37 = stablehlo.multiply %36, %arg5 : tensor<32x32xf32>
    %38 = stablehlo.add %35, %37 : tensor<32x32xf32>
    %39 = stablehlo.multiply %16, %16 : tensor<32x32xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %41 = stablehlo.multiply %40, %39 : tensor<32x32xf32>
    %cst_13 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %43 = stablehlo.multiply %42, %arg6 : tensor<32x32xf32>
    %44 = stablehlo.add %41, %43 : tensor<32x32xf32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %45 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_14 = stablehlo.constant dense<1> : tensor<i32>
    %46 = stablehlo.add %arg2, %c_14 : tensor<i32>
    %c_15 = stablehlo.constant dense<2147483647> : tensor<i32>
    %47 = call @_where(%45, %46, %c_15) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_16 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %48 = stablehlo.convert %47 : (tensor<i32>) -> tensor<f32>
    %49 = stablehlo.power %cst_16, %48 : tensor<f32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = stablehlo.subtract %cst_17, %49 : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %52 = stablehlo.divide %27, %51 : tensor<32x32xf32>
    %53 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %54 = stablehlo.divide %32, %53 : tensor<32x32xf32>
    %cst_18 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %55 = stablehlo.convert %47 : (tensor<i32>) -> tensor<f32>
    %56 = stablehlo.power %cst_18, %55 : tensor<f32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %57 = stablehlo.subtract %cst_19, %56 : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %59 = stablehlo.divide %38, %58 : tensor<32x32xf32>
    %60 = stablehlo.broadcast_in_dim %57, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %61 = stablehlo.divide %44, %60 : tensor<32x32xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %63 = stablehlo.add %59, %62 : tensor<32x32xf32>
    %64 = stablehlo.sqrt %63 : tensor<32x32xf32>
    %cst_21 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %66 = stablehlo.add %64, %65 : tensor<32x32xf32>
    %67 = stablehlo.divide %52, %66 : tensor<32x32xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %69 = stablehlo.add %61, %68 : tensor<32x32xf32>
    %70 = stablehlo.sqrt %69 : tensor<32x32xf32>
    %cst_23 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %72 = stablehlo.add %70, %71 : tensor<32x32xf32>
    %73 = stablehlo.divide %54, %72 : tensor<32x32xf32>
    %cst_24 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %75 = stablehlo.multiply %74, %67 : tensor<32x32xf32>
    %cst_25 = stablehlo.constant dense<-1.000000e-03> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %77 = stablehlo.multiply %76, %73 : tensor<32x32xf32>
    %78 = stablehlo.add %arg0, %75 : tensor<32x32xf32>
    %79 = stablehlo.add %arg1, %77 : tensor<32x32xf32>
    %c_26 = stablehlo.constant dense<1> : tensor<ui32>
    %80 = stablehlo.add %arg7, %c_26 : tensor<ui32>
    return %11, %78, %79, %47, %27, %32, %38, %44, %80 : tensor<f32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<i32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<ui32>
  }
  func.func private @relu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
