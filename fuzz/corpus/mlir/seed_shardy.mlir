module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @rev = <["r"=4], device_ids=[3, 2, 1, 0]>
  sdy.mesh @one = <[], device_ids=[5]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", ?}p1]>, tf.aliasing_output = 0 : i32}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{"r":(1)2}]>}) -> (tensor<8x16xf32> {jax.result_info = "[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"x"}>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<4x16xf32>) {
      %2 = "stablehlo.all_reduce"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %2 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32> loc(#loc3)
  }
}
#loc1 = loc("model.py":12:10 to :18)
#loc2 = loc("layer"(#loc1))
#loc3 = loc(callsite(#loc2 at fused["a.py":1:2, unknown]))
