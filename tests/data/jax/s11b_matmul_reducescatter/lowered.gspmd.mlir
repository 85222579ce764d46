module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x128xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg1: tensor<128x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<64x256xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[1,4]<=[4]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
    return %0 : tensor<64x256xf32>
  }
}
