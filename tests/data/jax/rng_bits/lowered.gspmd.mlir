module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xui32> {mhlo.sharding = "{replicated}"}) -> (tensor<8x16xui32> {jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<3x5xui8> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}, tensor<5x4xui16> {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<8x4xui64> {jax.result_info = "result[3]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<4xui32> {jax.result_info = "result[4]", mhlo.sharding = "{replicated}"}, tensor<8x16xui32> {jax.result_info = "result[5]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<3x5xui8> {jax.result_info = "result[6]", mhlo.sharding = "{replicated}"}, tensor<5x4xui16> {jax.result_info = "result[7]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<8x4xui64> {jax.result_info = "result[8]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<4xui32> {jax.result_info = "result[9]", mhlo.sharding = "{replicated}"}, tensor<8x16xui32> {jax.result_info = "result[10]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<3x5xui8> {jax.result_info = "result[11]", mhlo.sharding = "{replicated}"}, tensor<5x4xui16> {jax.result_info = "result[12]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, tensor<8x4xui64> {jax.result_info = "result[13]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, tensor<4xui32> {jax.result_info = "result[14]", mhlo.sharding = "{replicated}"}, tensor<ui32> {jax.result_info = "result[15]", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
    %2 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %3 = stablehlo.reshape %2 : (tensor<2x2xui32>) -> tensor<4xui32>
    %4 = stablehlo.reshape %3 : (tensor<4xui32>) -> tensor<2x2xui32>
    %5 = stablehlo.bitcast_convert %4 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_0, %output_1 = stablehlo.rng_bit_generator %5, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui8>)
    %6 = stablehlo.bitcast_convert %output_state_0 : (tensor<2xui64>) -> tensor<2x2xui32>
    %7 = stablehlo.reshape %6 : (tensor<2x2xui32>) -> tensor<4xui32>
    %8 = stablehlo.reshape %7 : (tensor<4xui32>) -> tensor<2x2xui32>
    %9 = stablehlo.bitcast_convert %8 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_2, %output_3 = stablehlo.rng_bit_generator %9, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x4xui16>)
    %10 = stablehlo.bitcast_convert %output_state_2 : (tensor<2xui64>) -> tensor<2x2xui32>
    %11 = stablehlo.reshape %10 : (tensor<2x2xui32>) -> tensor<4xui32>
    %12 = stablehlo.reshape %11 : (tensor<4xui32>) -> tensor<2x2xui32>
    %13 = stablehlo.bitcast_convert %12 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_4, %output_5 = stablehlo.rng_bit_generator %13, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui64>)
    %14 = stablehlo.bitcast_convert %output_state_4 : (tensor<2xui64>) -> tensor<2x2xui32>
    %15 = stablehlo.reshape %14 : (tensor<2x2xui32>) -> tensor<4xui32>
    %16 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %17 = stablehlo.bitcast_convert %16 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_6, %output_7 = stablehlo.rng_bit_generator %17, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
    %18 = stablehlo.bitcast_convert %output_state_6 : (tensor<2xui64>) -> tensor<2x2xui32>
    %19 = stablehlo.reshape %18 : (tensor<2x2xui32>) -> tensor<4xui32>
    %20 = stablehlo.reshape %19 : (tensor<4xui32>) -> tensor<2x2xui32>
    %21 = stablehlo.bitcast_convert %20 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_8, %output_9 = stablehlo.rng_bit_generator %21, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui8>)
    %22 = stablehlo.bitcast_convert %output_state_8 : (tensor<2xui64>) -> tensor<2x2xui32>
    %23 = stablehlo.reshape %22 : (tensor<2x2xui32>) -> tensor<4xui32>
    %24 = stablehlo.reshape %23 : (tensor<4xui32>) -> tensor<2x2xui32>
    %25 = stablehlo.bitcast_convert %24 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_10, %output_11 = stablehlo.rng_bit_generator %25, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x4xui16>)
    %26 = stablehlo.bitcast_convert %output_state_10 : (tensor<2xui64>) -> tensor<2x2xui32>
    %27 = stablehlo.reshape %26 : (tensor<2x2xui32>) -> tensor<4xui32>
    %28 = stablehlo.reshape %27 : (tensor<4xui32>) -> tensor<2x2xui32>
    %29 = stablehlo.bitcast_convert %28 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_12, %output_13 = stablehlo.rng_bit_generator %29, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui64>)
    %30 = stablehlo.bitcast_convert %output_state_12 : (tensor<2xui64>) -> tensor<2x2xui32>
    %31 = stablehlo.reshape %30 : (tensor<2x2xui32>) -> tensor<4xui32>
    %32 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %33 = stablehlo.bitcast_convert %32 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_14, %output_15 = stablehlo.rng_bit_generator %33, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x16xui32>)
    %34 = stablehlo.bitcast_convert %output_state_14 : (tensor<2xui64>) -> tensor<2x2xui32>
    %35 = stablehlo.reshape %34 : (tensor<2x2xui32>) -> tensor<4xui32>
    %36 = stablehlo.reshape %35 : (tensor<4xui32>) -> tensor<2x2xui32>
    %37 = stablehlo.bitcast_convert %36 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_16, %output_17 = stablehlo.rng_bit_generator %37, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui8>)
    %38 = stablehlo.bitcast_convert %output_state_16 : (tensor<2xui64>) -> tensor<2x2xui32>
    %39 = stablehlo.reshape %38 : (tensor<2x2xui32>) -> tensor<4xui32>
    %40 = stablehlo.reshape %39 : (tensor<4xui32>) -> tensor<2x2xui32>
    %41 = stablehlo.bitcast_convert %40 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_18, %output_19 = stablehlo.rng_bit_generator %41, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x4xui16>)
    %42 = stablehlo.bitcast_convert %output_state_18 : (tensor<2xui64>) -> tensor<2x2xui32>
    %43 = stablehlo.reshape %42 : (tensor<2x2xui32>) -> tensor<4xui32>
    %44 = stablehlo.reshape %43 : (tensor<4xui32>) -> tensor<2x2xui32>
    %45 = stablehlo.bitcast_convert %44 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_20, %output_21 = stablehlo.rng_bit_generator %45, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui64>)
    %46 = stablehlo.bitcast_convert %output_state_20 : (tensor<2xui64>) -> tensor<2x2xui32>
    %47 = stablehlo.reshape %46 : (tensor<2x2xui32>) -> tensor<4xui32>
    %48 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %49 = stablehlo.bitcast_convert %48 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state_22, %output_23 = stablehlo.rng_bit_generator %49, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)
    %50 = stablehlo.bitcast_convert %output_state_22 : (tensor<2xui64>) -> tensor<2x2xui32>
    %51 = stablehlo.reshape %50 : (tensor<2x2xui32>) -> tensor<4xui32>
    return %output, %output_1, %output_3, %output_5, %15, %output_7, %output_9, %output_11, %output_13, %31, %output_15, %output_17, %output_19, %output_21, %47, %output_23 : tensor<8x16xui32>, tensor<3x5xui8>, tensor<5x4xui16>, tensor<8x4xui64>, tensor<4xui32>, tensor<8x16xui32>, tensor<3x5xui8>, tensor<5x4xui16>, tensor<8x4xui64>, tensor<4xui32>, tensor<8x16xui32>, tensor<3x5xui8>, tensor<5x4xui16>, tensor<8x4xui64>, tensor<4xui32>, tensor<ui32>
  }
}
