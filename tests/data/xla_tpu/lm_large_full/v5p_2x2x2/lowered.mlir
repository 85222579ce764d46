module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "fsdp_transpose"=1, "sequence"=1, "tensor"=2, "autoregressive"=1]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "fsdp_transpose", size = 1 : i64}, {name = "sequence", size = 1 : i64}, {name = "tensor", size = 2 : i64}, {name = "autoregressive", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg1: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg2: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg3: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg4: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg5: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg6: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg7: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg8: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg9: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg10: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg11: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg12: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg13: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg14: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg15: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg16: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg17: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg18: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg19: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg20: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg21: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg22: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg23: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg24: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg25: tensor<1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg26: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg27: tensor<16x4x64x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg28: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg29: tensor<1024x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg30: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg31: tensor<1024x4x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg32: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg33: tensor<1024x4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg34: tensor<4096x4x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg35: tensor<1024x32768xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg36: tensor<32768x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg37: tensor<64x1024xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}, %arg38: tensor<64x1024xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}) -> (tensor<1024xf32> {jax.result_info = "result[0]['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[0]['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[0]['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[0]['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[0]['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[0]['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[0]['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[0]['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[0]['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[0]['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<i32> {jax.result_info = "result[1][0].count", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<1024xf32> {jax.result_info = "result[1][0].mu['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[1][0].mu['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].mu['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].mu['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].mu['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[1][0].mu['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[1][0].mu['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[1][0].mu['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024xf32> {jax.result_info = "result[1][0].nu['decoder_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['key']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<16x4x64x1024xf32> {jax.result_info = "result[1][0].nu['layers']['out']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_attention_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_mlp_norm']['scale']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['query']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x16x64xf32> {jax.result_info = "result[1][0].nu['layers']['value']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].nu['layers']['wi_0']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<1024x4x4096xf32> {jax.result_info = "result[1][0].nu['layers']['wi_1']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<4096x4x1024xf32> {jax.result_info = "result[1][0].nu['layers']['wo']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<1024x32768xf32> {jax.result_info = "result[1][0].nu['logits_dense']['kernel']", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<32768x1024xf32> {jax.result_info = "result[1][0].nu['token_embedder']", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<f32> {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<64x1024xi32>
    %1 = stablehlo.compare LT, %arg37, %0, SIGNED : (tensor<64x1024xi32>, tensor<64x1024xi32>) -> tensor<64x1024xi1>
    %c_0 = stablehlo.constant dense<32768> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<64x1024xi32>
    %3 = stablehlo.add %arg37, %2 : tensor<64x1024xi32>
    %4 = stablehlo.select %1, %3, %arg37 : tensor<64x1024xi1>, tensor<64x1024xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<64x1024xi32>) -> tensor<64x1024x1xi32>
    %6 = "stablehlo.gather"(%arg11, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1024>}> : (tensor<32768x1024xf32>, tensor<64x1024x1xi32>) -> tensor<64x1024x1024xf32>
    %7 = sdy.sharding_constraint %6 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
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
    %19:2 = call @_where(%18, %cst) : (tensor<1024x1024xi1>, tensor<f32>) -> (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %21:14 = stablehlo.while(%iterArg = %8, %iterArg_133 = %9, %iterArg_134 = %10, %iterArg_135 = %11, %iterArg_136 = %12, %iterArg_137 = %13, %iterArg_138 = %14, %iterArg_139 = %15, %iterArg_140 = %16, %iterArg_141 = %19#0, %iterArg_142 = %19#1, %iterArg_143 = %c_3, %iterArg_144 = %7, %iterArg_145 = %20) : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x64x1024x1024xf32>
    cond {
      %c_146 = stablehlo.constant dense<4> : tensor<i32>
      %432 = stablehlo.compare LT, %iterArg_143, %c_146, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %432 : tensor<i1>
    } do {
      %432 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_143) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %433 = func.call @dynamic_index_in_dim_0(%iterArg_133, %iterArg_143) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %434 = func.call @dynamic_index_in_dim_1(%iterArg_134, %iterArg_143) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %435 = func.call @dynamic_index_in_dim_1(%iterArg_135, %iterArg_143) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %436 = func.call @dynamic_index_in_dim(%iterArg_136, %iterArg_143) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %437 = func.call @dynamic_index_in_dim(%iterArg_137, %iterArg_143) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %438 = func.call @dynamic_index_in_dim_2(%iterArg_138, %iterArg_143) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %439 = func.call @dynamic_index_in_dim_2(%iterArg_139, %iterArg_143) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %440 = func.call @dynamic_index_in_dim_3(%iterArg_140, %iterArg_143) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %441:2 = func.call @closed_call(%iterArg_141, %iterArg_142, %iterArg_144, %432, %433, %434, %435, %436, %437, %438, %439, %440) : (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>)
      %442 = func.call @dynamic_update_index_in_dim(%iterArg_145, %441#1, %iterArg_143) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %c_146 = stablehlo.constant dense<1> : tensor<i32>
      %443 = stablehlo.add %iterArg_143, %c_146 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_133, %iterArg_134, %iterArg_135, %iterArg_136, %iterArg_137, %iterArg_138, %iterArg_139, %iterArg_140, %iterArg_141, %iterArg_142, %443, %441#0, %442 : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x64x1024x1024xf32>
    }
    %22 = chlo.square %21#12 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x1024x1024xf32>
    %24 = stablehlo.multiply %23, %21#12 : tensor<64x1024x1024xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%22 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_6 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %28 = stablehlo.divide %26, %27 : tensor<64x1024x1xf32>
    %cst_7 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %30 = stablehlo.add %28, %29 : tensor<64x1024x1xf32>
    %31 = stablehlo.rsqrt %30 : tensor<64x1024x1xf32>
    %32 = stablehlo.divide %31, %30 : tensor<64x1024x1xf32>
    %cst_8 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %34 = stablehlo.multiply %33, %32 : tensor<64x1024x1xf32>
    %35 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %36 = stablehlo.multiply %21#12, %35 : tensor<64x1024x1024xf32>
    %37 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %39 = stablehlo.multiply %36, %38 : tensor<64x1024x1024xf32>
    %40 = stablehlo.dot_general %39, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x32768xf32>) -> tensor<64x1024x32768xf32>
    %41 = sdy.sharding_constraint %40 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x32768xf32>
    %42 = call @_one_hot(%arg38) : (tensor<64x1024xi32>) -> tensor<64x1024x32768xf32>
    %43:3 = call @log_softmax(%41) : (tensor<64x1024x32768xf32>) -> (tensor<64x1024x32768xf32>, tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>)
    %44 = stablehlo.multiply %42, %43#0 : tensor<64x1024x32768xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.reduce(%44 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x32768xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_10) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_11 = stablehlo.constant dense<6.553600e+04> : tensor<f32>
    %47 = stablehlo.divide %46, %cst_11 : tensor<f32>
    %48 = stablehlo.negate %47 : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %49 = stablehlo.negate %cst_12 : tensor<f32>
    %cst_13 = stablehlo.constant dense<6.553600e+04> : tensor<f32>
    %50 = stablehlo.divide %49, %cst_13 : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x32768xf32>
    %53 = stablehlo.multiply %42, %52 : tensor<64x1024x32768xf32>
    %54 = call @log_softmax_5(%43#1, %43#2, %53) : (tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>, tensor<64x1024x32768xf32>) -> tensor<64x1024x32768xf32>
    %55 = sdy.sharding_constraint %54 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x32768xf32>
    %56 = stablehlo.dot_general %55, %39, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x32768xf32>, tensor<64x1024x1024xf32>) -> tensor<32768x1024xf32>
    %57 = stablehlo.transpose %56, dims = [1, 0] : (tensor<32768x1024xf32>) -> tensor<1024x32768xf32>
    %58 = stablehlo.dot_general %55, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x32768xf32>, tensor<1024x32768xf32>) -> tensor<64x1024x1024xf32>
    %59 = stablehlo.multiply %36, %58 : tensor<64x1024x1024xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%59 init: %cst_14) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %61 = stablehlo.reshape %60 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %62 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %63 = stablehlo.multiply %58, %62 : tensor<64x1024x1024xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.reduce(%61 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %65 = stablehlo.multiply %21#12, %63 : tensor<64x1024x1024xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%65 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %67 = stablehlo.reshape %66 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %68 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %69 = stablehlo.multiply %63, %68 : tensor<64x1024x1024xf32>
    %70 = stablehlo.multiply %67, %34 : tensor<64x1024x1xf32>
    %cst_17 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<64x1024x1xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.reduce(%72 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %75 = stablehlo.multiply %74, %24 : tensor<64x1024x1024xf32>
    %76 = stablehlo.add %69, %75 : tensor<64x1024x1024xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x16x64x1024xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x4096x1024xf32>
    %c_28 = stablehlo.constant dense<0> : tensor<i32>
    %86:21 = stablehlo.while(%iterArg = %8, %iterArg_133 = %9, %iterArg_134 = %10, %iterArg_135 = %11, %iterArg_136 = %12, %iterArg_137 = %13, %iterArg_138 = %14, %iterArg_139 = %15, %iterArg_140 = %16, %iterArg_141 = %21#13, %iterArg_142 = %c_28, %iterArg_143 = %76, %iterArg_144 = %77, %iterArg_145 = %78, %iterArg_146 = %79, %iterArg_147 = %80, %iterArg_148 = %81, %iterArg_149 = %82, %iterArg_150 = %83, %iterArg_151 = %84, %iterArg_152 = %85) : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    cond {
      %c_153 = stablehlo.constant dense<4> : tensor<i32>
      %432 = stablehlo.compare LT, %iterArg_142, %c_153, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %432 : tensor<i1>
    } do {
      %c_153 = stablehlo.constant dense<4> : tensor<i32>
      %432 = stablehlo.subtract %c_153, %iterArg_142 : tensor<i32>
      %c_154 = stablehlo.constant dense<1> : tensor<i32>
      %433 = stablehlo.subtract %432, %c_154 : tensor<i32>
      %434 = func.call @dynamic_index_in_dim(%iterArg, %433) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %435 = func.call @dynamic_index_in_dim_0(%iterArg_133, %433) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %436 = func.call @dynamic_index_in_dim_1(%iterArg_134, %433) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %437 = func.call @dynamic_index_in_dim_1(%iterArg_135, %433) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %438 = func.call @dynamic_index_in_dim(%iterArg_136, %433) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %439 = func.call @dynamic_index_in_dim(%iterArg_137, %433) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %440 = func.call @dynamic_index_in_dim_2(%iterArg_138, %433) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %441 = func.call @dynamic_index_in_dim_2(%iterArg_139, %433) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %442 = func.call @dynamic_index_in_dim_3(%iterArg_140, %433) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %443 = func.call @dynamic_index_in_dim_6(%iterArg_141, %433) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %444:10 = func.call @closed_call_7(%iterArg_143, %434, %435, %436, %437, %438, %439, %440, %441, %442, %443) : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>, tensor<64x1024x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>)
      %445 = func.call @dynamic_update_index_in_dim_13(%iterArg_144, %444#1, %433) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %446 = func.call @dynamic_update_index_in_dim_14(%iterArg_145, %444#2, %433) : (tensor<4x16x64x1024xf32>, tensor<16x64x1024xf32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
      %447 = func.call @dynamic_update_index_in_dim_15(%iterArg_146, %444#3, %433) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %448 = func.call @dynamic_update_index_in_dim_15(%iterArg_147, %444#4, %433) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %449 = func.call @dynamic_update_index_in_dim_13(%iterArg_148, %444#5, %433) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %450 = func.call @dynamic_update_index_in_dim_13(%iterArg_149, %444#6, %433) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %451 = func.call @dynamic_update_index_in_dim_16(%iterArg_150, %444#7, %433) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %452 = func.call @dynamic_update_index_in_dim_16(%iterArg_151, %444#8, %433) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %453 = func.call @dynamic_update_index_in_dim_17(%iterArg_152, %444#9, %433) : (tensor<4x4096x1024xf32>, tensor<4096x1024xf32>, tensor<i32>) -> tensor<4x4096x1024xf32>
      %c_155 = stablehlo.constant dense<1> : tensor<i32>
      %454 = stablehlo.add %iterArg_142, %c_155 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_133, %iterArg_134, %iterArg_135, %iterArg_136, %iterArg_137, %iterArg_138, %iterArg_139, %iterArg_140, %iterArg_141, %454, %444#0, %445, %446, %447, %448, %449, %450, %451, %452, %453 : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    }
    %87 = stablehlo.transpose %86#20, dims = [1, 0, 2] : (tensor<4x4096x1024xf32>) -> tensor<4096x4x1024xf32>
    %88 = stablehlo.transpose %86#19, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %89 = stablehlo.transpose %86#18, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %90 = stablehlo.transpose %86#17, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %91 = stablehlo.transpose %86#16, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %92 = stablehlo.transpose %86#15, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %93 = stablehlo.transpose %86#14, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %94 = stablehlo.transpose %86#13, dims = [1, 0, 2, 3] : (tensor<4x16x64x1024xf32>) -> tensor<16x4x64x1024xf32>
    %95 = stablehlo.transpose %86#12, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %96 = sdy.sharding_constraint %86#11 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %98 = "stablehlo.scatter"(%97, %5, %96) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %432 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %432 : tensor<f32>
    }) : (tensor<32768x1024xf32>, tensor<64x1024x1xi32>, tensor<64x1024x1024xf32>) -> tensor<32768x1024xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %100 = stablehlo.multiply %99, %64 : tensor<1024xf32>
    %cst_31 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %102 = stablehlo.multiply %101, %arg13 : tensor<1024xf32>
    %103 = stablehlo.add %100, %102 : tensor<1024xf32>
    %cst_32 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %105 = stablehlo.multiply %104, %95 : tensor<1024x4x16x64xf32>
    %cst_33 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %107 = stablehlo.multiply %106, %arg14 : tensor<1024x4x16x64xf32>
    %108 = stablehlo.add %105, %107 : tensor<1024x4x16x64xf32>
    %cst_34 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %110 = stablehlo.multiply %109, %94 : tensor<16x4x64x1024xf32>
    %cst_35 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %112 = stablehlo.multiply %111, %arg15 : tensor<16x4x64x1024xf32>
    %113 = stablehlo.add %110, %112 : tensor<16x4x64x1024xf32>
    %cst_36 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %115 = stablehlo.multiply %114, %93 : tensor<1024x4xf32>
    %cst_37 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %117 = stablehlo.multiply %116, %arg16 : tensor<1024x4xf32>
    %118 = stablehlo.add %115, %117 : tensor<1024x4xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %120 = stablehlo.multiply %119, %92 : tensor<1024x4xf32>
    %cst_39 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %122 = stablehlo.multiply %121, %arg17 : tensor<1024x4xf32>
    %123 = stablehlo.add %120, %122 : tensor<1024x4xf32>
    %cst_40 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %125 = stablehlo.multiply %124, %91 : tensor<1024x4x16x64xf32>
    %cst_41 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %127 = stablehlo.multiply %126, %arg18 : tensor<1024x4x16x64xf32>
    %128 = stablehlo.add %125, %127 : tensor<1024x4x16x64xf32>
    %cst_42 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %130 = stablehlo.multiply %129, %90 : tensor<1024x4x16x64xf32>
    %cst_43 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %132 = stablehlo.multiply %131, %arg19 : tensor<1024x4x16x64xf32>
    %133 = stablehlo.add %130, %132 : tensor<1024x4x16x64xf32>
    %cst_44 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %135 = stablehlo.multiply %134, %89 : tensor<1024x4x4096xf32>
    %cst_45 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %136 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %137 = stablehlo.multiply %136, %arg20 : tensor<1024x4x4096xf32>
    %138 = stablehlo.add %135, %137 : tensor<1024x4x4096xf32>
    %cst_46 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %140 = stablehlo.multiply %139, %88 : tensor<1024x4x4096xf32>
    %cst_47 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %142 = stablehlo.multiply %141, %arg21 : tensor<1024x4x4096xf32>
    %143 = stablehlo.add %140, %142 : tensor<1024x4x4096xf32>
    %cst_48 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %145 = stablehlo.multiply %144, %87 : tensor<4096x4x1024xf32>
    %cst_49 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %147 = stablehlo.multiply %146, %arg22 : tensor<4096x4x1024xf32>
    %148 = stablehlo.add %145, %147 : tensor<4096x4x1024xf32>
    %cst_50 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %150 = stablehlo.multiply %149, %57 : tensor<1024x32768xf32>
    %cst_51 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %152 = stablehlo.multiply %151, %arg23 : tensor<1024x32768xf32>
    %153 = stablehlo.add %150, %152 : tensor<1024x32768xf32>
    %cst_52 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %155 = stablehlo.multiply %154, %98 : tensor<32768x1024xf32>
    %cst_53 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %157 = stablehlo.multiply %156, %arg24 : tensor<32768x1024xf32>
    %158 = stablehlo.add %155, %157 : tensor<32768x1024xf32>
    %159 = stablehlo.multiply %64, %64 : tensor<1024xf32>
    %cst_54 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %161 = stablehlo.multiply %160, %159 : tensor<1024xf32>
    %cst_55 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %163 = stablehlo.multiply %162, %arg25 : tensor<1024xf32>
    %164 = stablehlo.add %161, %163 : tensor<1024xf32>
    %165 = stablehlo.multiply %95, %95 : tensor<1024x4x16x64xf32>
    %cst_56 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %166 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %167 = stablehlo.multiply %166, %165 : tensor<1024x4x16x64xf32>
    %cst_57 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %169 = stablehlo.multiply %168, %arg26 : tensor<1024x4x16x64xf32>
    %170 = stablehlo.add %167, %169 : tensor<1024x4x16x64xf32>
    %171 = stablehlo.multiply %94, %94 : tensor<16x4x64x1024xf32>
    %cst_58 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %173 = stablehlo.multiply %172, %171 : tensor<16x4x64x1024xf32>
    %cst_59 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %175 = stablehlo.multiply %174, %arg27 : tensor<16x4x64x1024xf32>
    %176 = stablehlo.add %173, %175 : tensor<16x4x64x1024xf32>
    %177 = stablehlo.multiply %93, %93 : tensor<1024x4xf32>
    %cst_60 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %179 = stablehlo.multiply %178, %177 : tensor<1024x4xf32>
    %cst_61 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %181 = stablehlo.multiply %180, %arg28 : tensor<1024x4xf32>
    %182 = stablehlo.add %179, %181 : tensor<1024x4xf32>
    %183 = stablehlo.multiply %92, %92 : tensor<1024x4xf32>
    %cst_62 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %185 = stablehlo.multiply %184, %183 : tensor<1024x4xf32>
    %cst_63 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %187 = stablehlo.multiply %186, %arg29 : tensor<1024x4xf32>
    %188 = stablehlo.add %185, %187 : tensor<1024x4xf32>
    %189 = stablehlo.multiply %91, %91 : tensor<1024x4x16x64xf32>
    %cst_64 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %191 = stablehlo.multiply %190, %189 : tensor<1024x4x16x64xf32>
    %cst_65 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %193 = stablehlo.multiply %192, %arg30 : tensor<1024x4x16x64xf32>
    %194 = stablehlo.add %191, %193 : tensor<1024x4x16x64xf32>
    %195 = stablehlo.multiply %90, %90 : tensor<1024x4x16x64xf32>
    %cst_66 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %196 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %197 = stablehlo.multiply %196, %195 : tensor<1024x4x16x64xf32>
    %cst_67 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %199 = stablehlo.multiply %198, %arg31 : tensor<1024x4x16x64xf32>
    %200 = stablehlo.add %197, %199 : tensor<1024x4x16x64xf32>
    %201 = stablehlo.multiply %89, %89 : tensor<1024x4x4096xf32>
    %cst_68 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %202 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %203 = stablehlo.multiply %202, %201 : tensor<1024x4x4096xf32>
    %cst_69 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %204 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %205 = stablehlo.multiply %204, %arg32 : tensor<1024x4x4096xf32>
    %206 = stablehlo.add %203, %205 : tensor<1024x4x4096xf32>
    %207 = stablehlo.multiply %88, %88 : tensor<1024x4x4096xf32>
    %cst_70 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<1024x4x4096xf32>
    %cst_71 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %210 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %211 = stablehlo.multiply %210, %arg33 : tensor<1024x4x4096xf32>
    %212 = stablehlo.add %209, %211 : tensor<1024x4x4096xf32>
    %213 = stablehlo.multiply %87, %87 : tensor<4096x4x1024xf32>
    %cst_72 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %214 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %215 = stablehlo.multiply %214, %213 : tensor<4096x4x1024xf32>
    %cst_73 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %217 = stablehlo.multiply %216, %arg34 : tensor<4096x4x1024xf32>
    %218 = stablehlo.add %215, %217 : tensor<4096x4x1024xf32>
    %219 = stablehlo.multiply %57, %57 : tensor<1024x32768xf32>
    %cst_74 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %221 = stablehlo.multiply %220, %219 : tensor<1024x32768xf32>
    %cst_75 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %223 = stablehlo.multiply %222, %arg35 : tensor<1024x32768xf32>
    %224 = stablehlo.add %221, %223 : tensor<1024x32768xf32>
    %225 = stablehlo.multiply %98, %98 : tensor<32768x1024xf32>
    %cst_76 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %226 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %227 = stablehlo.multiply %226, %225 : tensor<32768x1024xf32>
    %cst_77 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %229 = stablehlo.multiply %228, %arg36 : tensor<32768x1024xf32>
    %230 = stablehlo.add %227, %229 : tensor<32768x1024xf32>
    %c_78 = stablehlo.constant dense<2147483647> : tensor<i32>
    %231 = stablehlo.compare LT, %arg12, %c_78, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_79 = stablehlo.constant dense<1> : tensor<i32>
    %232 = stablehlo.add %arg12, %c_79 : tensor<i32>
    %c_80 = stablehlo.constant dense<2147483647> : tensor<i32>
    %233 = call @_where_18(%231, %232, %c_80) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_81 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %234 = stablehlo.convert %233 : (tensor<i32>) -> tensor<f32>
    %235 = stablehlo.power %cst_81, %234 : tensor<f32>
    %cst_82 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %236 = stablehlo.subtract %cst_82, %235 : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %238 = stablehlo.divide %103, %237 : tensor<1024xf32>
    %239 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %240 = stablehlo.divide %108, %239 : tensor<1024x4x16x64xf32>
    %241 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %242 = stablehlo.divide %113, %241 : tensor<16x4x64x1024xf32>
    %243 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %244 = stablehlo.divide %118, %243 : tensor<1024x4xf32>
    %245 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %246 = stablehlo.divide %123, %245 : tensor<1024x4xf32>
    %247 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %248 = stablehlo.divide %128, %247 : tensor<1024x4x16x64xf32>
    %249 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %250 = stablehlo.divide %133, %249 : tensor<1024x4x16x64xf32>
    %251 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %252 = stablehlo.divide %138, %251 : tensor<1024x4x4096xf32>
    %253 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %254 = stablehlo.divide %143, %253 : tensor<1024x4x4096xf32>
    %255 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %256 = stablehlo.divide %148, %255 : tensor<4096x4x1024xf32>
    %257 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %258 = stablehlo.divide %153, %257 : tensor<1024x32768xf32>
    %259 = stablehlo.broadcast_in_dim %236, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %260 = stablehlo.divide %158, %259 : tensor<32768x1024xf32>
    %cst_83 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %261 = stablehlo.convert %233 : (tensor<i32>) -> tensor<f32>
    %262 = stablehlo.power %cst_83, %261 : tensor<f32>
    %cst_84 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %263 = stablehlo.subtract %cst_84, %262 : tensor<f32>
    %264 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %265 = stablehlo.divide %164, %264 : tensor<1024xf32>
    %266 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %267 = stablehlo.divide %170, %266 : tensor<1024x4x16x64xf32>
    %268 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %269 = stablehlo.divide %176, %268 : tensor<16x4x64x1024xf32>
    %270 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %271 = stablehlo.divide %182, %270 : tensor<1024x4xf32>
    %272 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %273 = stablehlo.divide %188, %272 : tensor<1024x4xf32>
    %274 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %275 = stablehlo.divide %194, %274 : tensor<1024x4x16x64xf32>
    %276 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %277 = stablehlo.divide %200, %276 : tensor<1024x4x16x64xf32>
    %278 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %279 = stablehlo.divide %206, %278 : tensor<1024x4x4096xf32>
    %280 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %281 = stablehlo.divide %212, %280 : tensor<1024x4x4096xf32>
    %282 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %283 = stablehlo.divide %218, %282 : tensor<4096x4x1024xf32>
    %284 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %285 = stablehlo.divide %224, %284 : tensor<1024x32768xf32>
    %286 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %287 = stablehlo.divide %230, %286 : tensor<32768x1024xf32>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %288 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %289 = stablehlo.add %265, %288 : tensor<1024xf32>
    %290 = stablehlo.sqrt %289 : tensor<1024xf32>
    %cst_86 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %291 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %292 = stablehlo.add %290, %291 : tensor<1024xf32>
    %293 = stablehlo.divide %238, %292 : tensor<1024xf32>
    %cst_87 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %294 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %295 = stablehlo.add %267, %294 : tensor<1024x4x16x64xf32>
    %296 = stablehlo.sqrt %295 : tensor<1024x4x16x64xf32>
    %cst_88 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %297 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %298 = stablehlo.add %296, %297 : tensor<1024x4x16x64xf32>
    %299 = stablehlo.divide %240, %298 : tensor<1024x4x16x64xf32>
    %cst_89 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %301 = stablehlo.add %269, %300 : tensor<16x4x64x1024xf32>
    %302 = stablehlo.sqrt %301 : tensor<16x4x64x1024xf32>
    %cst_90 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %303 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %304 = stablehlo.add %302, %303 : tensor<16x4x64x1024xf32>
    %305 = stablehlo.divide %242, %304 : tensor<16x4x64x1024xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %306 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %307 = stablehlo.add %271, %306 : tensor<1024x4xf32>
    %308 = stablehlo.sqrt %307 : tensor<1024x4xf32>
    %cst_92 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %309 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %310 = stablehlo.add %308, %309 : tensor<1024x4xf32>
    %311 = stablehlo.divide %244, %310 : tensor<1024x4xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %313 = stablehlo.add %273, %312 : tensor<1024x4xf32>
    %314 = stablehlo.sqrt %313 : tensor<1024x4xf32>
    %cst_94 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %316 = stablehlo.add %314, %315 : tensor<1024x4xf32>
    %317 = stablehlo.divide %246, %316 : tensor<1024x4xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %319 = stablehlo.add %275, %318 : tensor<1024x4x16x64xf32>
    %320 = stablehlo.sqrt %319 : tensor<1024x4x16x64xf32>
    %cst_96 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %321 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %322 = stablehlo.add %320, %321 : tensor<1024x4x16x64xf32>
    %323 = stablehlo.divide %248, %322 : tensor<1024x4x16x64xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %324 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %325 = stablehlo.add %277, %324 : tensor<1024x4x16x64xf32>
    %326 = stablehlo.sqrt %325 : tensor<1024x4x16x64xf32>
    %cst_98 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %327 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %328 = stablehlo.add %326, %327 : tensor<1024x4x16x64xf32>
    %329 = stablehlo.divide %250, %328 : tensor<1024x4x16x64xf32>
    %cst_99 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %331 = stablehlo.add %279, %330 : tensor<1024x4x4096xf32>
    %332 = stablehlo.sqrt %331 : tensor<1024x4x4096xf32>
    %cst_100 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %333 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %334 = stablehlo.add %332, %333 : tensor<1024x4x4096xf32>
    %335 = stablehlo.divide %252, %334 : tensor<1024x4x4096xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %336 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %337 = stablehlo.add %281, %336 : tensor<1024x4x4096xf32>
    %338 = stablehlo.sqrt %337 : tensor<1024x4x4096xf32>
    %cst_102 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %340 = stablehlo.add %338, %339 : tensor<1024x4x4096xf32>
    %341 = stablehlo.divide %254, %340 : tensor<1024x4x4096xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %342 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %343 = stablehlo.add %283, %342 : tensor<4096x4x1024xf32>
    %344 = stablehlo.sqrt %343 : tensor<4096x4x1024xf32>
    %cst_104 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %345 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %346 = stablehlo.add %344, %345 : tensor<4096x4x1024xf32>
    %347 = stablehlo.divide %256, %346 : tensor<4096x4x1024xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %348 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %349 = stablehlo.add %285, %348 : tensor<1024x32768xf32>
    %350 = stablehlo.sqrt %349 : tensor<1024x32768xf32>
    %cst_106 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %352 = stablehlo.add %350, %351 : tensor<1024x32768xf32>
    %353 = stablehlo.divide %258, %352 : tensor<1024x32768xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %355 = stablehlo.add %287, %354 : tensor<32768x1024xf32>
    %356 = stablehlo.sqrt %355 : tensor<32768x1024xf32>
    %cst_108 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %358 = stablehlo.add %356, %357 : tensor<32768x1024xf32>
    %359 = stablehlo.divide %260, %358 : tensor<32768x1024xf32>
    %cst_109 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %361 = stablehlo.multiply %360, %arg0 : tensor<1024xf32>
    %362 = stablehlo.add %293, %361 : tensor<1024xf32>
    %cst_110 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %364 = stablehlo.multiply %363, %arg1 : tensor<1024x4x16x64xf32>
    %365 = stablehlo.add %299, %364 : tensor<1024x4x16x64xf32>
    %cst_111 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %366 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %367 = stablehlo.multiply %366, %arg2 : tensor<16x4x64x1024xf32>
    %368 = stablehlo.add %305, %367 : tensor<16x4x64x1024xf32>
    %cst_112 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %370 = stablehlo.multiply %369, %arg3 : tensor<1024x4xf32>
    %371 = stablehlo.add %311, %370 : tensor<1024x4xf32>
    %cst_113 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %373 = stablehlo.multiply %372, %arg4 : tensor<1024x4xf32>
    %374 = stablehlo.add %317, %373 : tensor<1024x4xf32>
    %cst_114 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %376 = stablehlo.multiply %375, %arg5 : tensor<1024x4x16x64xf32>
    %377 = stablehlo.add %323, %376 : tensor<1024x4x16x64xf32>
    %cst_115 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %379 = stablehlo.multiply %378, %arg6 : tensor<1024x4x16x64xf32>
    %380 = stablehlo.add %329, %379 : tensor<1024x4x16x64xf32>
    %cst_116 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %382 = stablehlo.multiply %381, %arg7 : tensor<1024x4x4096xf32>
    %383 = stablehlo.add %335, %382 : tensor<1024x4x4096xf32>
    %cst_117 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %385 = stablehlo.multiply %384, %arg8 : tensor<1024x4x4096xf32>
    %386 = stablehlo.add %341, %385 : tensor<1024x4x4096xf32>
    %cst_118 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %388 = stablehlo.multiply %387, %arg9 : tensor<4096x4x1024xf32>
    %389 = stablehlo.add %347, %388 : tensor<4096x4x1024xf32>
    %cst_119 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %391 = stablehlo.multiply %390, %arg10 : tensor<1024x32768xf32>
    %392 = stablehlo.add %353, %391 : tensor<1024x32768xf32>
    %cst_120 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %394 = stablehlo.multiply %393, %arg11 : tensor<32768x1024xf32>
    %395 = stablehlo.add %359, %394 : tensor<32768x1024xf32>
    %cst_121 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %396 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %397 = stablehlo.multiply %396, %362 : tensor<1024xf32>
    %cst_122 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %398 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %399 = stablehlo.multiply %398, %365 : tensor<1024x4x16x64xf32>
    %cst_123 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %400 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %401 = stablehlo.multiply %400, %368 : tensor<16x4x64x1024xf32>
    %cst_124 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %402 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %403 = stablehlo.multiply %402, %371 : tensor<1024x4xf32>
    %cst_125 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %405 = stablehlo.multiply %404, %374 : tensor<1024x4xf32>
    %cst_126 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %406 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %407 = stablehlo.multiply %406, %377 : tensor<1024x4x16x64xf32>
    %cst_127 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %408 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %409 = stablehlo.multiply %408, %380 : tensor<1024x4x16x64xf32>
    %cst_128 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %410 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %411 = stablehlo.multiply %410, %383 : tensor<1024x4x4096xf32>
    %cst_129 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %412 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %413 = stablehlo.multiply %412, %386 : tensor<1024x4x4096xf32>
    %cst_130 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %415 = stablehlo.multiply %414, %389 : tensor<4096x4x1024xf32>
    %cst_131 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %416 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %417 = stablehlo.multiply %416, %392 : tensor<1024x32768xf32>
    %cst_132 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %418 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %419 = stablehlo.multiply %418, %395 : tensor<32768x1024xf32>
    %420 = stablehlo.add %arg0, %397 : tensor<1024xf32>
    %421 = stablehlo.add %arg1, %399 : tensor<1024x4x16x64xf32>
    %422 = stablehlo.add %arg2, %401 : tensor<16x4x64x1024xf32>
    %423 = stablehlo.add %arg3, %403 : tensor<1024x4xf32>
    %424 = stablehlo.add %arg4, %405 : tensor<1024x4xf32>
    %425 = stablehlo.add %arg5, %407 : tensor<1024x4x16x64xf32>
    %426 = stablehlo.add %arg6, %409 : tensor<1024x4x16x64xf32>
    %427 = stablehlo.add %arg7, %411 : tensor<1024x4x4096xf32>
    %428 = stablehlo.add %arg8, %413 : tensor<1024x4x4096xf32>
    %429 = stablehlo.add %arg9, %415 : tensor<4096x4x1024xf32>
    %430 = stablehlo.add %arg10, %417 : tensor<1024x32768xf32>
    %431 = stablehlo.add %arg11, %419 : tensor<32768x1024xf32>
    return %420, %421, %422, %423, %424, %425, %426, %427, %428, %429, %430, %431, %233, %103, %108, %113, %118, %123, %128, %133, %138, %143, %148, %153, %158, %164, %170, %176, %182, %188, %194, %200, %206, %212, %218, %224, %230, %48 : tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<i32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<f32>
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
  func.func private @_where(%arg0: tensor<1024x1024xi1>, %arg1: tensor<f32>) -> (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<64x16x1024x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    return %0, %1 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
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
  func.func private @closed_call(%arg0: tensor<64x16x1024x1024xi1>, %arg1: tensor<64x16x1024x1024xf32>, %arg2: tensor<64x1024x1024xf32>, %arg3: tensor<1024x16x64xf32>, %arg4: tensor<16x64x1024xf32>, %arg5: tensor<1024xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<1024x16x64xf32>, %arg8: tensor<1024x16x64xf32>, %arg9: tensor<1024x4096xf32>, %arg10: tensor<1024x4096xf32>, %arg11: tensor<4096x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>) {
    %0 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %1 = chlo.square %0 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_0 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<64x1024x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<64x1024x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<64x1024x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %10 = stablehlo.multiply %0, %9 : tensor<64x1024x1024xf32>
    %11 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<64x1024x1024xf32>
    %14 = sdy.sharding_constraint %13 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %15 = stablehlo.dot_general %14, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %16 = sdy.sharding_constraint %15 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %17 = stablehlo.dot_general %14, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %18 = sdy.sharding_constraint %17 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %19 = stablehlo.dot_general %14, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %21 = stablehlo.dot_general %16, %18, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %23 = stablehlo.divide %21, %22 : tensor<64x16x1024x1024xf32>
    %24 = call @_where_4(%23, %arg0, %arg1) : (tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x16x1024xf32>
    %27 = stablehlo.maximum %26, %25 : tensor<64x16x1024xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %30 = stablehlo.subtract %24, %29 : tensor<64x16x1024x1024xf32>
    %31 = stablehlo.exponential %30 : tensor<64x16x1024x1024xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%31 init: %cst_5) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %35 = stablehlo.divide %31, %34 : tensor<64x16x1024x1024xf32>
    %36 = stablehlo.dot_general %20, %35, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x64x1024xf32>
    %37 = stablehlo.transpose %36, dims = [0, 3, 1, 2] : (tensor<64x16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %38 = sdy.sharding_constraint %37 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %39 = stablehlo.dot_general %38, %arg4, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<16x64x1024xf32>) -> tensor<64x1024x1024xf32>
    %40 = sdy.sharding_constraint %39 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %41 = stablehlo.add %0, %40 : tensor<64x1024x1024xf32>
    %42 = chlo.square %41 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_7 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %46 = stablehlo.divide %44, %45 : tensor<64x1024x1xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %48 = stablehlo.add %46, %47 : tensor<64x1024x1xf32>
    %49 = stablehlo.rsqrt %48 : tensor<64x1024x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %51 = stablehlo.multiply %41, %50 : tensor<64x1024x1024xf32>
    %52 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %54 = stablehlo.multiply %51, %53 : tensor<64x1024x1024xf32>
    %55 = sdy.sharding_constraint %54 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %56 = stablehlo.dot_general %55, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %57 = stablehlo.dot_general %55, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %58 = call @silu(%56) : (tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %59 = stablehlo.multiply %58, %57 : tensor<64x1024x4096xf32>
    %60 = sdy.sharding_constraint %59 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x4096xf32>
    %61 = stablehlo.dot_general %60, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<4096x1024xf32>) -> tensor<64x1024x1024xf32>
    %62 = sdy.sharding_constraint %61 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %63 = stablehlo.add %41, %62 : tensor<64x1024x1024xf32>
    return %63, %arg2 : tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>
  }
  func.func private @_where_4(%arg0: tensor<64x16x1024x1024xf32>, %arg1: tensor<64x16x1024x1024xi1>, %arg2: tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32> {
    %0 = stablehlo.select %arg1, %arg0, %arg2 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
    return %0 : tensor<64x16x1024x1024xf32>
  }
  func.func private @silu(%arg0: tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32> {
    %0 = stablehlo.negate %arg0 : tensor<64x1024x4096xf32>
    %1 = stablehlo.exponential %0 : tensor<64x1024x4096xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x1024x4096xf32>
    %3 = stablehlo.add %2, %1 : tensor<64x1024x4096xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x1024x4096xf32>
    %5 = stablehlo.divide %4, %3 : tensor<64x1024x4096xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<64x1024x4096xf32>
    return %6 : tensor<64x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x64x1024x1024xf32>, %arg1: tensor<64x1024x1024xf32>, %arg2: tensor<i32>) -> tensor<4x64x1024x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<64x1024x1024xf32>) -> tensor<1x64x1024x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x64x1024x1024xf32>, tensor<1x64x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
    return %1 : tensor<4x64x1024x1024xf32>
  }
  func.func private @_one_hot(%arg0: tensor<64x1024xi32>) -> tensor<64x1024x32768xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<64x1024xi32>) -> tensor<64x1024x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x32768xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<64x1024x1xi32>) -> tensor<64x1024x32768xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x32768xi32>) -> tensor<64x1024x32768xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<64x1024x32768xi32>, tensor<64x1024x32768xi32>) -> tensor<64x1024x32768xi1>
    %5 = stablehlo.convert %4 : (tensor<64x1024x32768xi1>) -> tensor<64x1024x32768xf32>
    return %5 : tensor<64x1024x32768xf32>
  }
  func.func private @log_softmax(%arg0: tensor<64x1024x32768xf32>) -> (tensor<64x1024x32768xf32>, tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<64x1024x32768xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<64x1024xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x32768xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<64x1024x32768xf32>
    %6 = stablehlo.exponential %5 : tensor<64x1024x32768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x32768xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %9 = stablehlo.log %8 : tensor<64x1024x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x32768xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<64x1024x32768xf32>
    return %11, %6, %8 : tensor<64x1024x32768xf32>, tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>
  }
  func.func private @log_softmax_5(%arg0: tensor<64x1024x32768xf32>, %arg1: tensor<64x1024x1xf32>, %arg2: tensor<64x1024x32768xf32>) -> tensor<64x1024x32768xf32> {
    %0 = stablehlo.negate %arg2 : tensor<64x1024x32768xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x32768xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %2 = stablehlo.reshape %1 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<64x1024x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x32768xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<64x1024x32768xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<64x1024x32768xf32>
    return %7 : tensor<64x1024x32768xf32>
  }
  func.func private @dynamic_index_in_dim_6(%arg0: tensor<4x64x1024x1024xf32>, %arg1: tensor<i32>) -> tensor<64x1024x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 64, 1024, 1024] : (tensor<4x64x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    return %1 : tensor<64x1024x1024xf32>
  }
  func.func private @closed_call_7(%arg0: tensor<64x1024x1024xf32>, %arg1: tensor<1024x16x64xf32>, %arg2: tensor<16x64x1024xf32>, %arg3: tensor<1024xf32>, %arg4: tensor<1024xf32>, %arg5: tensor<1024x16x64xf32>, %arg6: tensor<1024x16x64xf32>, %arg7: tensor<1024x4096xf32>, %arg8: tensor<1024x4096xf32>, %arg9: tensor<4096x1024xf32>, %arg10: tensor<64x1024x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) {
    %0 = sdy.sharding_constraint %arg10 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %1 = chlo.square %0 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x1024x1024xf32>
    %3 = stablehlo.multiply %2, %0 : tensor<64x1024x1024xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_1 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %7 = stablehlo.divide %5, %6 : tensor<64x1024x1xf32>
    %cst_2 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %9 = stablehlo.add %7, %8 : tensor<64x1024x1xf32>
    %10 = stablehlo.rsqrt %9 : tensor<64x1024x1xf32>
    %11 = stablehlo.divide %10, %9 : tensor<64x1024x1xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<64x1024x1xf32>
    %14 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %15 = stablehlo.multiply %0, %14 : tensor<64x1024x1024xf32>
    %16 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<64x1024x1024xf32>
    %19 = sdy.sharding_constraint %18 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %20 = stablehlo.dot_general %19, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %21 = sdy.sharding_constraint %20 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %22 = stablehlo.dot_general %19, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %23 = sdy.sharding_constraint %22 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %24 = stablehlo.dot_general %19, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %25 = sdy.sharding_constraint %24 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %26 = stablehlo.dot_general %21, %23, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %28 = stablehlo.divide %26, %27 : tensor<64x16x1024x1024xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %29 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %30 = call @tril_8(%29) : (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %cst_5 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %31:2 = call @_where_9(%30, %28, %cst_5) : (tensor<1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<f32>) -> (tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1024xi1>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %32 = stablehlo.reduce(%31#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x16x1024xf32>
    %34 = stablehlo.maximum %33, %32 : tensor<64x16x1024xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %37 = stablehlo.subtract %31#0, %36 : tensor<64x16x1024x1024xf32>
    %38 = stablehlo.exponential %37 : tensor<64x16x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %42 = stablehlo.divide %38, %41 : tensor<64x16x1024x1024xf32>
    %43 = stablehlo.multiply %40, %40 : tensor<64x16x1024x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1xf32>
    %45 = stablehlo.divide %44, %43 : tensor<64x16x1024x1xf32>
    %46 = stablehlo.dot_general %25, %42, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x64x1024xf32>
    %47 = stablehlo.transpose %46, dims = [0, 3, 1, 2] : (tensor<64x16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %48 = sdy.sharding_constraint %47 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %49 = stablehlo.dot_general %48, %arg2, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<16x64x1024xf32>) -> tensor<64x1024x1024xf32>
    %50 = sdy.sharding_constraint %49 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %51 = stablehlo.add %0, %50 : tensor<64x1024x1024xf32>
    %52 = chlo.square %51 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64x1024x1024xf32>
    %54 = stablehlo.multiply %53, %51 : tensor<64x1024x1024xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.reduce(%52 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_12 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %58 = stablehlo.divide %56, %57 : tensor<64x1024x1xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %60 = stablehlo.add %58, %59 : tensor<64x1024x1xf32>
    %61 = stablehlo.rsqrt %60 : tensor<64x1024x1xf32>
    %62 = stablehlo.divide %61, %60 : tensor<64x1024x1xf32>
    %cst_14 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %64 = stablehlo.multiply %63, %62 : tensor<64x1024x1xf32>
    %65 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %66 = stablehlo.multiply %51, %65 : tensor<64x1024x1024xf32>
    %67 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %69 = stablehlo.multiply %66, %68 : tensor<64x1024x1024xf32>
    %70 = sdy.sharding_constraint %69 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %71 = stablehlo.dot_general %70, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %72 = stablehlo.dot_general %70, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %73:3 = call @silu_10(%71) : (tensor<64x1024x4096xf32>) -> (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>)
    %74 = stablehlo.multiply %73#0, %72 : tensor<64x1024x4096xf32>
    %75 = sdy.sharding_constraint %74 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x4096xf32>
    %76 = sdy.sharding_constraint %arg0 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %77 = stablehlo.dot_general %76, %75, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<64x1024x4096xf32>) -> tensor<1024x4096xf32>
    %78 = stablehlo.transpose %77, dims = [1, 0] : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
    %79 = stablehlo.dot_general %76, %arg9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<4096x1024xf32>) -> tensor<64x1024x4096xf32>
    %80 = sdy.sharding_constraint %79 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x4096xf32>
    %81 = stablehlo.multiply %73#0, %80 : tensor<64x1024x4096xf32>
    %82 = stablehlo.multiply %80, %72 : tensor<64x1024x4096xf32>
    %83 = call @silu_11(%73#1, %71, %73#2, %82) : (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %84 = stablehlo.dot_general %81, %70, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<64x1024x1024xf32>) -> tensor<4096x1024xf32>
    %85 = stablehlo.transpose %84, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %86 = stablehlo.dot_general %81, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x1024xf32>
    %87 = stablehlo.dot_general %83, %70, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<64x1024x1024xf32>) -> tensor<4096x1024xf32>
    %88 = stablehlo.transpose %87, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %89 = stablehlo.dot_general %83, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x1024xf32>
    %90 = stablehlo.add %86, %89 : tensor<64x1024x1024xf32>
    %91 = sdy.sharding_constraint %90 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %92 = stablehlo.multiply %66, %91 : tensor<64x1024x1024xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.reduce(%92 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %94 = stablehlo.reshape %93 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %95 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %96 = stablehlo.multiply %91, %95 : tensor<64x1024x1024xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.reduce(%94 init: %cst_16) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %98 = stablehlo.multiply %51, %96 : tensor<64x1024x1024xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%98 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %100 = stablehlo.reshape %99 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %101 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %102 = stablehlo.multiply %96, %101 : tensor<64x1024x1024xf32>
    %103 = stablehlo.add %arg0, %102 : tensor<64x1024x1024xf32>
    %104 = stablehlo.multiply %100, %64 : tensor<64x1024x1xf32>
    %cst_18 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %106 = stablehlo.divide %104, %105 : tensor<64x1024x1xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %107 = stablehlo.reduce(%106 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %109 = stablehlo.multiply %108, %54 : tensor<64x1024x1024xf32>
    %110 = stablehlo.add %103, %109 : tensor<64x1024x1024xf32>
    %111 = sdy.sharding_constraint %110 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %112 = stablehlo.dot_general %111, %48, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<1024x16x64xf32>
    %113 = stablehlo.transpose %112, dims = [1, 2, 0] : (tensor<1024x16x64xf32>) -> tensor<16x64x1024xf32>
    %114 = stablehlo.dot_general %111, %arg2, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %115 = sdy.sharding_constraint %114 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %116 = stablehlo.transpose %115, dims = [0, 2, 3, 1] : (tensor<64x1024x16x64xf32>) -> tensor<64x16x64x1024xf32>
    %117 = stablehlo.dot_general %116, %25, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x1024xf32>
    %118 = stablehlo.dot_general %116, %42, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x1024xf32>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x64x1024xf32>
    %119 = stablehlo.transpose %118, dims = [0, 3, 1, 2] : (tensor<64x16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %120 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %121 = stablehlo.multiply %117, %120 : tensor<64x16x1024x1024xf32>
    %122 = stablehlo.multiply %121, %38 : tensor<64x16x1024x1024xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %123 = stablehlo.reduce(%122 init: %cst_20) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %124 = stablehlo.reshape %123 : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %125 = stablehlo.negate %124 : tensor<64x16x1024x1xf32>
    %126 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %127 = stablehlo.divide %117, %126 : tensor<64x16x1024x1024xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %128 = stablehlo.reduce(%125 init: %cst_21) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %130 = stablehlo.add %127, %129 : tensor<64x16x1024x1024xf32>
    %131 = stablehlo.multiply %130, %38 : tensor<64x16x1024x1024xf32>
    %132 = call @_where_12(%31#1, %131) : (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_22 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %134 = stablehlo.divide %132, %133 : tensor<64x16x1024x1024xf32>
    %135 = stablehlo.dot_general %134, %21, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x64xf32>
    %136 = stablehlo.transpose %135, dims = [0, 2, 1, 3] : (tensor<64x16x1024x64xf32>) -> tensor<64x1024x16x64xf32>
    %137 = stablehlo.dot_general %134, %23, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x64xf32>
    %138 = stablehlo.transpose %137, dims = [0, 2, 1, 3] : (tensor<64x16x1024x64xf32>) -> tensor<64x1024x16x64xf32>
    %139 = sdy.sharding_constraint %119 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %140 = stablehlo.dot_general %139, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %141 = stablehlo.transpose %140, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %142 = stablehlo.dot_general %139, %arg6, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %143 = sdy.sharding_constraint %136 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %144 = stablehlo.dot_general %143, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %145 = stablehlo.transpose %144, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %146 = stablehlo.dot_general %143, %arg1, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %147 = stablehlo.add %142, %146 : tensor<64x1024x1024xf32>
    %148 = sdy.sharding_constraint %138 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %149 = stablehlo.dot_general %148, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %150 = stablehlo.transpose %149, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %151 = stablehlo.dot_general %148, %arg5, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %152 = stablehlo.add %147, %151 : tensor<64x1024x1024xf32>
    %153 = sdy.sharding_constraint %152 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %154 = stablehlo.multiply %15, %153 : tensor<64x1024x1024xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %155 = stablehlo.reduce(%154 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %156 = stablehlo.reshape %155 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %157 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %158 = stablehlo.multiply %153, %157 : tensor<64x1024x1024xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %159 = stablehlo.reduce(%156 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %160 = stablehlo.multiply %0, %158 : tensor<64x1024x1024xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %162 = stablehlo.reshape %161 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %163 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %164 = stablehlo.multiply %158, %163 : tensor<64x1024x1024xf32>
    %165 = stablehlo.add %110, %164 : tensor<64x1024x1024xf32>
    %166 = stablehlo.multiply %162, %13 : tensor<64x1024x1xf32>
    %cst_26 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %167 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %168 = stablehlo.divide %166, %167 : tensor<64x1024x1xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.reduce(%168 init: %cst_27) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %171 = stablehlo.multiply %170, %3 : tensor<64x1024x1024xf32>
    %172 = stablehlo.add %165, %171 : tensor<64x1024x1024xf32>
    %173 = sdy.sharding_constraint %172 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    return %173, %145, %113, %159, %97, %150, %141, %88, %85, %78 : tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>
  }
  func.func private @tril_8(%arg0: tensor<1024x1024xi1>) -> tensor<1024x1024xi1> {
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
  func.func private @_where_9(%arg0: tensor<1024x1024xi1>, %arg1: tensor<64x16x1024x1024xf32>, %arg2: tensor<f32>) -> (tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1024xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<64x16x1024x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
    return %2, %0 : tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1024xi1>
  }
  func.func private @silu_10(%arg0: tensor<64x1024x4096xf32>) -> (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<64x1024x4096xf32>
    %1 = stablehlo.exponential %0 : tensor<64x1024x4096xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x1024x4096xf32>
    %3 = stablehlo.add %2, %1 : tensor<64x1024x4096xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x1024x4096xf32>
    %5 = stablehlo.divide %4, %3 : tensor<64x1024x4096xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x1024x4096xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<64x1024x4096xf32>
    %8 = stablehlo.multiply %5, %7 : tensor<64x1024x4096xf32>
    %9 = stablehlo.multiply %arg0, %5 : tensor<64x1024x4096xf32>
    return %9, %5, %8 : tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>
  }
  func.func private @silu_11(%arg0: tensor<64x1024x4096xf32>, %arg1: tensor<64x1024x4096xf32>, %arg2: tensor<64x1024x4096xf32>, %arg3: tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32> {
    %0 = stablehlo.multiply %arg1, %arg3 : tensor<64x1024x4096xf32>
    %1 = stablehlo.multiply %arg3, %arg0 : tensor<64x1024x4096xf32>
    %2 = stablehlo.multiply %0, %arg2 : tensor<64x1024x4096xf32>
    %3 = stablehlo.add %1, %2 : tensor<64x1024x4096xf32>
    return %3 : tensor<64x1024x4096xf32>
  }
  func.func private @_where_12(%arg0: tensor<64x16x1024x1024xi1>, %arg1: tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
    return %1 : tensor<64x16x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_13(%arg0: tensor<4x1024x16x64xf32>, %arg1: tensor<1024x16x64xf32>, %arg2: tensor<i32>) -> tensor<4x1024x16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1024x16x64xf32>) -> tensor<1x1024x16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x1024x16x64xf32>, tensor<1x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
    return %1 : tensor<4x1024x16x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_14(%arg0: tensor<4x16x64x1024xf32>, %arg1: tensor<16x64x1024xf32>, %arg2: tensor<i32>) -> tensor<4x16x64x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<16x64x1024xf32>) -> tensor<1x16x64x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x16x64x1024xf32>, tensor<1x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
    return %1 : tensor<4x16x64x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_15(%arg0: tensor<4x1024xf32>, %arg1: tensor<1024xf32>, %arg2: tensor<i32>) -> tensor<4x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x1024xf32>, tensor<1x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1024xf32>
    return %1 : tensor<4x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_16(%arg0: tensor<4x1024x4096xf32>, %arg1: tensor<1024x4096xf32>, %arg2: tensor<i32>) -> tensor<4x1024x4096xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<1024x4096xf32>) -> tensor<1x1024x4096xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x1024x4096xf32>, tensor<1x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x4096xf32>
    return %1 : tensor<4x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim_17(%arg0: tensor<4x4096x1024xf32>, %arg1: tensor<4096x1024xf32>, %arg2: tensor<i32>) -> tensor<4x4096x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4096x1024xf32>) -> tensor<1x4096x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x4096x1024xf32>, tensor<1x4096x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4096x1024xf32>
    return %1 : tensor<4x4096x1024xf32>
  }
  func.func private @_where_18(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
