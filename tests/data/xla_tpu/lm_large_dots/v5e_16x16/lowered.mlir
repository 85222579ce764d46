module @jit_train_step attributes {mhlo.num_partitions = 256 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=1, "fsdp"=16, "fsdp_transpose"=1, "sequence"=1, "tensor"=16, "autoregressive"=1]> {stablehlo.mesh = {axes = [{name = "data", size = 1 : i64}, {name = "fsdp", size = 16 : i64}, {name = "fsdp_transpose", size = 1 : i64}, {name = "sequence", size = 1 : i64}, {name = "tensor", size = 16 : i64}, {name = "autoregressive", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg1: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg2: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg3: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg4: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg5: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg6: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg7: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg8: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg9: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg10: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg11: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg12: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg13: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg14: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg15: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg16: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg17: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg18: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg19: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg20: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg21: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg22: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg23: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg24: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg25: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg26: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg27: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg28: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg29: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg30: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg31: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg32: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg33: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg34: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg35: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg36: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg37: tensor<256x1024xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}, %arg38: tensor<256x1024xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}) -> (tensor<1024xf32> {jax.result_info = "result[0]['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[0]['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[0]['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[0]['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[0]['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[0]['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[0]['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[0]['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[0]['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[1][0].mu['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].mu['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].mu['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[1][0].mu['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[1][0].mu['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[1][0].mu['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[1][0].nu['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].nu['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].nu['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[1][0].nu['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[1][0].nu['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[1][0].nu['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256x1024xi32>
    %1 = stablehlo.compare LT, %arg37, %0, SIGNED : (tensor<256x1024xi32>, tensor<256x1024xi32>) -> tensor<256x1024xi1>
    %c_0 = stablehlo.constant dense<32768> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<256x1024xi32>
    %3 = stablehlo.add %arg37, %2 : tensor<256x1024xi32>
    %4 = stablehlo.select %1, %3, %arg37 : tensor<256x1024xi1>, tensor<256x1024xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<256x1024xi32>) -> tensor<256x1024x1xi32>
    %6 = "stablehlo.gather"(%arg11, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1024>}> : (tensor<32768x1024xf32>, tensor<256x1024x1xi32>) -> tensor<256x1024x1024xf32>
    %7 = sdy.sharding_constraint %6 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %8 = stablehlo.transpose %arg1, dims = [1, 0, 2, 3] : (tensor<1024x4x16x64xf32>) -> tensor<4x1024x16x64xf32>
    %9 = stablehlo.transpose %arg2, dims = [1, 0, 2, 3] : (tensor<16x4x64x1024xf32>) -> tensor<4x16x64x1024xf32>
    %10 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<1024x4xf32>) -> tensor<4x1024xf32>
    %11 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<1024x4xf32>) -> tensor<4x1024xf32>
    %12 = stablehlo.transpose %arg5, dims = [1, 0, 2, 3] : (tensor<1024x4x16x64xf32>) -> tensor<4x1024x16x64xf32>
    %13 = stablehlo.transpose %arg6, dims = [1, 0, 2, 3] : (tensor<1024x4x16x64xf32>) -> tensor<4x1024x16x64xf32>
    %14 = stablehlo.transpose %arg7, dims = [1, 0, 2] : (tensor<1024x4x4096xf32>) -> tensor<4x1024x4096xf32>
    %15 = stablehlo.transpose %arg8, dims = [1, 0, 2] : (tensor<1024x4x4096xf32>) -> tensor<4x1024x4096xf32>
    %16 = stablehlo.transpose %arg9, dims = [1, 0, 2] : (tensor<4096x4x1024xf32>) -> tensor<4x4096x1024xf32>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %17 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %18 = call @tril(%17) : (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %cst = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %19:2 = call @_where(%18, %cst) : (tensor<1024x1024xi1>, tensor<f32>) -> (tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x256x1024x16x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x256x1024x16x64xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x256x1024x16x64xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x256x16x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x256x16x64x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x256x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x256x1024x4096xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x256x1024x4096xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x256x1024x1024xf32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %29:22 = stablehlo.while(%iterArg = %8, %iterArg_141 = %9, %iterArg_142 = %10, %iterArg_143 = %11, %iterArg_144 = %12, %iterArg_145 = %13, %iterArg_146 = %14, %iterArg_147 = %15, %iterArg_148 = %16, %iterArg_149 = %19#0, %iterArg_150 = %19#1, %iterArg_151 = %c_11, %iterArg_152 = %7, %iterArg_153 = %20, %iterArg_154 = %21, %iterArg_155 = %22, %iterArg_156 = %23, %iterArg_157 = %24, %iterArg_158 = %25, %iterArg_159 = %26, %iterArg_160 = %27, %iterArg_161 = %28) : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>, tensor<i32>, tensor<256x1024x1024xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x16x1024x1024xf32>, tensor<4x256x16x64x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x1024xf32>
    cond {
      %c_162 = stablehlo.constant dense<4> : tensor<i32>
      %440 = stablehlo.compare LT, %iterArg_151, %c_162, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %440 : tensor<i1>
    } do {
      %440 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_151) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %441 = func.call @dynamic_index_in_dim_0(%iterArg_141, %iterArg_151) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %442 = func.call @dynamic_index_in_dim_1(%iterArg_142, %iterArg_151) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %443 = func.call @dynamic_index_in_dim_1(%iterArg_143, %iterArg_151) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %444 = func.call @dynamic_index_in_dim(%iterArg_144, %iterArg_151) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %445 = func.call @dynamic_index_in_dim(%iterArg_145, %iterArg_151) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %446 = func.call @dynamic_index_in_dim_2(%iterArg_146, %iterArg_151) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %447 = func.call @dynamic_index_in_dim_2(%iterArg_147, %iterArg_151) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %448 = func.call @dynamic_index_in_dim_3(%iterArg_148, %iterArg_151) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %449:10 = func.call @closed_call(%iterArg_149, %iterArg_150, %iterArg_152, %440, %441, %442, %443, %444, %445, %446, %447, %448) : (tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>, tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) -> (tensor<256x1024x1024xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x16x1024x1024xf32>, tensor<256x16x64x1024xf32>, tensor<256x1024x1024xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x1024xf32>)
      %450 = func.call @dynamic_update_index_in_dim(%iterArg_153, %449#1, %iterArg_151) : (tensor<4x256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<i32>) -> tensor<4x256x1024x16x64xf32>
      %451 = func.call @dynamic_update_index_in_dim(%iterArg_154, %449#2, %iterArg_151) : (tensor<4x256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<i32>) -> tensor<4x256x1024x16x64xf32>
      %452 = func.call @dynamic_update_index_in_dim(%iterArg_155, %449#3, %iterArg_151) : (tensor<4x256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<i32>) -> tensor<4x256x1024x16x64xf32>
      %453 = func.call @dynamic_update_index_in_dim_5(%iterArg_156, %449#4, %iterArg_151) : (tensor<4x256x16x1024x1024xf32>, tensor<256x16x1024x1024xf32>, tensor<i32>) -> tensor<4x256x16x1024x1024xf32>
      %454 = func.call @dynamic_update_index_in_dim_6(%iterArg_157, %449#5, %iterArg_151) : (tensor<4x256x16x64x1024xf32>, tensor<256x16x64x1024xf32>, tensor<i32>) -> tensor<4x256x16x64x1024xf32>
      %455 = func.call @dynamic_update_index_in_dim_7(%iterArg_158, %449#6, %iterArg_151) : (tensor<4x256x1024x1024xf32>, tensor<256x1024x1024xf32>, tensor<i32>) -> tensor<4x256x1024x1024xf32>
      %456 = func.call @dynamic_update_index_in_dim_8(%iterArg_159, %449#7, %iterArg_151) : (tensor<4x256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<i32>) -> tensor<4x256x1024x4096xf32>
      %457 = func.call @dynamic_update_index_in_dim_8(%iterArg_160, %449#8, %iterArg_151) : (tensor<4x256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<i32>) -> tensor<4x256x1024x4096xf32>
      %458 = func.call @dynamic_update_index_in_dim_7(%iterArg_161, %449#9, %iterArg_151) : (tensor<4x256x1024x1024xf32>, tensor<256x1024x1024xf32>, tensor<i32>) -> tensor<4x256x1024x1024xf32>
      %c_162 = stablehlo.constant dense<1> : tensor<i32>
      %459 = stablehlo.add %iterArg_151, %c_162 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_141, %iterArg_142, %iterArg_143, %iterArg_144, %iterArg_145, %iterArg_146, %iterArg_147, %iterArg_148, %iterArg_149, %iterArg_150, %459, %449#0, %450, %451, %452, %453, %454, %455, %456, %457, %458 : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>, tensor<i32>, tensor<256x1024x1024xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x16x1024x1024xf32>, tensor<4x256x16x64x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x1024xf32>
    }
    %30 = chlo.square %29#12 : tensor<256x1024x1024xf32> -> tensor<256x1024x1024xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<256x1024x1024xf32>
    %32 = stablehlo.multiply %31, %29#12 : tensor<256x1024x1024xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.reduce(%30 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %cst_14 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %36 = stablehlo.divide %34, %35 : tensor<256x1024x1xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %38 = stablehlo.add %36, %37 : tensor<256x1024x1xf32>
    %39 = stablehlo.rsqrt %38 : tensor<256x1024x1xf32>
    %40 = stablehlo.divide %39, %38 : tensor<256x1024x1xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %42 = stablehlo.multiply %41, %40 : tensor<256x1024x1xf32>
    %43 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %44 = stablehlo.multiply %29#12, %43 : tensor<256x1024x1024xf32>
    %45 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %47 = stablehlo.multiply %44, %46 : tensor<256x1024x1024xf32>
    %48 = stablehlo.dot_general %47, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x32768xf32>) -> tensor<256x1024x32768xf32>
    %49 = sdy.sharding_constraint %48 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x32768xf32>
    %50 = call @_one_hot(%arg38) : (tensor<256x1024xi32>) -> tensor<256x1024x32768xf32>
    %51:3 = call @log_softmax(%49) : (tensor<256x1024x32768xf32>) -> (tensor<256x1024x32768xf32>, tensor<256x1024x32768xf32>, tensor<256x1024x1xf32>)
    %52 = stablehlo.multiply %50, %51#0 : tensor<256x1024x32768xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%52 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x32768xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.reduce(%53 init: %cst_18) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_19 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %55 = stablehlo.divide %54, %cst_19 : tensor<f32>
    %56 = stablehlo.negate %55 : tensor<f32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %57 = stablehlo.negate %cst_20 : tensor<f32>
    %cst_21 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %58 = stablehlo.divide %57, %cst_21 : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x32768xf32>
    %61 = stablehlo.multiply %50, %60 : tensor<256x1024x32768xf32>
    %62 = call @log_softmax_9(%51#1, %51#2, %61) : (tensor<256x1024x32768xf32>, tensor<256x1024x1xf32>, tensor<256x1024x32768xf32>) -> tensor<256x1024x32768xf32>
    %63 = sdy.sharding_constraint %62 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x32768xf32>
    %64 = stablehlo.dot_general %63, %47, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x32768xf32>, tensor<256x1024x1024xf32>) -> tensor<32768x1024xf32>
    %65 = stablehlo.transpose %64, dims = [1, 0] : (tensor<32768x1024xf32>) -> tensor<1024x32768xf32>
    %66 = stablehlo.dot_general %63, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x32768xf32>, tensor<1024x32768xf32>) -> tensor<256x1024x1024xf32>
    %67 = stablehlo.multiply %44, %66 : tensor<256x1024x1024xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_22) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %69 = stablehlo.reshape %68 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %70 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %71 = stablehlo.multiply %66, %70 : tensor<256x1024x1024xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%69 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %73 = stablehlo.multiply %29#12, %71 : tensor<256x1024x1024xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %75 = stablehlo.reshape %74 : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %76 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %77 = stablehlo.multiply %71, %76 : tensor<256x1024x1024xf32>
    %78 = stablehlo.multiply %75, %42 : tensor<256x1024x1xf32>
    %cst_25 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %80 = stablehlo.divide %78, %79 : tensor<256x1024x1xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %81 = stablehlo.reduce(%80 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1024xf32>
    %83 = stablehlo.multiply %82, %32 : tensor<256x1024x1024xf32>
    %84 = stablehlo.add %77, %83 : tensor<256x1024x1024xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x16x64x1024xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x4096x1024xf32>
    %c_36 = stablehlo.constant dense<0> : tensor<i32>
    %94:29 = stablehlo.while(%iterArg = %29#13, %iterArg_141 = %29#14, %iterArg_142 = %29#15, %iterArg_143 = %29#16, %iterArg_144 = %29#17, %iterArg_145 = %29#18, %iterArg_146 = %29#19, %iterArg_147 = %29#20, %iterArg_148 = %8, %iterArg_149 = %9, %iterArg_150 = %10, %iterArg_151 = %11, %iterArg_152 = %12, %iterArg_153 = %13, %iterArg_154 = %14, %iterArg_155 = %15, %iterArg_156 = %16, %iterArg_157 = %29#21, %iterArg_158 = %c_36, %iterArg_159 = %84, %iterArg_160 = %85, %iterArg_161 = %86, %iterArg_162 = %87, %iterArg_163 = %88, %iterArg_164 = %89, %iterArg_165 = %90, %iterArg_166 = %91, %iterArg_167 = %92, %iterArg_168 = %93) : tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x16x1024x1024xf32>, tensor<4x256x16x64x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x4096xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<i32>, tensor<256x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    cond {
      %c_169 = stablehlo.constant dense<4> : tensor<i32>
      %440 = stablehlo.compare LT, %iterArg_158, %c_169, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %440 : tensor<i1>
    } do {
      %c_169 = stablehlo.constant dense<4> : tensor<i32>
      %440 = stablehlo.subtract %c_169, %iterArg_158 : tensor<i32>
      %c_170 = stablehlo.constant dense<1> : tensor<i32>
      %441 = stablehlo.subtract %440, %c_170 : tensor<i32>
      %442 = func.call @dynamic_index_in_dim_10(%iterArg, %441) : (tensor<4x256x1024x16x64xf32>, tensor<i32>) -> tensor<256x1024x16x64xf32>
      %443 = func.call @dynamic_index_in_dim_10(%iterArg_141, %441) : (tensor<4x256x1024x16x64xf32>, tensor<i32>) -> tensor<256x1024x16x64xf32>
      %444 = func.call @dynamic_index_in_dim_10(%iterArg_142, %441) : (tensor<4x256x1024x16x64xf32>, tensor<i32>) -> tensor<256x1024x16x64xf32>
      %445 = func.call @dynamic_index_in_dim_11(%iterArg_143, %441) : (tensor<4x256x16x1024x1024xf32>, tensor<i32>) -> tensor<256x16x1024x1024xf32>
      %446 = func.call @dynamic_index_in_dim_12(%iterArg_144, %441) : (tensor<4x256x16x64x1024xf32>, tensor<i32>) -> tensor<256x16x64x1024xf32>
      %447 = func.call @dynamic_index_in_dim_13(%iterArg_145, %441) : (tensor<4x256x1024x1024xf32>, tensor<i32>) -> tensor<256x1024x1024xf32>
      %448 = func.call @dynamic_index_in_dim_14(%iterArg_146, %441) : (tensor<4x256x1024x4096xf32>, tensor<i32>) -> tensor<256x1024x4096xf32>
      %449 = func.call @dynamic_index_in_dim_14(%iterArg_147, %441) : (tensor<4x256x1024x4096xf32>, tensor<i32>) -> tensor<256x1024x4096xf32>
      %450 = func.call @dynamic_index_in_dim(%iterArg_148, %441) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %451 = func.call @dynamic_index_in_dim_0(%iterArg_149, %441) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %452 = func.call @dynamic_index_in_dim_1(%iterArg_150, %441) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %453 = func.call @dynamic_index_in_dim_1(%iterArg_151, %441) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %454 = func.call @dynamic_index_in_dim(%iterArg_152, %441) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %455 = func.call @dynamic_index_in_dim(%iterArg_153, %441) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %456 = func.call @dynamic_index_in_dim_2(%iterArg_154, %441) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %457 = func.call @dynamic_index_in_dim_2(%iterArg_155, %441) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %458 = func.call @dynamic_index_in_dim_3(%iterArg_156, %441) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %459 = func.call @dynamic_index_in_dim_13(%iterArg_157, %441) : (tensor<4x256x1024x1024xf32>, tensor<i32>) -> tensor<256x1024x1024xf32>
      %460:10 = func.call @closed_call_15(%iterArg_159, %442, %443, %444, %445, %446, %447, %448, %449, %450, %451, %452, %453, %454, %455, %456, %457, %458, %459) : (tensor<256x1024x1024xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x16x1024x1024xf32>, tensor<256x16x64x1024xf32>, tensor<256x1024x1024xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>, tensor<256x1024x1024xf32>) -> (tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>)
      %461 = func.call @dynamic_update_index_in_dim_21(%iterArg_160, %460#1, %441) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %462 = func.call @dynamic_update_index_in_dim_22(%iterArg_161, %460#2, %441) : (tensor<4x16x64x1024xf32>, tensor<16x64x1024xf32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
      %463 = func.call @dynamic_update_index_in_dim_23(%iterArg_162, %460#3, %441) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %464 = func.call @dynamic_update_index_in_dim_23(%iterArg_163, %460#4, %441) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %465 = func.call @dynamic_update_index_in_dim_21(%iterArg_164, %460#5, %441) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %466 = func.call @dynamic_update_index_in_dim_21(%iterArg_165, %460#6, %441) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %467 = func.call @dynamic_update_index_in_dim_24(%iterArg_166, %460#7, %441) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %468 = func.call @dynamic_update_index_in_dim_24(%iterArg_167, %460#8, %441) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %469 = func.call @dynamic_update_index_in_dim_25(%iterArg_168, %460#9, %441) : (tensor<4x4096x1024xf32>, tensor<4096x1024xf32>, tensor<i32>) -> tensor<4x4096x1024xf32>
      %c_171 = stablehlo.constant dense<1> : tensor<i32>
      %470 = stablehlo.add %iterArg_158, %c_171 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_141, %iterArg_142, %iterArg_143, %iterArg_144, %iterArg_145, %iterArg_146, %iterArg_147, %iterArg_148, %iterArg_149, %iterArg_150, %iterArg_151, %iterArg_152, %iterArg_153, %iterArg_154, %iterArg_155, %iterArg_156, %iterArg_157, %470, %460#0, %461, %462, %463, %464, %465, %466, %467, %468, %469 : tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x1024x16x64xf32>, tensor<4x256x16x1024x1024xf32>, tensor<4x256x16x64x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<4x256x1024x4096xf32>, tensor<4x256x1024x4096xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x256x1024x1024xf32>, tensor<i32>, tensor<256x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    }
    %95 = stablehlo.transpose %94#28, dims = [1, 0, 2] : (tensor<4x4096x1024xf32>) -> tensor<4096x4x1024xf32>
    %96 = stablehlo.transpose %94#27, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %97 = stablehlo.transpose %94#26, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %98 = stablehlo.transpose %94#25, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %99 = stablehlo.transpose %94#24, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %100 = stablehlo.transpose %94#23, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %101 = stablehlo.transpose %94#22, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %102 = stablehlo.transpose %94#21, dims = [1, 0, 2, 3] : (tensor<4x16x64x1024xf32>) -> tensor<16x4x64x1024xf32>
    %103 = stablehlo.transpose %94#20, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %104 = sdy.sharding_constraint %94#19 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %106 = "stablehlo.scatter"(%105, %5, %104) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %440 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %440 : tensor<f32>
    }) : (tensor<32768x1024xf32>, tensor<256x1024x1xi32>, tensor<256x1024x1024xf32>) -> tensor<32768x1024xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %108 = stablehlo.multiply %107, %72 : tensor<1024xf32>
    %cst_39 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %110 = stablehlo.multiply %109, %arg13 : tensor<1024xf32>
    %111 = stablehlo.add %108, %110 : tensor<1024xf32>
    %cst_40 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %113 = stablehlo.multiply %112, %103 : tensor<1024x4x16x64xf32>
    %cst_41 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %115 = stablehlo.multiply %114, %arg14 : tensor<1024x4x16x64xf32>
    %116 = stablehlo.add %113, %115 : tensor<1024x4x16x64xf32>
    %cst_42 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %118 = stablehlo.multiply %117, %102 : tensor<16x4x64x1024xf32>
    %cst_43 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %120 = stablehlo.multiply %119, %arg15 : tensor<16x4x64x1024xf32>
    %121 = stablehlo.add %118, %120 : tensor<16x4x64x1024xf32>
    %cst_44 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %123 = stablehlo.multiply %122, %101 : tensor<1024x4xf32>
    %cst_45 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %125 = stablehlo.multiply %124, %arg16 : tensor<1024x4xf32>
    %126 = stablehlo.add %123, %125 : tensor<1024x4xf32>
    %cst_46 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %128 = stablehlo.multiply %127, %100 : tensor<1024x4xf32>
    %cst_47 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %130 = stablehlo.multiply %129, %arg17 : tensor<1024x4xf32>
    %131 = stablehlo.add %128, %130 : tensor<1024x4xf32>
    %cst_48 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %133 = stablehlo.multiply %132, %99 : tensor<1024x4x16x64xf32>
    %cst_49 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %135 = stablehlo.multiply %134, %arg18 : tensor<1024x4x16x64xf32>
    %136 = stablehlo.add %133, %135 : tensor<1024x4x16x64xf32>
    %cst_50 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %138 = stablehlo.multiply %137, %98 : tensor<1024x4x16x64xf32>
    %cst_51 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %140 = stablehlo.multiply %139, %arg19 : tensor<1024x4x16x64xf32>
    %141 = stablehlo.add %138, %140 : tensor<1024x4x16x64xf32>
    %cst_52 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %143 = stablehlo.multiply %142, %97 : tensor<1024x4x4096xf32>
    %cst_53 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %145 = stablehlo.multiply %144, %arg20 : tensor<1024x4x4096xf32>
    %146 = stablehlo.add %143, %145 : tensor<1024x4x4096xf32>
    %cst_54 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %148 = stablehlo.multiply %147, %96 : tensor<1024x4x4096xf32>
    %cst_55 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %150 = stablehlo.multiply %149, %arg21 : tensor<1024x4x4096xf32>
    %151 = stablehlo.add %148, %150 : tensor<1024x4x4096xf32>
    %cst_56 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %153 = stablehlo.multiply %152, %95 : tensor<4096x4x1024xf32>
    %cst_57 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %155 = stablehlo.multiply %154, %arg22 : tensor<4096x4x1024xf32>
    %156 = stablehlo.add %153, %155 : tensor<4096x4x1024xf32>
    %cst_58 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %158 = stablehlo.multiply %157, %65 : tensor<1024x32768xf32>
    %cst_59 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %160 = stablehlo.multiply %159, %arg23 : tensor<1024x32768xf32>
    %161 = stablehlo.add %158, %160 : tensor<1024x32768xf32>
    %cst_60 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %163 = stablehlo.multiply %162, %106 : tensor<32768x1024xf32>
    %cst_61 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %164 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %165 = stablehlo.multiply %164, %arg24 : tensor<32768x1024xf32>
    %166 = stablehlo.add %163, %165 : tensor<32768x1024xf32>
    %167 = stablehlo.multiply %72, %72 : tensor<1024xf32>
    %cst_62 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %169 = stablehlo.multiply %168, %167 : tensor<1024xf32>
    %cst_63 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %170 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %171 = stablehlo.multiply %170, %arg25 : tensor<1024xf32>
    %172 = stablehlo.add %169, %171 : tensor<1024xf32>
    %173 = stablehlo.multiply %103, %103 : tensor<1024x4x16x64xf32>
    %cst_64 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %175 = stablehlo.multiply %174, %173 : tensor<1024x4x16x64xf32>
    %cst_65 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %176 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %177 = stablehlo.multiply %176, %arg26 : tensor<1024x4x16x64xf32>
    %178 = stablehlo.add %175, %177 : tensor<1024x4x16x64xf32>
    %179 = stablehlo.multiply %102, %102 : tensor<16x4x64x1024xf32>
    %cst_66 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %181 = stablehlo.multiply %180, %179 : tensor<16x4x64x1024xf32>
    %cst_67 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %183 = stablehlo.multiply %182, %arg27 : tensor<16x4x64x1024xf32>
    %184 = stablehlo.add %181, %183 : tensor<16x4x64x1024xf32>
    %185 = stablehlo.multiply %101, %101 : tensor<1024x4xf32>
    %cst_68 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %187 = stablehlo.multiply %186, %185 : tensor<1024x4xf32>
    %cst_69 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %189 = stablehlo.multiply %188, %arg28 : tensor<1024x4xf32>
    %190 = stablehlo.add %187, %189 : tensor<1024x4xf32>
    %191 = stablehlo.multiply %100, %100 : tensor<1024x4xf32>
    %cst_70 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %193 = stablehlo.multiply %192, %191 : tensor<1024x4xf32>
    %cst_71 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %195 = stablehlo.multiply %194, %arg29 : tensor<1024x4xf32>
    %196 = stablehlo.add %193, %195 : tensor<1024x4xf32>
    %197 = stablehlo.multiply %99, %99 : tensor<1024x4x16x64xf32>
    %cst_72 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %199 = stablehlo.multiply %198, %197 : tensor<1024x4x16x64xf32>
    %cst_73 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %200 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %201 = stablehlo.multiply %200, %arg30 : tensor<1024x4x16x64xf32>
    %202 = stablehlo.add %199, %201 : tensor<1024x4x16x64xf32>
    %203 = stablehlo.multiply %98, %98 : tensor<1024x4x16x64xf32>
    %cst_74 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %204 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %205 = stablehlo.multiply %204, %203 : tensor<1024x4x16x64xf32>
    %cst_75 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %206 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %207 = stablehlo.multiply %206, %arg31 : tensor<1024x4x16x64xf32>
    %208 = stablehlo.add %205, %207 : tensor<1024x4x16x64xf32>
    %209 = stablehlo.multiply %97, %97 : tensor<1024x4x4096xf32>
    %cst_76 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %210 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %211 = stablehlo.multiply %210, %209 : tensor<1024x4x4096xf32>
    %cst_77 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %212 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %213 = stablehlo.multiply %212, %arg32 : tensor<1024x4x4096xf32>
    %214 = stablehlo.add %211, %213 : tensor<1024x4x4096xf32>
    %215 = stablehlo.multiply %96, %96 : tensor<1024x4x4096xf32>
    %cst_78 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %217 = stablehlo.multiply %216, %215 : tensor<1024x4x4096xf32>
    %cst_79 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %218 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %219 = stablehlo.multiply %218, %arg33 : tensor<1024x4x4096xf32>
    %220 = stablehlo.add %217, %219 : tensor<1024x4x4096xf32>
    %221 = stablehlo.multiply %95, %95 : tensor<4096x4x1024xf32>
    %cst_80 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %223 = stablehlo.multiply %222, %221 : tensor<4096x4x1024xf32>
    %cst_81 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %224 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %225 = stablehlo.multiply %224, %arg34 : tensor<4096x4x1024xf32>
    %226 = stablehlo.add %223, %225 : tensor<4096x4x1024xf32>
    %227 = stablehlo.multiply %65, %65 : tensor<1024x32768xf32>
    %cst_82 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %229 = stablehlo.multiply %228, %227 : tensor<1024x32768xf32>
    %cst_83 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %231 = stablehlo.multiply %230, %arg35 : tensor<1024x32768xf32>
    %232 = stablehlo.add %229, %231 : tensor<1024x32768xf32>
    %233 = stablehlo.multiply %106, %106 : tensor<32768x1024xf32>
    %cst_84 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %234 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %235 = stablehlo.multiply %234, %233 : tensor<32768x1024xf32>
    %cst_85 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %236 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %237 = stablehlo.multiply %236, %arg36 : tensor<32768x1024xf32>
    %238 = stablehlo.add %235, %237 : tensor<32768x1024xf32>
    %c_86 = stablehlo.constant dense<2147483647> : tensor<i32>
    %239 = stablehlo.compare LT, %arg12, %c_86, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_87 = stablehlo.constant dense<1> : tensor<i32>
    %240 = stablehlo.add %arg12, %c_87 : tensor<i32>
    %c_88 = stablehlo.constant dense<2147483647> : tensor<i32>
    %241 = call @_where_26(%239, %240, %c_88) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_89 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %242 = stablehlo.convert %241 : (tensor<i32>) -> tensor<f32>
    %243 = stablehlo.power %cst_89, %242 : tensor<f32>
    %cst_90 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %244 = stablehlo.subtract %cst_90, %243 : tensor<f32>
    %245 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %246 = stablehlo.divide %111, %245 : tensor<1024xf32>
    %247 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %248 = stablehlo.divide %116, %247 : tensor<1024x4x16x64xf32>
    %249 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %250 = stablehlo.divide %121, %249 : tensor<16x4x64x1024xf32>
    %251 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %252 = stablehlo.divide %126, %251 : tensor<1024x4xf32>
    %253 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %254 = stablehlo.divide %131, %253 : tensor<1024x4xf32>
    %255 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %256 = stablehlo.divide %136, %255 : tensor<1024x4x16x64xf32>
    %257 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %258 = stablehlo.divide %141, %257 : tensor<1024x4x16x64xf32>
    %259 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %260 = stablehlo.divide %146, %259 : tensor<1024x4x4096xf32>
    %261 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %262 = stablehlo.divide %151, %261 : tensor<1024x4x4096xf32>
    %263 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %264 = stablehlo.divide %156, %263 : tensor<4096x4x1024xf32>
    %265 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %266 = stablehlo.divide %161, %265 : tensor<1024x32768xf32>
    %267 = stablehlo.broadcast_in_dim %244, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %268 = stablehlo.divide %166, %267 : tensor<32768x1024xf32>
    %cst_91 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %269 = stablehlo.convert %241 : (tensor<i32>) -> tensor<f32>
    %270 = stablehlo.power %cst_91, %269 : tensor<f32>
    %cst_92 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %271 = stablehlo.subtract %cst_92, %270 : tensor<f32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %273 = stablehlo.divide %172, %272 : tensor<1024xf32>
    %274 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %275 = stablehlo.divide %178, %274 : tensor<1024x4x16x64xf32>
    %276 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %277 = stablehlo.divide %184, %276 : tensor<16x4x64x1024xf32>
    %278 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %279 = stablehlo.divide %190, %278 : tensor<1024x4xf32>
    %280 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %281 = stablehlo.divide %196, %280 : tensor<1024x4xf32>
    %282 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %283 = stablehlo.divide %202, %282 : tensor<1024x4x16x64xf32>
    %284 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %285 = stablehlo.divide %208, %284 : tensor<1024x4x16x64xf32>
    %286 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %287 = stablehlo.divide %214, %286 : tensor<1024x4x4096xf32>
    %288 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %289 = stablehlo.divide %220, %288 : tensor<1024x4x4096xf32>
    %290 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %291 = stablehlo.divide %226, %290 : tensor<4096x4x1024xf32>
    %292 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %293 = stablehlo.divide %232, %292 : tensor<1024x32768xf32>
    %294 = stablehlo.broadcast_in_dim %271, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %295 = stablehlo.divide %238, %294 : tensor<32768x1024xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %296 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %297 = stablehlo.add %273, %296 : tensor<1024xf32>
    %298 = stablehlo.sqrt %297 : tensor<1024xf32>
    %cst_94 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %299 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %300 = stablehlo.add %298, %299 : tensor<1024xf32>
    %301 = stablehlo.divide %246, %300 : tensor<1024xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %302 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %303 = stablehlo.add %275, %302 : tensor<1024x4x16x64xf32>
    %304 = stablehlo.sqrt %303 : tensor<1024x4x16x64xf32>
    %cst_96 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %305 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %306 = stablehlo.add %304, %305 : tensor<1024x4x16x64xf32>
    %307 = stablehlo.divide %248, %306 : tensor<1024x4x16x64xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %308 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %309 = stablehlo.add %277, %308 : tensor<16x4x64x1024xf32>
    %310 = stablehlo.sqrt %309 : tensor<16x4x64x1024xf32>
    %cst_98 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %311 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %312 = stablehlo.add %310, %311 : tensor<16x4x64x1024xf32>
    %313 = stablehlo.divide %250, %312 : tensor<16x4x64x1024xf32>
    %cst_99 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %314 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %315 = stablehlo.add %279, %314 : tensor<1024x4xf32>
    %316 = stablehlo.sqrt %315 : tensor<1024x4xf32>
    %cst_100 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %317 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %318 = stablehlo.add %316, %317 : tensor<1024x4xf32>
    %319 = stablehlo.divide %252, %318 : tensor<1024x4xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %320 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %321 = stablehlo.add %281, %320 : tensor<1024x4xf32>
    %322 = stablehlo.sqrt %321 : tensor<1024x4xf32>
    %cst_102 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %323 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %324 = stablehlo.add %322, %323 : tensor<1024x4xf32>
    %325 = stablehlo.divide %254, %324 : tensor<1024x4xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %326 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %327 = stablehlo.add %283, %326 : tensor<1024x4x16x64xf32>
    %328 = stablehlo.sqrt %327 : tensor<1024x4x16x64xf32>
    %cst_104 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %329 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %330 = stablehlo.add %328, %329 : tensor<1024x4x16x64xf32>
    %331 = stablehlo.divide %256, %330 : tensor<1024x4x16x64xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %332 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %333 = stablehlo.add %285, %332 : tensor<1024x4x16x64xf32>
    %334 = stablehlo.sqrt %333 : tensor<1024x4x16x64xf32>
    %cst_106 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %335 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %336 = stablehlo.add %334, %335 : tensor<1024x4x16x64xf32>
    %337 = stablehlo.divide %258, %336 : tensor<1024x4x16x64xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %338 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %339 = stablehlo.add %287, %338 : tensor<1024x4x4096xf32>
    %340 = stablehlo.sqrt %339 : tensor<1024x4x4096xf32>
    %cst_108 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %341 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %342 = stablehlo.add %340, %341 : tensor<1024x4x4096xf32>
    %343 = stablehlo.divide %260, %342 : tensor<1024x4x4096xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %344 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %345 = stablehlo.add %289, %344 : tensor<1024x4x4096xf32>
    %346 = stablehlo.sqrt %345 : tensor<1024x4x4096xf32>
    %cst_110 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %347 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %348 = stablehlo.add %346, %347 : tensor<1024x4x4096xf32>
    %349 = stablehlo.divide %262, %348 : tensor<1024x4x4096xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %350 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %351 = stablehlo.add %291, %350 : tensor<4096x4x1024xf32>
    %352 = stablehlo.sqrt %351 : tensor<4096x4x1024xf32>
    %cst_112 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %353 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %354 = stablehlo.add %352, %353 : tensor<4096x4x1024xf32>
    %355 = stablehlo.divide %264, %354 : tensor<4096x4x1024xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %356 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %357 = stablehlo.add %293, %356 : tensor<1024x32768xf32>
    %358 = stablehlo.sqrt %357 : tensor<1024x32768xf32>
    %cst_114 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %359 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %360 = stablehlo.add %358, %359 : tensor<1024x32768xf32>
    %361 = stablehlo.divide %266, %360 : tensor<1024x32768xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %362 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %363 = stablehlo.add %295, %362 : tensor<32768x1024xf32>
    %364 = stablehlo.sqrt %363 : tensor<32768x1024xf32>
    %cst_116 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %365 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %366 = stablehlo.add %364, %365 : tensor<32768x1024xf32>
    %367 = stablehlo.divide %268, %366 : tensor<32768x1024xf32>
    %cst_117 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %368 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %369 = stablehlo.multiply %368, %arg0 : tensor<1024xf32>
    %370 = stablehlo.add %301, %369 : tensor<1024xf32>
    %cst_118 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %371 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %372 = stablehlo.multiply %371, %arg1 : tensor<1024x4x16x64xf32>
    %373 = stablehlo.add %307, %372 : tensor<1024x4x16x64xf32>
    %cst_119 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %374 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %375 = stablehlo.multiply %374, %arg2 : tensor<16x4x64x1024xf32>
    %376 = stablehlo.add %313, %375 : tensor<16x4x64x1024xf32>
    %cst_120 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %377 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %378 = stablehlo.multiply %377, %arg3 : tensor<1024x4xf32>
    %379 = stablehlo.add %319, %378 : tensor<1024x4xf32>
    %cst_121 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %380 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %381 = stablehlo.multiply %380, %arg4 : tensor<1024x4xf32>
    %382 = stablehlo.add %325, %381 : tensor<1024x4xf32>
    %cst_122 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %383 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %384 = stablehlo.multiply %383, %arg5 : tensor<1024x4x16x64xf32>
    %385 = stablehlo.add %331, %384 : tensor<1024x4x16x64xf32>
    %cst_123 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %386 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %387 = stablehlo.multiply %386, %arg6 : tensor<1024x4x16x64xf32>
    %388 = stablehlo.add %337, %387 : tensor<1024x4x16x64xf32>
    %cst_124 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %389 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %390 = stablehlo.multiply %389, %arg7 : tensor<1024x4x4096xf32>
    %391 = stablehlo.add %343, %390 : tensor<1024x4x4096xf32>
    %cst_125 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %392 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %393 = stablehlo.multiply %392, %arg8 : tensor<1024x4x4096xf32>
    %394 = stablehlo.add %349, %393 : tensor<1024x4x4096xf32>
    %cst_126 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %395 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %396 = stablehlo.multiply %395, %arg9 : tensor<4096x4x1024xf32>
    %397 = stablehlo.add %355, %396 : tensor<4096x4x1024xf32>
    %cst_127 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %398 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %399 = stablehlo.multiply %398, %arg10 : tensor<1024x32768xf32>
    %400 = stablehlo.add %361, %399 : tensor<1024x32768xf32>
    %cst_128 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %401 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %402 = stablehlo.multiply %401, %arg11 : tensor<32768x1024xf32>
    %403 = stablehlo.add %367, %402 : tensor<32768x1024xf32>
    %cst_129 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %405 = stablehlo.multiply %404, %370 : tensor<1024xf32>
    %cst_130 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %406 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %407 = stablehlo.multiply %406, %373 : tensor<1024x4x16x64xf32>
    %cst_131 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %408 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %409 = stablehlo.multiply %408, %376 : tensor<16x4x64x1024xf32>
    %cst_132 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %410 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %411 = stablehlo.multiply %410, %379 : tensor<1024x4xf32>
    %cst_133 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %412 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %413 = stablehlo.multiply %412, %382 : tensor<1024x4xf32>
    %cst_134 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %415 = stablehlo.multiply %414, %385 : tensor<1024x4x16x64xf32>
    %cst_135 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %416 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %417 = stablehlo.multiply %416, %388 : tensor<1024x4x16x64xf32>
    %cst_136 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %418 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %419 = stablehlo.multiply %418, %391 : tensor<1024x4x4096xf32>
    %cst_137 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %420 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %421 = stablehlo.multiply %420, %394 : tensor<1024x4x4096xf32>
    %cst_138 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %422 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %423 = stablehlo.multiply %422, %397 : tensor<4096x4x1024xf32>
    %cst_139 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %424 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %425 = stablehlo.multiply %424, %400 : tensor<1024x32768xf32>
    %cst_140 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %426 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %427 = stablehlo.multiply %426, %403 : tensor<32768x1024xf32>
    %428 = stablehlo.add %arg0, %405 : tensor<1024xf32>
    %429 = stablehlo.add %arg1, %407 : tensor<1024x4x16x64xf32>
    %430 = stablehlo.add %arg2, %409 : tensor<16x4x64x1024xf32>
    %431 = stablehlo.add %arg3, %411 : tensor<1024x4xf32>
    %432 = stablehlo.add %arg4, %413 : tensor<1024x4xf32>
    %433 = stablehlo.add %arg5, %415 : tensor<1024x4x16x64xf32>
    %434 = stablehlo.add %arg6, %417 : tensor<1024x4x16x64xf32>
    %435 = stablehlo.add %arg7, %419 : tensor<1024x4x4096xf32>
    %436 = stablehlo.add %arg8, %421 : tensor<1024x4x4096xf32>
    %437 = stablehlo.add %arg9, %423 : tensor<4096x4x1024xf32>
    %438 = stablehlo.add %arg10, %425 : tensor<1024x32768xf32>
    %439 = stablehlo.add %arg11, %427 : tensor<32768x1024xf32>
    return %428, %429, %430, %431, %432, %433, %434, %435, %436, %437, %438, %439, %241, %111, %116, %121, %126, %131, %136, %141, %146, %151, %156, %161, %166, %172, %178, %184, %190, %196, %202, %208, %214, %220, %226, %232, %238, %56 : tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<i32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<f32>
  }
  func.func private @tril(%arg0: tensor<1024x1024xi1>) -> tensor<1024x1024xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<1024x1024xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1024x1024xi32>
    %2 = stablehlo.add %0, %1 : tensor<1024x1024xi32>
    %3 = stablehlo.iota dim = 1 : tensor<1024x1024xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<1024x1024xi1>, tensor<1024x1024xi1>
    return %6 : tensor<1024x1024xi1>
  }
  func.func private @_where(%arg0: tensor<1024x1024xi1>, %arg1: tensor<f32>) -> (tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<256x16x1024x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    return %0, %1 : tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x1024x16x64xf32>, %arg1: tensor<i32>) -> tensor<1024x16x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 1024, 16, 64] : (tensor<4x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1024x16x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1024x16x64xf32>) -> tensor<1024x16x64xf32>
    return %1 : tensor<1024x16x64xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x16x64x1024xf32>, %arg1: tensor<i32>) -> tensor<16x64x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 16, 64, 1024] : (tensor<4x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x64x1024xf32>) -> tensor<16x64x1024xf32>
    return %1 : tensor<16x64x1024xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<4x1024xf32>, %arg1: tensor<i32>) -> tensor<1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 1024] : (tensor<4x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1024xf32>) -> tensor<1024xf32>
    return %1 : tensor<1024xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<4x1024x4096xf32>, %arg1: tensor<i32>) -> tensor<1024x4096xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 1024, 4096] : (tensor<4x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1024x4096xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1024x4096xf32>) -> tensor<1024x4096xf32>
    return %1 : tensor<1024x4096xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4x4096x1024xf32>, %arg1: tensor<i32>) -> tensor<4096x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4096, 1024] : (tensor<4x4096x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4096x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4096x1024xf32>) -> tensor<4096x1024xf32>
    return %1 : tensor<4096x1024xf32>
  }
  func.func private @closed_call(%arg0: tensor<256x16x1024x1024xi1>, %arg1: tensor<256x16x1024x1024xf32>, %arg2: tensor<256x1024x1024xf32>, %arg3: tensor<1024x16x64xf32>, %arg4: tensor<16x64x1024xf32>, %arg5: tensor<1024xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<1024x16x64xf32>, %arg8: tensor<1024x16x64xf32>, %arg9: tensor<1024x4096xf32>, %arg10: tensor<1024x4096xf32>, %arg11: tensor<4096x1024xf32>) -> (tensor<256x1024x1024xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x16x1024x1024xf32>, tensor<256x16x64x1024xf32>, tensor<256x1024x1024xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x1024xf32>) {
    %0 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %1 = chlo.square %0 : tensor<256x1024x1024xf32> -> tensor<256x1024x1024xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %cst_0 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<256x1024x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<256x1024x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<256x1024x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %10 = stablehlo.multiply %0, %9 : tensor<256x1024x1024xf32>
    %11 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<256x1024x1024xf32>
    %14 = sdy.sharding_constraint %13 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %15 = stablehlo.dot_general %14, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x16x64xf32>
    %16 = stablehlo.reduce_precision %15, format = e8m23 : tensor<256x1024x16x64xf32>
    %17 = sdy.sharding_constraint %16 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %18 = stablehlo.dot_general %14, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x16x64xf32>
    %19 = stablehlo.reduce_precision %18, format = e8m23 : tensor<256x1024x16x64xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %21 = stablehlo.dot_general %14, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x16x64xf32>
    %22 = stablehlo.reduce_precision %21, format = e8m23 : tensor<256x1024x16x64xf32>
    %23 = sdy.sharding_constraint %22 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %24 = stablehlo.dot_general %17, %20, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>) -> tensor<256x16x1024x1024xf32>
    %25 = stablehlo.reduce_precision %24, format = e8m23 : tensor<256x16x1024x1024xf32>
    %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    %27 = stablehlo.divide %25, %26 : tensor<256x16x1024x1024xf32>
    %28 = call @_where_4(%27, %arg0, %arg1) : (tensor<256x16x1024x1024xf32>, tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>) -> tensor<256x16x1024x1024xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<256x16x1024x1024xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<256x16x1024xf32>
    %31 = stablehlo.maximum %30, %29 : tensor<256x16x1024xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %34 = stablehlo.subtract %28, %33 : tensor<256x16x1024x1024xf32>
    %35 = stablehlo.exponential %34 : tensor<256x16x1024x1024xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.reduce(%35 init: %cst_5) applies stablehlo.add across dimensions = [3] : (tensor<256x16x1024x1024xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %39 = stablehlo.divide %35, %38 : tensor<256x16x1024x1024xf32>
    %40 = stablehlo.dot_general %23, %39, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<256x16x1024x1024xf32>) -> tensor<256x16x64x1024xf32>
    %41 = stablehlo.reduce_precision %40, format = e8m23 : tensor<256x16x64x1024xf32>
    %42 = stablehlo.transpose %41, dims = [0, 3, 1, 2] : (tensor<256x16x64x1024xf32>) -> tensor<256x1024x16x64xf32>
    %43 = sdy.sharding_constraint %42 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %44 = stablehlo.dot_general %43, %arg4, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<16x64x1024xf32>) -> tensor<256x1024x1024xf32>
    %45 = stablehlo.reduce_precision %44, format = e8m23 : tensor<256x1024x1024xf32>
    %46 = sdy.sharding_constraint %45 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %47 = stablehlo.add %0, %46 : tensor<256x1024x1024xf32>
    %48 = chlo.square %47 : tensor<256x1024x1024xf32> -> tensor<256x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %cst_7 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %52 = stablehlo.divide %50, %51 : tensor<256x1024x1xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %54 = stablehlo.add %52, %53 : tensor<256x1024x1xf32>
    %55 = stablehlo.rsqrt %54 : tensor<256x1024x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %57 = stablehlo.multiply %47, %56 : tensor<256x1024x1024xf32>
    %58 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %60 = stablehlo.multiply %57, %59 : tensor<256x1024x1024xf32>
    %61 = sdy.sharding_constraint %60 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %62 = stablehlo.dot_general %61, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x1024x4096xf32>
    %63 = stablehlo.reduce_precision %62, format = e8m23 : tensor<256x1024x4096xf32>
    %64 = stablehlo.dot_general %61, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x1024x4096xf32>
    %65 = stablehlo.reduce_precision %64, format = e8m23 : tensor<256x1024x4096xf32>
    %66 = call @silu(%63) : (tensor<256x1024x4096xf32>) -> tensor<256x1024x4096xf32>
    %67 = stablehlo.multiply %66, %65 : tensor<256x1024x4096xf32>
    %68 = sdy.sharding_constraint %67 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x4096xf32>
    %69 = stablehlo.dot_general %68, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024x1024xf32>
    %70 = sdy.sharding_constraint %69 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %71 = stablehlo.add %47, %70 : tensor<256x1024x1024xf32>
    return %71, %16, %19, %22, %25, %41, %45, %63, %65, %arg2 : tensor<256x1024x1024xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x1024x16x64xf32>, tensor<256x16x1024x1024xf32>, tensor<256x16x64x1024xf32>, tensor<256x1024x1024xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x1024xf32>
  }
  func.func private @_where_4(%arg0: tensor<256x16x1024x1024xf32>, %arg1: tensor<256x16x1024x1024xi1>, %arg2: tensor<256x16x1024x1024xf32>) -> tensor<256x16x1024x1024xf32> {
    %0 = stablehlo.select %arg1, %arg0, %arg2 : tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>
    return %0 : tensor<256x16x1024x1024xf32>
  }
  func.func private @silu(%arg0: tensor<256x1024x4096xf32>) -> tensor<256x1024x4096xf32> {
    %0 = stablehlo.negate %arg0 : tensor<256x1024x4096xf32>
    %1 = stablehlo.exponential %0 : tensor<256x1024x4096xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x1024x4096xf32>
    %3 = stablehlo.add %2, %1 : tensor<256x1024x4096xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1024x4096xf32>
    %5 = stablehlo.divide %4, %3 : tensor<256x1024x4096xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<256x1024x4096xf32>
    return %6 : tensor<256x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x256x1024x16x64xf32>, %arg1: tensor<256x1024x16x64xf32>, %arg2: tensor<i32>) -> tensor<4x256x1024x16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<256x1024x16x64xf32>) -> tensor<1x256x1024x16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x256x1024x16x64xf32>, tensor<1x256x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x256x1024x16x64xf32>
    return %1 : tensor<4x256x1024x16x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_5(%arg0: tensor<4x256x16x1024x1024xf32>, %arg1: tensor<256x16x1024x1024xf32>, %arg2: tensor<i32>) -> tensor<4x256x16x1024x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<256x16x1024x1024xf32>) -> tensor<1x256x16x1024x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x256x16x1024x1024xf32>, tensor<1x256x16x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x256x16x1024x1024xf32>
    return %1 : tensor<4x256x16x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<4x256x16x64x1024xf32>, %arg1: tensor<256x16x64x1024xf32>, %arg2: tensor<i32>) -> tensor<4x256x16x64x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<256x16x64x1024xf32>) -> tensor<1x256x16x64x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x256x16x64x1024xf32>, tensor<1x256x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x256x16x64x1024xf32>
    return %1 : tensor<4x256x16x64x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<4x256x1024x1024xf32>, %arg1: tensor<256x1024x1024xf32>, %arg2: tensor<i32>) -> tensor<4x256x1024x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<256x1024x1024xf32>) -> tensor<1x256x1024x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x256x1024x1024xf32>, tensor<1x256x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x256x1024x1024xf32>
    return %1 : tensor<4x256x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<4x256x1024x4096xf32>, %arg1: tensor<256x1024x4096xf32>, %arg2: tensor<i32>) -> tensor<4x256x1024x4096xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<256x1024x4096xf32>) -> tensor<1x256x1024x4096xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x256x1024x4096xf32>, tensor<1x256x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x256x1024x4096xf32>
    return %1 : tensor<4x256x1024x4096xf32>
  }
  func.func private @_one_hot(%arg0: tensor<256x1024xi32>) -> tensor<256x1024x32768xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<256x1024xi32>) -> tensor<256x1024x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x32768xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<256x1024x1xi32>) -> tensor<256x1024x32768xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x32768xi32>) -> tensor<256x1024x32768xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<256x1024x32768xi32>, tensor<256x1024x32768xi32>) -> tensor<256x1024x32768xi1>
    %5 = stablehlo.convert %4 : (tensor<256x1024x32768xi1>) -> tensor<256x1024x32768xf32>
    return %5 : tensor<256x1024x32768xf32>
  }
  func.func private @log_softmax(%arg0: tensor<256x1024x32768xf32>) -> (tensor<256x1024x32768xf32>, tensor<256x1024x32768xf32>, tensor<256x1024x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<256x1024x32768xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<256x1024xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x32768xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<256x1024x32768xf32>
    %6 = stablehlo.exponential %5 : tensor<256x1024x32768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x32768xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %9 = stablehlo.log %8 : tensor<256x1024x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x32768xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<256x1024x32768xf32>
    return %11, %6, %8 : tensor<256x1024x32768xf32>, tensor<256x1024x32768xf32>, tensor<256x1024x1xf32>
  }
  func.func private @log_softmax_9(%arg0: tensor<256x1024x32768xf32>, %arg1: tensor<256x1024x1xf32>, %arg2: tensor<256x1024x32768xf32>) -> tensor<256x1024x32768xf32> {
    %0 = stablehlo.negate %arg2 : tensor<256x1024x32768xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x32768xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %2 = stablehlo.reshape %1 : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<256x1024x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x32768xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<256x1024x32768xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<256x1024x32768xf32>
    return %7 : tensor<256x1024x32768xf32>
  }
  func.func private @dynamic_index_in_dim_10(%arg0: tensor<4x256x1024x16x64xf32>, %arg1: tensor<i32>) -> tensor<256x1024x16x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 256, 1024, 16, 64] : (tensor<4x256x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x1024x16x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x1024x16x64xf32>) -> tensor<256x1024x16x64xf32>
    return %1 : tensor<256x1024x16x64xf32>
  }
  func.func private @dynamic_index_in_dim_11(%arg0: tensor<4x256x16x1024x1024xf32>, %arg1: tensor<i32>) -> tensor<256x16x1024x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 256, 16, 1024, 1024] : (tensor<4x256x16x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x16x1024x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x16x1024x1024xf32>) -> tensor<256x16x1024x1024xf32>
    return %1 : tensor<256x16x1024x1024xf32>
  }
  func.func private @dynamic_index_in_dim_12(%arg0: tensor<4x256x16x64x1024xf32>, %arg1: tensor<i32>) -> tensor<256x16x64x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 256, 16, 64, 1024] : (tensor<4x256x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x16x64x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x16x64x1024xf32>) -> tensor<256x16x64x1024xf32>
    return %1 : tensor<256x16x64x1024xf32>
  }
  func.func private @dynamic_index_in_dim_13(%arg0: tensor<4x256x1024x1024xf32>, %arg1: tensor<i32>) -> tensor<256x1024x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 256, 1024, 1024] : (tensor<4x256x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x1024x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x1024x1024xf32>) -> tensor<256x1024x1024xf32>
    return %1 : tensor<256x1024x1024xf32>
  }
  func.func private @dynamic_index_in_dim_14(%arg0: tensor<4x256x1024x4096xf32>, %arg1: tensor<i32>) -> tensor<256x1024x4096xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 256, 1024, 4096] : (tensor<4x256x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x1024x4096xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x1024x4096xf32>) -> tensor<256x1024x4096xf32>
    return %1 : tensor<256x1024x4096xf32>
  }
  func.func private @closed_call_15(%arg0: tensor<256x1024x1024xf32>, %arg1: tensor<256x1024x16x64xf32>, %arg2: tensor<256x1024x16x64xf32>, %arg3: tensor<256x1024x16x64xf32>, %arg4: tensor<256x16x1024x1024xf32>, %arg5: tensor<256x16x64x1024xf32>, %arg6: tensor<256x1024x1024xf32>, %arg7: tensor<256x1024x4096xf32>, %arg8: tensor<256x1024x4096xf32>, %arg9: tensor<1024x16x64xf32>, %arg10: tensor<16x64x1024xf32>, %arg11: tensor<1024xf32>, %arg12: tensor<1024xf32>, %arg13: tensor<1024x16x64xf32>, %arg14: tensor<1024x16x64xf32>, %arg15: tensor<1024x4096xf32>, %arg16: tensor<1024x4096xf32>, %arg17: tensor<4096x1024xf32>, %arg18: tensor<256x1024x1024xf32>) -> (tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) {
    %0 = sdy.sharding_constraint %arg18 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %1 = chlo.square %0 : tensor<256x1024x1024xf32> -> tensor<256x1024x1024xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x1024x1024xf32>
    %3 = stablehlo.multiply %2, %0 : tensor<256x1024x1024xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %cst_1 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %7 = stablehlo.divide %5, %6 : tensor<256x1024x1xf32>
    %cst_2 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %9 = stablehlo.add %7, %8 : tensor<256x1024x1xf32>
    %10 = stablehlo.rsqrt %9 : tensor<256x1024x1xf32>
    %11 = stablehlo.divide %10, %9 : tensor<256x1024x1xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<256x1024x1xf32>
    %14 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %15 = stablehlo.multiply %0, %14 : tensor<256x1024x1024xf32>
    %16 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<256x1024x1024xf32>
    %19 = sdy.sharding_constraint %18 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %20 = sdy.sharding_constraint %arg1 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %21 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %22 = sdy.sharding_constraint %arg3 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    %24 = stablehlo.divide %arg4, %23 : tensor<256x16x1024x1024xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %25 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %26 = call @tril_16(%25) : (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %cst_5 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %27:2 = call @_where_17(%26, %24, %cst_5) : (tensor<1024x1024xi1>, tensor<256x16x1024x1024xf32>, tensor<f32>) -> (tensor<256x16x1024x1024xf32>, tensor<256x16x1024x1024xi1>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %28 = stablehlo.reduce(%27#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<256x16x1024x1024xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x16x1024xf32>
    %30 = stablehlo.maximum %29, %28 : tensor<256x16x1024xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %33 = stablehlo.subtract %27#0, %32 : tensor<256x16x1024x1024xf32>
    %34 = stablehlo.exponential %33 : tensor<256x16x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%34 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<256x16x1024x1024xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %38 = stablehlo.divide %34, %37 : tensor<256x16x1024x1024xf32>
    %39 = stablehlo.multiply %36, %36 : tensor<256x16x1024x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1xf32>
    %41 = stablehlo.divide %40, %39 : tensor<256x16x1024x1xf32>
    %42 = stablehlo.transpose %arg5, dims = [0, 3, 1, 2] : (tensor<256x16x64x1024xf32>) -> tensor<256x1024x16x64xf32>
    %43 = sdy.sharding_constraint %42 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %44 = sdy.sharding_constraint %arg6 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %45 = stablehlo.add %0, %44 : tensor<256x1024x1024xf32>
    %46 = chlo.square %45 : tensor<256x1024x1024xf32> -> tensor<256x1024x1024xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<256x1024x1024xf32>
    %48 = stablehlo.multiply %47, %45 : tensor<256x1024x1024xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%46 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %cst_12 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %52 = stablehlo.divide %50, %51 : tensor<256x1024x1xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %54 = stablehlo.add %52, %53 : tensor<256x1024x1xf32>
    %55 = stablehlo.rsqrt %54 : tensor<256x1024x1xf32>
    %56 = stablehlo.divide %55, %54 : tensor<256x1024x1xf32>
    %cst_14 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %58 = stablehlo.multiply %57, %56 : tensor<256x1024x1xf32>
    %59 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %60 = stablehlo.multiply %45, %59 : tensor<256x1024x1024xf32>
    %61 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %63 = stablehlo.multiply %60, %62 : tensor<256x1024x1024xf32>
    %64 = sdy.sharding_constraint %63 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %65:3 = call @silu_18(%arg7) : (tensor<256x1024x4096xf32>) -> (tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>)
    %66 = stablehlo.multiply %65#0, %arg8 : tensor<256x1024x4096xf32>
    %67 = sdy.sharding_constraint %66 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x4096xf32>
    %68 = sdy.sharding_constraint %arg0 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %69 = stablehlo.dot_general %68, %67, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<256x1024x4096xf32>) -> tensor<1024x4096xf32>
    %70 = stablehlo.transpose %69, dims = [1, 0] : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
    %71 = stablehlo.dot_general %68, %arg17, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<4096x1024xf32>) -> tensor<256x1024x4096xf32>
    %72 = sdy.sharding_constraint %71 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x4096xf32>
    %73 = stablehlo.multiply %65#0, %72 : tensor<256x1024x4096xf32>
    %74 = stablehlo.multiply %72, %arg8 : tensor<256x1024x4096xf32>
    %75 = call @silu_19(%65#1, %arg7, %65#2, %74) : (tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>) -> tensor<256x1024x4096xf32>
    %76 = stablehlo.dot_general %73, %64, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x4096xf32>, tensor<256x1024x1024xf32>) -> tensor<4096x1024xf32>
    %77 = stablehlo.transpose %76, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %78 = stablehlo.dot_general %73, %arg16, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<256x1024x1024xf32>
    %79 = stablehlo.dot_general %75, %64, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x4096xf32>, tensor<256x1024x1024xf32>) -> tensor<4096x1024xf32>
    %80 = stablehlo.transpose %79, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %81 = stablehlo.dot_general %75, %arg15, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<256x1024x1024xf32>
    %82 = stablehlo.add %78, %81 : tensor<256x1024x1024xf32>
    %83 = sdy.sharding_constraint %82 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %84 = stablehlo.multiply %60, %83 : tensor<256x1024x1024xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %86 = stablehlo.reshape %85 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %87 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %88 = stablehlo.multiply %83, %87 : tensor<256x1024x1024xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.reduce(%86 init: %cst_16) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %90 = stablehlo.multiply %45, %88 : tensor<256x1024x1024xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.reduce(%90 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %92 = stablehlo.reshape %91 : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %93 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %94 = stablehlo.multiply %88, %93 : tensor<256x1024x1024xf32>
    %95 = stablehlo.add %arg0, %94 : tensor<256x1024x1024xf32>
    %96 = stablehlo.multiply %92, %58 : tensor<256x1024x1xf32>
    %cst_18 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %98 = stablehlo.divide %96, %97 : tensor<256x1024x1xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%98 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1024xf32>
    %101 = stablehlo.multiply %100, %48 : tensor<256x1024x1024xf32>
    %102 = stablehlo.add %95, %101 : tensor<256x1024x1024xf32>
    %103 = sdy.sharding_constraint %102 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %104 = stablehlo.dot_general %103, %43, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<256x1024x16x64xf32>) -> tensor<1024x16x64xf32>
    %105 = stablehlo.transpose %104, dims = [1, 2, 0] : (tensor<1024x16x64xf32>) -> tensor<16x64x1024xf32>
    %106 = stablehlo.dot_general %103, %arg10, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x1024xf32>, tensor<16x64x1024xf32>) -> tensor<256x1024x16x64xf32>
    %107 = sdy.sharding_constraint %106 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %108 = stablehlo.transpose %107, dims = [0, 2, 3, 1] : (tensor<256x1024x16x64xf32>) -> tensor<256x16x64x1024xf32>
    %109 = stablehlo.dot_general %108, %22, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<256x16x64x1024xf32>, tensor<256x1024x16x64xf32>) -> tensor<256x16x1024x1024xf32>
    %110 = stablehlo.dot_general %108, %38, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<256x16x64x1024xf32>, tensor<256x16x1024x1024xf32>) -> tensor<256x16x64x1024xf32>
    %111 = stablehlo.transpose %110, dims = [0, 3, 1, 2] : (tensor<256x16x64x1024xf32>) -> tensor<256x1024x16x64xf32>
    %112 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %113 = stablehlo.multiply %109, %112 : tensor<256x16x1024x1024xf32>
    %114 = stablehlo.multiply %113, %34 : tensor<256x16x1024x1024xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %115 = stablehlo.reduce(%114 init: %cst_20) applies stablehlo.add across dimensions = [3] : (tensor<256x16x1024x1024xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %116 = stablehlo.reshape %115 : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1xf32>
    %117 = stablehlo.negate %116 : tensor<256x16x1024x1xf32>
    %118 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<256x16x1024x1xf32>) -> tensor<256x16x1024x1024xf32>
    %119 = stablehlo.divide %109, %118 : tensor<256x16x1024x1024xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %120 = stablehlo.reduce(%117 init: %cst_21) applies stablehlo.add across dimensions = [3] : (tensor<256x16x1024x1xf32>, tensor<f32>) -> tensor<256x16x1024xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1, 2] : (tensor<256x16x1024xf32>) -> tensor<256x16x1024x1024xf32>
    %122 = stablehlo.add %119, %121 : tensor<256x16x1024x1024xf32>
    %123 = stablehlo.multiply %122, %34 : tensor<256x16x1024x1024xf32>
    %124 = call @_where_20(%27#1, %123) : (tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>) -> tensor<256x16x1024x1024xf32>
    %cst_22 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    %126 = stablehlo.divide %124, %125 : tensor<256x16x1024x1024xf32>
    %127 = stablehlo.dot_general %126, %20, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x16x1024x1024xf32>, tensor<256x1024x16x64xf32>) -> tensor<256x16x1024x64xf32>
    %128 = stablehlo.transpose %127, dims = [0, 2, 1, 3] : (tensor<256x16x1024x64xf32>) -> tensor<256x1024x16x64xf32>
    %129 = stablehlo.dot_general %126, %21, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<256x16x1024x1024xf32>, tensor<256x1024x16x64xf32>) -> tensor<256x16x1024x64xf32>
    %130 = stablehlo.transpose %129, dims = [0, 2, 1, 3] : (tensor<256x16x1024x64xf32>) -> tensor<256x1024x16x64xf32>
    %131 = sdy.sharding_constraint %111 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %132 = stablehlo.dot_general %131, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<256x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %133 = stablehlo.transpose %132, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %134 = stablehlo.dot_general %131, %arg14, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x1024xf32>
    %135 = sdy.sharding_constraint %128 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %136 = stablehlo.dot_general %135, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<256x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %137 = stablehlo.transpose %136, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %138 = stablehlo.dot_general %135, %arg9, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x1024xf32>
    %139 = stablehlo.add %134, %138 : tensor<256x1024x1024xf32>
    %140 = sdy.sharding_constraint %130 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<256x1024x16x64xf32>
    %141 = stablehlo.dot_general %140, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<256x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %142 = stablehlo.transpose %141, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %143 = stablehlo.dot_general %140, %arg13, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<256x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<256x1024x1024xf32>
    %144 = stablehlo.add %139, %143 : tensor<256x1024x1024xf32>
    %145 = sdy.sharding_constraint %144 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    %146 = stablehlo.multiply %15, %145 : tensor<256x1024x1024xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %147 = stablehlo.reduce(%146 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %148 = stablehlo.reshape %147 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %149 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<256x1024x1024xf32>
    %150 = stablehlo.multiply %145, %149 : tensor<256x1024x1024xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %151 = stablehlo.reduce(%148 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %152 = stablehlo.multiply %0, %150 : tensor<256x1024x1024xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %153 = stablehlo.reduce(%152 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1024xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %154 = stablehlo.reshape %153 : (tensor<256x1024xf32>) -> tensor<256x1024x1xf32>
    %155 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<256x1024x1xf32>) -> tensor<256x1024x1024xf32>
    %156 = stablehlo.multiply %150, %155 : tensor<256x1024x1024xf32>
    %157 = stablehlo.add %102, %156 : tensor<256x1024x1024xf32>
    %158 = stablehlo.multiply %154, %13 : tensor<256x1024x1xf32>
    %cst_26 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<256x1024x1xf32>
    %160 = stablehlo.divide %158, %159 : tensor<256x1024x1xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_27) applies stablehlo.add across dimensions = [2] : (tensor<256x1024x1xf32>, tensor<f32>) -> tensor<256x1024xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1] : (tensor<256x1024xf32>) -> tensor<256x1024x1024xf32>
    %163 = stablehlo.multiply %162, %3 : tensor<256x1024x1024xf32>
    %164 = stablehlo.add %157, %163 : tensor<256x1024x1024xf32>
    %165 = sdy.sharding_constraint %164 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<256x1024x1024xf32>
    return %165, %137, %105, %151, %89, %142, %133, %80, %77, %70 : tensor<256x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>
  }
  func.func private @tril_16(%arg0: tensor<1024x1024xi1>) -> tensor<1024x1024xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<1024x1024xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1024x1024xi32>
    %2 = stablehlo.add %0, %1 : tensor<1024x1024xi32>
    %3 = stablehlo.iota dim = 1 : tensor<1024x1024xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<1024x1024xi1>, tensor<1024x1024xi1>
    return %6 : tensor<1024x1024xi1>
  }
  func.func private @_where_17(%arg0: tensor<1024x1024xi1>, %arg1: tensor<256x16x1024x1024xf32>, %arg2: tensor<f32>) -> (tensor<256x16x1024x1024xf32>, tensor<256x16x1024x1024xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<256x16x1024x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>
    return %2, %0 : tensor<256x16x1024x1024xf32>, tensor<256x16x1024x1024xi1>
  }
  func.func private @silu_18(%arg0: tensor<256x1024x4096xf32>) -> (tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<256x1024x4096xf32>
    %1 = stablehlo.exponential %0 : tensor<256x1024x4096xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x1024x4096xf32>
    %3 = stablehlo.add %2, %1 : tensor<256x1024x4096xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1024x4096xf32>
    %5 = stablehlo.divide %4, %3 : tensor<256x1024x4096xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x1024x4096xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<256x1024x4096xf32>
    %8 = stablehlo.multiply %5, %7 : tensor<256x1024x4096xf32>
    %9 = stablehlo.multiply %arg0, %5 : tensor<256x1024x4096xf32>
    return %9, %5, %8 : tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>, tensor<256x1024x4096xf32>
  }
  func.func private @silu_19(%arg0: tensor<256x1024x4096xf32>, %arg1: tensor<256x1024x4096xf32>, %arg2: tensor<256x1024x4096xf32>, %arg3: tensor<256x1024x4096xf32>) -> tensor<256x1024x4096xf32> {
    %0 = stablehlo.multiply %arg1, %arg3 : tensor<256x1024x4096xf32>
    %1 = stablehlo.multiply %arg3, %arg0 : tensor<256x1024x4096xf32>
    %2 = stablehlo.multiply %0, %arg2 : tensor<256x1024x4096xf32>
    %3 = stablehlo.add %1, %2 : tensor<256x1024x4096xf32>
    return %3 : tensor<256x1024x4096xf32>
  }
  func.func private @_where_20(%arg0: tensor<256x16x1024x1024xi1>, %arg1: tensor<256x16x1024x1024xf32>) -> tensor<256x16x1024x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x16x1024x1024xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<256x16x1024x1024xi1>, tensor<256x16x1024x1024xf32>
    return %1 : tensor<256x16x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_21(%arg0: tensor<4x1024x16x64xf32>, %arg1: tensor<1024x16x64xf32>, %arg2: tensor<i32>) -> tensor<4x1024x16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1024x16x64xf32>) -> tensor<1x1024x16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x1024x16x64xf32>, tensor<1x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
    return %1 : tensor<4x1024x16x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_22(%arg0: tensor<4x16x64x1024xf32>, %arg1: tensor<16x64x1024xf32>, %arg2: tensor<i32>) -> tensor<4x16x64x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<16x64x1024xf32>) -> tensor<1x16x64x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x16x64x1024xf32>, tensor<1x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
    return %1 : tensor<4x16x64x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_23(%arg0: tensor<4x1024xf32>, %arg1: tensor<1024xf32>, %arg2: tensor<i32>) -> tensor<4x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x1024xf32>, tensor<1x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1024xf32>
    return %1 : tensor<4x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_24(%arg0: tensor<4x1024x4096xf32>, %arg1: tensor<1024x4096xf32>, %arg2: tensor<i32>) -> tensor<4x1024x4096xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<1024x4096xf32>) -> tensor<1x1024x4096xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x1024x4096xf32>, tensor<1x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x4096xf32>
    return %1 : tensor<4x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim_25(%arg0: tensor<4x4096x1024xf32>, %arg1: tensor<4096x1024xf32>, %arg2: tensor<i32>) -> tensor<4x4096x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4096x1024xf32>) -> tensor<1x4096x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x4096x1024xf32>, tensor<1x4096x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4096x1024xf32>
    return %1 : tensor<4x4096x1024xf32>
  }
  func.func private @_where_26(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
