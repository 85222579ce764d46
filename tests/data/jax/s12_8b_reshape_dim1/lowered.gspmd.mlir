module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}) -> (tensor<64xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[4]<=[4]}"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<8x8xf32>) -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
}
