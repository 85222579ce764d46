module @jit_f attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2, \22y\22=4]>}"}, mhlo.num_partitions = 8 : i32} {
  func.func public @main(%arg0: tensor<8x16xbf16> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", mhlo.memory_kind = "pinned_host"}) -> tensor<8x16xbf16> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x16xbf16>) -> tensor<4x4xbf16>
    %2 = call @shmap_body(%1) : (tensor<4x4xbf16>) -> tensor<4x4xbf16>
    %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<4x4xbf16>) -> tensor<8x16xbf16>
    %c = stablehlo.constant dense<"0x803F0040"> : tensor<2xbf16>
    %4 = stablehlo.dot_general %3, %3, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<8x16xbf16>) -> tensor<8xbf16>
    return %3 : tensor<8x16xbf16>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
    %0 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %1 = stablehlo.slice %arg0 [0:4, 0:4:1] : (tensor<4x4xbf16>) -> tensor<4x4xbf16>
    %2 = stablehlo.compare  EQ, %0, %0,  SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %3 = stablehlo.select %2, %1, %arg0 : tensor<4x4xi1>, tensor<4x4xbf16>
    return %3 : tensor<4x4xbf16>
  }
}
