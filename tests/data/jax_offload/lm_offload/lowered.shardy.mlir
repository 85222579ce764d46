module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "fsdp_transpose"=1, "sequence"=1, "tensor"=2, "autoregressive"=1]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "fsdp_transpose", size = 1 : i64}, {name = "sequence", size = 1 : i64}, {name = "tensor", size = 2 : i64}, {name = "autoregressive", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg1: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg2: tensor<4x4x8x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg3: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg4: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg5: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg6: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg7: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg8: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg9: tensor<64x4x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg10: tensor<32x128xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg11: tensor<128x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg12: tensor<i32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, []>}, %arg13: tensor<32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg14: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg15: tensor<4x4x8x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg16: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg17: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg18: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg19: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg20: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg21: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg22: tensor<64x4x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg23: tensor<32x128xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg24: tensor<128x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg25: tensor<32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, %arg26: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg27: tensor<4x4x8x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg28: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg29: tensor<32x4xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, %arg30: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg31: tensor<32x4x4x8xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, %arg32: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg33: tensor<32x4x64xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, %arg34: tensor<64x4x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, %arg35: tensor<32x128xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, %arg36: tensor<128x32xf32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, %arg37: tensor<8x32xi32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}, %arg38: tensor<8x32xi32> {mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}]>}) -> (tensor<32xf32> {jax.result_info = "result[0]['decoder_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[0]['layers']['key']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<4x4x8x32xf32> {jax.result_info = "result[0]['layers']['out']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<32x4xf32> {jax.result_info = "result[0]['layers']['pre_attention_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4xf32> {jax.result_info = "result[0]['layers']['pre_mlp_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[0]['layers']['query']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[0]['layers']['value']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x64xf32> {jax.result_info = "result[0]['layers']['wi_0']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<32x4x64xf32> {jax.result_info = "result[0]['layers']['wi_1']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<64x4x32xf32> {jax.result_info = "result[0]['layers']['wo']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<32x128xf32> {jax.result_info = "result[0]['logits_dense']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<128x32xf32> {jax.result_info = "result[0]['token_embedder']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<i32> {jax.result_info = "result[1][0].count", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, []>}, tensor<32xf32> {jax.result_info = "result[1][0].mu['decoder_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].mu['layers']['key']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<4x4x8x32xf32> {jax.result_info = "result[1][0].mu['layers']['out']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<32x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_attention_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4xf32> {jax.result_info = "result[1][0].mu['layers']['pre_mlp_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].mu['layers']['query']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].mu['layers']['value']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x64xf32> {jax.result_info = "result[1][0].mu['layers']['wi_0']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<32x4x64xf32> {jax.result_info = "result[1][0].mu['layers']['wi_1']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<64x4x32xf32> {jax.result_info = "result[1][0].mu['layers']['wo']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].mu['logits_dense']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].mu['token_embedder']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<32xf32> {jax.result_info = "result[1][0].nu['decoder_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].nu['layers']['key']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<4x4x8x32xf32> {jax.result_info = "result[1][0].nu['layers']['out']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {}, {}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<32x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_attention_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4xf32> {jax.result_info = "result[1][0].nu['layers']['pre_mlp_norm']['scale']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].nu['layers']['query']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x4x8xf32> {jax.result_info = "result[1][0].nu['layers']['value']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {}, {"tensor", "autoregressive"}, {}]>}, tensor<32x4x64xf32> {jax.result_info = "result[1][0].nu['layers']['wi_0']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<32x4x64xf32> {jax.result_info = "result[1][0].nu['layers']['wi_1']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "sequence"}, {}, {"fsdp_transpose", "tensor", "autoregressive"}]>}, tensor<64x4x32xf32> {jax.result_info = "result[1][0].nu['layers']['wo']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp_transpose", "tensor", "autoregressive"}, {}, {"fsdp", "sequence"}]>}, tensor<32x128xf32> {jax.result_info = "result[1][0].nu['logits_dense']['kernel']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"fsdp", "fsdp_transpose", "sequence"}, {"tensor", "autoregressive"}]>}, tensor<128x32xf32> {jax.result_info = "result[1][0].nu['token_embedder']", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, [{"tensor", "autoregressive"}, {"fsdp", "fsdp_transpose", "sequence"}]>}, tensor<f32> {jax.result_info = "result[2]", mhlo.memory_kind = "device", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x32xi32>
    %1 = stablehlo.compare LT, %arg37, %0, SIGNED : (tensor<8x32xi32>, tensor<8x32xi32>) -> tensor<8x32xi1>
    %c_0 = stablehlo.constant dense<128> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x32xi32>
    %3 = stablehlo.add %arg37, %2 : tensor<8x32xi32>
    %4 = stablehlo.select %1, %3, %arg37 : tensor<8x32xi1>, tensor<8x32xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x32xi32>) -> tensor<8x32x1xi32>
    %6 = "stablehlo.gather"(%arg11, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<128x32xf32>, tensor<8x32x1xi32>) -> tensor<8x32x32xf32>
    %7 = sdy.sharding_constraint %6 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %8 = stablehlo.transpose %arg1, dims = [1, 0, 2, 3] : (tensor<32x4x4x8xf32>) -> tensor<4x32x4x8xf32>
    %9 = stablehlo.transpose %arg2, dims = [1, 0, 2, 3] : (tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
    %10 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<32x4xf32>) -> tensor<4x32xf32>
    %11 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<32x4xf32>) -> tensor<4x32xf32>
    %12 = stablehlo.transpose %arg5, dims = [1, 0, 2, 3] : (tensor<32x4x4x8xf32>) -> tensor<4x32x4x8xf32>
    %13 = stablehlo.transpose %arg6, dims = [1, 0, 2, 3] : (tensor<32x4x4x8xf32>) -> tensor<4x32x4x8xf32>
    %14 = stablehlo.transpose %arg7, dims = [1, 0, 2] : (tensor<32x4x64xf32>) -> tensor<4x32x64xf32>
    %15 = stablehlo.transpose %arg8, dims = [1, 0, 2] : (tensor<32x4x64xf32>) -> tensor<4x32x64xf32>
    %16 = stablehlo.transpose %arg9, dims = [1, 0, 2] : (tensor<64x4x32xf32>) -> tensor<4x64x32xf32>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %17 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %18 = call @tril(%17) : (tensor<32x32xi1>) -> tensor<32x32xi1>
    %cst = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %19:2 = call @_where(%18, %cst) : (tensor<32x32xi1>, tensor<f32>) -> (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8x32x4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8x32x4x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x32x4x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8x32x32xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x32x64xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x8x32x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x8x32x32xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %27:20 = stablehlo.while(%iterArg = %8, %iterArg_139 = %9, %iterArg_140 = %10, %iterArg_141 = %11, %iterArg_142 = %12, %iterArg_143 = %13, %iterArg_144 = %14, %iterArg_145 = %15, %iterArg_146 = %16, %iterArg_147 = %19#0, %iterArg_148 = %19#1, %iterArg_149 = %c_9, %iterArg_150 = %7, %iterArg_151 = %20, %iterArg_152 = %21, %iterArg_153 = %22, %iterArg_154 = %23, %iterArg_155 = %24, %iterArg_156 = %25, %iterArg_157 = %26) : tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>, tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>, tensor<i32>, tensor<8x32x32xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x32xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x32xf32>
    cond {
      %c_158 = stablehlo.constant dense<4> : tensor<i32>
      %476 = stablehlo.compare LT, %iterArg_149, %c_158, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %476 : tensor<i1>
    } do {
      %476 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_149) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %477 = func.call @dynamic_index_in_dim_0(%iterArg_139, %iterArg_149) : (tensor<4x4x8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %478 = func.call @dynamic_index_in_dim_1(%iterArg_140, %iterArg_149) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %479 = func.call @dynamic_index_in_dim_1(%iterArg_141, %iterArg_149) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %480 = func.call @dynamic_index_in_dim(%iterArg_142, %iterArg_149) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %481 = func.call @dynamic_index_in_dim(%iterArg_143, %iterArg_149) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %482 = func.call @dynamic_index_in_dim_2(%iterArg_144, %iterArg_149) : (tensor<4x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %483 = func.call @dynamic_index_in_dim_2(%iterArg_145, %iterArg_149) : (tensor<4x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %484 = func.call @dynamic_index_in_dim_3(%iterArg_146, %iterArg_149) : (tensor<4x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %485:8 = func.call @closed_call(%iterArg_147, %iterArg_148, %iterArg_150, %476, %477, %478, %479, %480, %481, %482, %483, %484) : (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>, tensor<8x32x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> (tensor<8x32x32xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x32xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x32xf32>)
      %486 = func.call @dynamic_update_index_in_dim(%iterArg_151, %485#1, %iterArg_149) : (tensor<4x8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<i32>) -> tensor<4x8x32x4x8xf32>
      %487 = func.call @dynamic_update_index_in_dim(%iterArg_152, %485#2, %iterArg_149) : (tensor<4x8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<i32>) -> tensor<4x8x32x4x8xf32>
      %488 = func.call @dynamic_update_index_in_dim(%iterArg_153, %485#3, %iterArg_149) : (tensor<4x8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<i32>) -> tensor<4x8x32x4x8xf32>
      %489 = func.call @dynamic_update_index_in_dim_5(%iterArg_154, %485#4, %iterArg_149) : (tensor<4x8x32x32xf32>, tensor<8x32x32xf32>, tensor<i32>) -> tensor<4x8x32x32xf32>
      %490 = func.call @dynamic_update_index_in_dim_6(%iterArg_155, %485#5, %iterArg_149) : (tensor<4x8x32x64xf32>, tensor<8x32x64xf32>, tensor<i32>) -> tensor<4x8x32x64xf32>
      %491 = func.call @dynamic_update_index_in_dim_6(%iterArg_156, %485#6, %iterArg_149) : (tensor<4x8x32x64xf32>, tensor<8x32x64xf32>, tensor<i32>) -> tensor<4x8x32x64xf32>
      %492 = func.call @dynamic_update_index_in_dim_7(%iterArg_157, %485#7, %iterArg_149) : (tensor<4x8x32x32xf32>, tensor<8x32x32xf32>, tensor<i32>) -> tensor<4x8x32x32xf32>
      %c_158 = stablehlo.constant dense<1> : tensor<i32>
      %493 = stablehlo.add %iterArg_149, %c_158 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_139, %iterArg_140, %iterArg_141, %iterArg_142, %iterArg_143, %iterArg_144, %iterArg_145, %iterArg_146, %iterArg_147, %iterArg_148, %493, %485#0, %486, %487, %488, %489, %490, %491, %492 : tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>, tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>, tensor<i32>, tensor<8x32x32xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x32xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x32xf32>
    }
    %28 = chlo.square %27#12 : tensor<8x32x32xf32> -> tensor<8x32x32xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x32xf32>
    %30 = stablehlo.multiply %29, %27#12 : tensor<8x32x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%28 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %cst_12 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %34 = stablehlo.divide %32, %33 : tensor<8x32x1xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %36 = stablehlo.add %34, %35 : tensor<8x32x1xf32>
    %37 = stablehlo.rsqrt %36 : tensor<8x32x1xf32>
    %38 = stablehlo.divide %37, %36 : tensor<8x32x1xf32>
    %cst_14 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %40 = stablehlo.multiply %39, %38 : tensor<8x32x1xf32>
    %41 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %42 = stablehlo.multiply %27#12, %41 : tensor<8x32x32xf32>
    %43 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %45 = stablehlo.multiply %42, %44 : tensor<8x32x32xf32>
    %46 = stablehlo.dot_general %45, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x128xf32>) -> tensor<8x32x128xf32>
    %47 = sdy.sharding_constraint %46 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x128xf32>
    %48 = call @_one_hot(%arg38) : (tensor<8x32xi32>) -> tensor<8x32x128xf32>
    %49:3 = call @log_softmax(%47) : (tensor<8x32x128xf32>) -> (tensor<8x32x128xf32>, tensor<8x32x128xf32>, tensor<8x32x1xf32>)
    %50 = stablehlo.multiply %48, %49#0 : tensor<8x32x128xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_16) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_17 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %53 = stablehlo.divide %52, %cst_17 : tensor<f32>
    %54 = stablehlo.negate %53 : tensor<f32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %55 = stablehlo.negate %cst_18 : tensor<f32>
    %cst_19 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %56 = stablehlo.divide %55, %cst_19 : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %59 = stablehlo.multiply %48, %58 : tensor<8x32x128xf32>
    %60 = call @log_softmax_8(%49#1, %49#2, %59) : (tensor<8x32x128xf32>, tensor<8x32x1xf32>, tensor<8x32x128xf32>) -> tensor<8x32x128xf32>
    %61 = sdy.sharding_constraint %60 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x128xf32>
    %62 = stablehlo.dot_general %61, %45, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<8x32x32xf32>) -> tensor<128x32xf32>
    %63 = stablehlo.transpose %62, dims = [1, 0] : (tensor<128x32xf32>) -> tensor<32x128xf32>
    %64 = stablehlo.dot_general %61, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x128xf32>, tensor<32x128xf32>) -> tensor<8x32x32xf32>
    %65 = stablehlo.multiply %42, %64 : tensor<8x32x32xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%65 init: %cst_20) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %67 = stablehlo.reshape %66 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %68 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %69 = stablehlo.multiply %64, %68 : tensor<8x32x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%67 init: %cst_21) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %71 = stablehlo.multiply %27#12, %69 : tensor<8x32x32xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_22) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %73 = stablehlo.reshape %72 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %74 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %75 = stablehlo.multiply %69, %74 : tensor<8x32x32xf32>
    %76 = stablehlo.multiply %73, %40 : tensor<8x32x1xf32>
    %cst_23 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<8x32x1xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x32xf32>
    %81 = stablehlo.multiply %80, %30 : tensor<8x32x32xf32>
    %82 = stablehlo.add %75, %81 : tensor<8x32x32xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x32x4x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x32x4x8xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x32x4x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x32x64xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x32x64xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x64x32xf32>
    %c_34 = stablehlo.constant dense<0> : tensor<i32>
    %92:27 = stablehlo.while(%iterArg = %27#13, %iterArg_139 = %27#14, %iterArg_140 = %27#15, %iterArg_141 = %27#16, %iterArg_142 = %27#17, %iterArg_143 = %27#18, %iterArg_144 = %8, %iterArg_145 = %9, %iterArg_146 = %10, %iterArg_147 = %11, %iterArg_148 = %12, %iterArg_149 = %13, %iterArg_150 = %14, %iterArg_151 = %15, %iterArg_152 = %16, %iterArg_153 = %27#19, %iterArg_154 = %c_34, %iterArg_155 = %82, %iterArg_156 = %83, %iterArg_157 = %84, %iterArg_158 = %85, %iterArg_159 = %86, %iterArg_160 = %87, %iterArg_161 = %88, %iterArg_162 = %89, %iterArg_163 = %90, %iterArg_164 = %91) : tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x32xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x64xf32>, tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>, tensor<4x8x32x32xf32>, tensor<i32>, tensor<8x32x32xf32>, tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>
    cond {
      %c_165 = stablehlo.constant dense<4> : tensor<i32>
      %476 = stablehlo.compare LT, %iterArg_154, %c_165, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %476 : tensor<i1>
    } do {
      %c_165 = stablehlo.constant dense<4> : tensor<i32>
      %476 = stablehlo.subtract %c_165, %iterArg_154 : tensor<i32>
      %c_166 = stablehlo.constant dense<1> : tensor<i32>
      %477 = stablehlo.subtract %476, %c_166 : tensor<i32>
      %478 = func.call @dynamic_index_in_dim_9(%iterArg, %477) : (tensor<4x8x32x4x8xf32>, tensor<i32>) -> tensor<8x32x4x8xf32>
      %479 = func.call @dynamic_index_in_dim_9(%iterArg_139, %477) : (tensor<4x8x32x4x8xf32>, tensor<i32>) -> tensor<8x32x4x8xf32>
      %480 = func.call @dynamic_index_in_dim_9(%iterArg_140, %477) : (tensor<4x8x32x4x8xf32>, tensor<i32>) -> tensor<8x32x4x8xf32>
      %481 = func.call @dynamic_index_in_dim_10(%iterArg_141, %477) : (tensor<4x8x32x32xf32>, tensor<i32>) -> tensor<8x32x32xf32>
      %482 = func.call @dynamic_index_in_dim_11(%iterArg_142, %477) : (tensor<4x8x32x64xf32>, tensor<i32>) -> tensor<8x32x64xf32>
      %483 = func.call @dynamic_index_in_dim_11(%iterArg_143, %477) : (tensor<4x8x32x64xf32>, tensor<i32>) -> tensor<8x32x64xf32>
      %484 = func.call @dynamic_index_in_dim(%iterArg_144, %477) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %485 = func.call @dynamic_index_in_dim_0(%iterArg_145, %477) : (tensor<4x4x8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %486 = func.call @dynamic_index_in_dim_1(%iterArg_146, %477) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %487 = func.call @dynamic_index_in_dim_1(%iterArg_147, %477) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %488 = func.call @dynamic_index_in_dim(%iterArg_148, %477) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %489 = func.call @dynamic_index_in_dim(%iterArg_149, %477) : (tensor<4x32x4x8xf32>, tensor<i32>) -> tensor<32x4x8xf32>
      %490 = func.call @dynamic_index_in_dim_2(%iterArg_150, %477) : (tensor<4x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %491 = func.call @dynamic_index_in_dim_2(%iterArg_151, %477) : (tensor<4x32x64xf32>, tensor<i32>) -> tensor<32x64xf32>
      %492 = func.call @dynamic_index_in_dim_3(%iterArg_152, %477) : (tensor<4x64x32xf32>, tensor<i32>) -> tensor<64x32xf32>
      %493 = func.call @dynamic_index_in_dim_12(%iterArg_153, %477) : (tensor<4x8x32x32xf32>, tensor<i32>) -> tensor<8x32x32xf32>
      %494:10 = func.call @closed_call_13(%iterArg_155, %478, %479, %480, %481, %482, %483, %484, %485, %486, %487, %488, %489, %490, %491, %492, %493) : (tensor<8x32x32xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x32xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<8x32x32xf32>) -> (tensor<8x32x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>)
      %495 = func.call @dynamic_update_index_in_dim_19(%iterArg_156, %494#1, %477) : (tensor<4x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<4x32x4x8xf32>
      %496 = func.call @dynamic_update_index_in_dim_20(%iterArg_157, %494#2, %477) : (tensor<4x4x8x32xf32>, tensor<4x8x32xf32>, tensor<i32>) -> tensor<4x4x8x32xf32>
      %497 = func.call @dynamic_update_index_in_dim_21(%iterArg_158, %494#3, %477) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %498 = func.call @dynamic_update_index_in_dim_21(%iterArg_159, %494#4, %477) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %499 = func.call @dynamic_update_index_in_dim_19(%iterArg_160, %494#5, %477) : (tensor<4x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<4x32x4x8xf32>
      %500 = func.call @dynamic_update_index_in_dim_19(%iterArg_161, %494#6, %477) : (tensor<4x32x4x8xf32>, tensor<32x4x8xf32>, tensor<i32>) -> tensor<4x32x4x8xf32>
      %501 = func.call @dynamic_update_index_in_dim_22(%iterArg_162, %494#7, %477) : (tensor<4x32x64xf32>, tensor<32x64xf32>, tensor<i32>) -> tensor<4x32x64xf32>
      %502 = func.call @dynamic_update_index_in_dim_22(%iterArg_163, %494#8, %477) : (tensor<4x32x64xf32>, tensor<32x64xf32>, tensor<i32>) -> tensor<4x32x64xf32>
      %503 = func.call @dynamic_update_index_in_dim_23(%iterArg_164, %494#9, %477) : (tensor<4x64x32xf32>, tensor<64x32xf32>, tensor<i32>) -> tensor<4x64x32xf32>
      %c_167 = stablehlo.constant dense<1> : tensor<i32>
      %504 = stablehlo.add %iterArg_154, %c_167 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_139, %iterArg_140, %iterArg_141, %iterArg_142, %iterArg_143, %iterArg_144, %iterArg_145, %iterArg_146, %iterArg_147, %iterArg_148, %iterArg_149, %iterArg_150, %iterArg_151, %iterArg_152, %iterArg_153, %504, %494#0, %495, %496, %497, %498, %499, %500, %501, %502, %503 : tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x4x8xf32>, tensor<4x8x32x32xf32>, tensor<4x8x32x64xf32>, tensor<4x8x32x64xf32>, tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>, tensor<4x8x32x32xf32>, tensor<i32>, tensor<8x32x32xf32>, tensor<4x32x4x8xf32>, tensor<4x4x8x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32x4x8xf32>, tensor<4x32x4x8xf32>, tensor<4x32x64xf32>, tensor<4x32x64xf32>, tensor<4x64x32xf32>
    }
    %93 = stablehlo.transpose %92#26, dims = [1, 0, 2] : (tensor<4x64x32xf32>) -> tensor<64x4x32xf32>
    %94 = stablehlo.transpose %92#25, dims = [1, 0, 2] : (tensor<4x32x64xf32>) -> tensor<32x4x64xf32>
    %95 = stablehlo.transpose %92#24, dims = [1, 0, 2] : (tensor<4x32x64xf32>) -> tensor<32x4x64xf32>
    %96 = stablehlo.transpose %92#23, dims = [1, 0, 2, 3] : (tensor<4x32x4x8xf32>) -> tensor<32x4x4x8xf32>
    %97 = stablehlo.transpose %92#22, dims = [1, 0, 2, 3] : (tensor<4x32x4x8xf32>) -> tensor<32x4x4x8xf32>
    %98 = stablehlo.transpose %92#21, dims = [1, 0] : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %99 = stablehlo.transpose %92#20, dims = [1, 0] : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %100 = stablehlo.transpose %92#19, dims = [1, 0, 2, 3] : (tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
    %101 = stablehlo.transpose %92#18, dims = [1, 0, 2, 3] : (tensor<4x32x4x8xf32>) -> tensor<32x4x4x8xf32>
    %102 = sdy.sharding_constraint %92#17 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %104 = "stablehlo.scatter"(%103, %5, %102) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %476 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %476 : tensor<f32>
    }) : (tensor<128x32xf32>, tensor<8x32x1xi32>, tensor<8x32x32xf32>) -> tensor<128x32xf32>
    %cst_36 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %106 = stablehlo.multiply %105, %70 : tensor<32xf32>
    %cst_37 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %108 = stablehlo.multiply %107, %arg13 : tensor<32xf32>
    %109 = stablehlo.add %106, %108 : tensor<32xf32>
    %cst_38 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %111 = stablehlo.multiply %110, %101 : tensor<32x4x4x8xf32>
    %cst_39 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %113 = stablehlo.multiply %112, %arg14 : tensor<32x4x4x8xf32>
    %114 = stablehlo.add %111, %113 : tensor<32x4x4x8xf32>
    %cst_40 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %116 = stablehlo.multiply %115, %100 : tensor<4x4x8x32xf32>
    %cst_41 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %118 = stablehlo.multiply %117, %arg15 : tensor<4x4x8x32xf32>
    %119 = stablehlo.add %116, %118 : tensor<4x4x8x32xf32>
    %cst_42 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %121 = stablehlo.multiply %120, %99 : tensor<32x4xf32>
    %cst_43 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %123 = stablehlo.multiply %122, %arg16 : tensor<32x4xf32>
    %124 = stablehlo.add %121, %123 : tensor<32x4xf32>
    %cst_44 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %126 = stablehlo.multiply %125, %98 : tensor<32x4xf32>
    %cst_45 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %128 = stablehlo.multiply %127, %arg17 : tensor<32x4xf32>
    %129 = stablehlo.add %126, %128 : tensor<32x4xf32>
    %cst_46 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %131 = stablehlo.multiply %130, %97 : tensor<32x4x4x8xf32>
    %cst_47 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %133 = stablehlo.multiply %132, %arg18 : tensor<32x4x4x8xf32>
    %134 = stablehlo.add %131, %133 : tensor<32x4x4x8xf32>
    %cst_48 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %135 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %136 = stablehlo.multiply %135, %96 : tensor<32x4x4x8xf32>
    %cst_49 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %138 = stablehlo.multiply %137, %arg19 : tensor<32x4x4x8xf32>
    %139 = stablehlo.add %136, %138 : tensor<32x4x4x8xf32>
    %cst_50 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %141 = stablehlo.multiply %140, %95 : tensor<32x4x64xf32>
    %cst_51 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %143 = stablehlo.multiply %142, %arg20 : tensor<32x4x64xf32>
    %144 = stablehlo.add %141, %143 : tensor<32x4x64xf32>
    %cst_52 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %145 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %146 = stablehlo.multiply %145, %94 : tensor<32x4x64xf32>
    %cst_53 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %148 = stablehlo.multiply %147, %arg21 : tensor<32x4x64xf32>
    %149 = stablehlo.add %146, %148 : tensor<32x4x64xf32>
    %cst_54 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %151 = stablehlo.multiply %150, %93 : tensor<64x4x32xf32>
    %cst_55 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %153 = stablehlo.multiply %152, %arg22 : tensor<64x4x32xf32>
    %154 = stablehlo.add %151, %153 : tensor<64x4x32xf32>
    %cst_56 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %156 = stablehlo.multiply %155, %63 : tensor<32x128xf32>
    %cst_57 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %158 = stablehlo.multiply %157, %arg23 : tensor<32x128xf32>
    %159 = stablehlo.add %156, %158 : tensor<32x128xf32>
    %cst_58 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %161 = stablehlo.multiply %160, %104 : tensor<128x32xf32>
    %cst_59 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %162 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %163 = stablehlo.multiply %162, %arg24 : tensor<128x32xf32>
    %164 = stablehlo.add %161, %163 : tensor<128x32xf32>
    %165 = stablehlo.multiply %70, %70 : tensor<32xf32>
    %cst_60 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %166 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %167 = stablehlo.multiply %166, %165 : tensor<32xf32>
    %cst_61 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %169 = stablehlo.multiply %168, %arg25 : tensor<32xf32>
    %170 = stablehlo.add %167, %169 : tensor<32xf32>
    %171 = stablehlo.multiply %101, %101 : tensor<32x4x4x8xf32>
    %cst_62 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %173 = stablehlo.multiply %172, %171 : tensor<32x4x4x8xf32>
    %cst_63 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %175 = stablehlo.multiply %174, %arg26 : tensor<32x4x4x8xf32>
    %176 = stablehlo.add %173, %175 : tensor<32x4x4x8xf32>
    %177 = stablehlo.multiply %100, %100 : tensor<4x4x8x32xf32>
    %cst_64 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %179 = stablehlo.multiply %178, %177 : tensor<4x4x8x32xf32>
    %cst_65 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %180 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %181 = stablehlo.multiply %180, %arg27 : tensor<4x4x8x32xf32>
    %182 = stablehlo.add %179, %181 : tensor<4x4x8x32xf32>
    %183 = stablehlo.multiply %99, %99 : tensor<32x4xf32>
    %cst_66 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %185 = stablehlo.multiply %184, %183 : tensor<32x4xf32>
    %cst_67 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %187 = stablehlo.multiply %186, %arg28 : tensor<32x4xf32>
    %188 = stablehlo.add %185, %187 : tensor<32x4xf32>
    %189 = stablehlo.multiply %98, %98 : tensor<32x4xf32>
    %cst_68 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %191 = stablehlo.multiply %190, %189 : tensor<32x4xf32>
    %cst_69 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %193 = stablehlo.multiply %192, %arg29 : tensor<32x4xf32>
    %194 = stablehlo.add %191, %193 : tensor<32x4xf32>
    %195 = stablehlo.multiply %97, %97 : tensor<32x4x4x8xf32>
    %cst_70 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %196 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %197 = stablehlo.multiply %196, %195 : tensor<32x4x4x8xf32>
    %cst_71 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %199 = stablehlo.multiply %198, %arg30 : tensor<32x4x4x8xf32>
    %200 = stablehlo.add %197, %199 : tensor<32x4x4x8xf32>
    %201 = stablehlo.multiply %96, %96 : tensor<32x4x4x8xf32>
    %cst_72 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %202 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %203 = stablehlo.multiply %202, %201 : tensor<32x4x4x8xf32>
    %cst_73 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %204 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %205 = stablehlo.multiply %204, %arg31 : tensor<32x4x4x8xf32>
    %206 = stablehlo.add %203, %205 : tensor<32x4x4x8xf32>
    %207 = stablehlo.multiply %95, %95 : tensor<32x4x64xf32>
    %cst_74 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<32x4x64xf32>
    %cst_75 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %210 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %211 = stablehlo.multiply %210, %arg32 : tensor<32x4x64xf32>
    %212 = stablehlo.add %209, %211 : tensor<32x4x64xf32>
    %213 = stablehlo.multiply %94, %94 : tensor<32x4x64xf32>
    %cst_76 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %214 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %215 = stablehlo.multiply %214, %213 : tensor<32x4x64xf32>
    %cst_77 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %217 = stablehlo.multiply %216, %arg33 : tensor<32x4x64xf32>
    %218 = stablehlo.add %215, %217 : tensor<32x4x64xf32>
    %219 = stablehlo.multiply %93, %93 : tensor<64x4x32xf32>
    %cst_78 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %221 = stablehlo.multiply %220, %219 : tensor<64x4x32xf32>
    %cst_79 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %223 = stablehlo.multiply %222, %arg34 : tensor<64x4x32xf32>
    %224 = stablehlo.add %221, %223 : tensor<64x4x32xf32>
    %225 = stablehlo.multiply %63, %63 : tensor<32x128xf32>
    %cst_80 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %226 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %227 = stablehlo.multiply %226, %225 : tensor<32x128xf32>
    %cst_81 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %229 = stablehlo.multiply %228, %arg35 : tensor<32x128xf32>
    %230 = stablehlo.add %227, %229 : tensor<32x128xf32>
    %231 = stablehlo.multiply %104, %104 : tensor<128x32xf32>
    %cst_82 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %233 = stablehlo.multiply %232, %231 : tensor<128x32xf32>
    %cst_83 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %234 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %235 = stablehlo.multiply %234, %arg36 : tensor<128x32xf32>
    %236 = stablehlo.add %233, %235 : tensor<128x32xf32>
    %c_84 = stablehlo.constant dense<2147483647> : tensor<i32>
    %237 = stablehlo.compare LT, %arg12, %c_84, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_85 = stablehlo.constant dense<1> : tensor<i32>
    %238 = stablehlo.add %arg12, %c_85 : tensor<i32>
    %c_86 = stablehlo.constant dense<2147483647> : tensor<i32>
    %239 = call @_where_24(%237, %238, %c_86) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_87 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %240 = stablehlo.convert %239 : (tensor<i32>) -> tensor<f32>
    %241 = stablehlo.power %cst_87, %240 : tensor<f32>
    %cst_88 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %242 = stablehlo.subtract %cst_88, %241 : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %244 = stablehlo.divide %109, %243 : tensor<32xf32>
    %245 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %246 = stablehlo.divide %114, %245 : tensor<32x4x4x8xf32>
    %247 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %248 = stablehlo.divide %119, %247 : tensor<4x4x8x32xf32>
    %249 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %250 = stablehlo.divide %124, %249 : tensor<32x4xf32>
    %251 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %252 = stablehlo.divide %129, %251 : tensor<32x4xf32>
    %253 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %254 = stablehlo.divide %134, %253 : tensor<32x4x4x8xf32>
    %255 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %256 = stablehlo.divide %139, %255 : tensor<32x4x4x8xf32>
    %257 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %258 = stablehlo.divide %144, %257 : tensor<32x4x64xf32>
    %259 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %260 = stablehlo.divide %149, %259 : tensor<32x4x64xf32>
    %261 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %262 = stablehlo.divide %154, %261 : tensor<64x4x32xf32>
    %263 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %264 = stablehlo.divide %159, %263 : tensor<32x128xf32>
    %265 = stablehlo.broadcast_in_dim %242, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %266 = stablehlo.divide %164, %265 : tensor<128x32xf32>
    %cst_89 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %267 = stablehlo.convert %239 : (tensor<i32>) -> tensor<f32>
    %268 = stablehlo.power %cst_89, %267 : tensor<f32>
    %cst_90 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %269 = stablehlo.subtract %cst_90, %268 : tensor<f32>
    %270 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %271 = stablehlo.divide %170, %270 : tensor<32xf32>
    %272 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %273 = stablehlo.divide %176, %272 : tensor<32x4x4x8xf32>
    %274 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %275 = stablehlo.divide %182, %274 : tensor<4x4x8x32xf32>
    %276 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %277 = stablehlo.divide %188, %276 : tensor<32x4xf32>
    %278 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %279 = stablehlo.divide %194, %278 : tensor<32x4xf32>
    %280 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %281 = stablehlo.divide %200, %280 : tensor<32x4x4x8xf32>
    %282 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %283 = stablehlo.divide %206, %282 : tensor<32x4x4x8xf32>
    %284 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %285 = stablehlo.divide %212, %284 : tensor<32x4x64xf32>
    %286 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %287 = stablehlo.divide %218, %286 : tensor<32x4x64xf32>
    %288 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %289 = stablehlo.divide %224, %288 : tensor<64x4x32xf32>
    %290 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %291 = stablehlo.divide %230, %290 : tensor<32x128xf32>
    %292 = stablehlo.broadcast_in_dim %269, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %293 = stablehlo.divide %236, %292 : tensor<128x32xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %294 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %295 = stablehlo.add %271, %294 : tensor<32xf32>
    %296 = stablehlo.sqrt %295 : tensor<32xf32>
    %cst_92 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %297 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %298 = stablehlo.add %296, %297 : tensor<32xf32>
    %299 = stablehlo.divide %244, %298 : tensor<32xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %301 = stablehlo.add %273, %300 : tensor<32x4x4x8xf32>
    %302 = stablehlo.sqrt %301 : tensor<32x4x4x8xf32>
    %cst_94 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %303 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %304 = stablehlo.add %302, %303 : tensor<32x4x4x8xf32>
    %305 = stablehlo.divide %246, %304 : tensor<32x4x4x8xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %306 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %307 = stablehlo.add %275, %306 : tensor<4x4x8x32xf32>
    %308 = stablehlo.sqrt %307 : tensor<4x4x8x32xf32>
    %cst_96 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %309 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %310 = stablehlo.add %308, %309 : tensor<4x4x8x32xf32>
    %311 = stablehlo.divide %248, %310 : tensor<4x4x8x32xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %313 = stablehlo.add %277, %312 : tensor<32x4xf32>
    %314 = stablehlo.sqrt %313 : tensor<32x4xf32>
    %cst_98 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %316 = stablehlo.add %314, %315 : tensor<32x4xf32>
    %317 = stablehlo.divide %250, %316 : tensor<32x4xf32>
    %cst_99 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %319 = stablehlo.add %279, %318 : tensor<32x4xf32>
    %320 = stablehlo.sqrt %319 : tensor<32x4xf32>
    %cst_100 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %321 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %322 = stablehlo.add %320, %321 : tensor<32x4xf32>
    %323 = stablehlo.divide %252, %322 : tensor<32x4xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %324 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %325 = stablehlo.add %281, %324 : tensor<32x4x4x8xf32>
    %326 = stablehlo.sqrt %325 : tensor<32x4x4x8xf32>
    %cst_102 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %327 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %328 = stablehlo.add %326, %327 : tensor<32x4x4x8xf32>
    %329 = stablehlo.divide %254, %328 : tensor<32x4x4x8xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %331 = stablehlo.add %283, %330 : tensor<32x4x4x8xf32>
    %332 = stablehlo.sqrt %331 : tensor<32x4x4x8xf32>
    %cst_104 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %333 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %334 = stablehlo.add %332, %333 : tensor<32x4x4x8xf32>
    %335 = stablehlo.divide %256, %334 : tensor<32x4x4x8xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %336 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %337 = stablehlo.add %285, %336 : tensor<32x4x64xf32>
    %338 = stablehlo.sqrt %337 : tensor<32x4x64xf32>
    %cst_106 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %340 = stablehlo.add %338, %339 : tensor<32x4x64xf32>
    %341 = stablehlo.divide %258, %340 : tensor<32x4x64xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %342 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %343 = stablehlo.add %287, %342 : tensor<32x4x64xf32>
    %344 = stablehlo.sqrt %343 : tensor<32x4x64xf32>
    %cst_108 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %345 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %346 = stablehlo.add %344, %345 : tensor<32x4x64xf32>
    %347 = stablehlo.divide %260, %346 : tensor<32x4x64xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %348 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %349 = stablehlo.add %289, %348 : tensor<64x4x32xf32>
    %350 = stablehlo.sqrt %349 : tensor<64x4x32xf32>
    %cst_110 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %352 = stablehlo.add %350, %351 : tensor<64x4x32xf32>
    %353 = stablehlo.divide %262, %352 : tensor<64x4x32xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %355 = stablehlo.add %291, %354 : tensor<32x128xf32>
    %356 = stablehlo.sqrt %355 : tensor<32x128xf32>
    %cst_112 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %358 = stablehlo.add %356, %357 : tensor<32x128xf32>
    %359 = stablehlo.divide %264, %358 : tensor<32x128xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %361 = stablehlo.add %293, %360 : tensor<128x32xf32>
    %362 = stablehlo.sqrt %361 : tensor<128x32xf32>
    %cst_114 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %364 = stablehlo.add %362, %363 : tensor<128x32xf32>
    %365 = stablehlo.divide %266, %364 : tensor<128x32xf32>
    %cst_115 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %366 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %367 = stablehlo.multiply %366, %arg0 : tensor<32xf32>
    %368 = stablehlo.add %299, %367 : tensor<32xf32>
    %cst_116 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %370 = stablehlo.multiply %369, %arg1 : tensor<32x4x4x8xf32>
    %371 = stablehlo.add %305, %370 : tensor<32x4x4x8xf32>
    %cst_117 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %373 = stablehlo.multiply %372, %arg2 : tensor<4x4x8x32xf32>
    %374 = stablehlo.add %311, %373 : tensor<4x4x8x32xf32>
    %cst_118 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %376 = stablehlo.multiply %375, %arg3 : tensor<32x4xf32>
    %377 = stablehlo.add %317, %376 : tensor<32x4xf32>
    %cst_119 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %379 = stablehlo.multiply %378, %arg4 : tensor<32x4xf32>
    %380 = stablehlo.add %323, %379 : tensor<32x4xf32>
    %cst_120 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %382 = stablehlo.multiply %381, %arg5 : tensor<32x4x4x8xf32>
    %383 = stablehlo.add %329, %382 : tensor<32x4x4x8xf32>
    %cst_121 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %385 = stablehlo.multiply %384, %arg6 : tensor<32x4x4x8xf32>
    %386 = stablehlo.add %335, %385 : tensor<32x4x4x8xf32>
    %cst_122 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %388 = stablehlo.multiply %387, %arg7 : tensor<32x4x64xf32>
    %389 = stablehlo.add %341, %388 : tensor<32x4x64xf32>
    %cst_123 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %391 = stablehlo.multiply %390, %arg8 : tensor<32x4x64xf32>
    %392 = stablehlo.add %347, %391 : tensor<32x4x64xf32>
    %cst_124 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %394 = stablehlo.multiply %393, %arg9 : tensor<64x4x32xf32>
    %395 = stablehlo.add %353, %394 : tensor<64x4x32xf32>
    %cst_125 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %396 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %397 = stablehlo.multiply %396, %arg10 : tensor<32x128xf32>
    %398 = stablehlo.add %359, %397 : tensor<32x128xf32>
    %cst_126 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %399 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %400 = stablehlo.multiply %399, %arg11 : tensor<128x32xf32>
    %401 = stablehlo.add %365, %400 : tensor<128x32xf32>
    %cst_127 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %402 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %403 = stablehlo.multiply %402, %368 : tensor<32xf32>
    %cst_128 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %405 = stablehlo.multiply %404, %371 : tensor<32x4x4x8xf32>
    %cst_129 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %406 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<4x4x8x32xf32>
    %407 = stablehlo.multiply %406, %374 : tensor<4x4x8x32xf32>
    %cst_130 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %408 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %409 = stablehlo.multiply %408, %377 : tensor<32x4xf32>
    %cst_131 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %410 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %411 = stablehlo.multiply %410, %380 : tensor<32x4xf32>
    %cst_132 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %412 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %413 = stablehlo.multiply %412, %383 : tensor<32x4x4x8xf32>
    %cst_133 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<32x4x4x8xf32>
    %415 = stablehlo.multiply %414, %386 : tensor<32x4x4x8xf32>
    %cst_134 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %416 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %417 = stablehlo.multiply %416, %389 : tensor<32x4x64xf32>
    %cst_135 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %418 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<32x4x64xf32>
    %419 = stablehlo.multiply %418, %392 : tensor<32x4x64xf32>
    %cst_136 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %420 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f32>) -> tensor<64x4x32xf32>
    %421 = stablehlo.multiply %420, %395 : tensor<64x4x32xf32>
    %cst_137 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %422 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<32x128xf32>
    %423 = stablehlo.multiply %422, %398 : tensor<32x128xf32>
    %cst_138 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %424 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<128x32xf32>
    %425 = stablehlo.multiply %424, %401 : tensor<128x32xf32>
    %426 = stablehlo.add %arg0, %403 : tensor<32xf32>
    %427 = stablehlo.add %arg1, %405 : tensor<32x4x4x8xf32>
    %428 = stablehlo.add %arg2, %407 : tensor<4x4x8x32xf32>
    %429 = stablehlo.add %arg3, %409 : tensor<32x4xf32>
    %430 = stablehlo.add %arg4, %411 : tensor<32x4xf32>
    %431 = stablehlo.add %arg5, %413 : tensor<32x4x4x8xf32>
    %432 = stablehlo.add %arg6, %415 : tensor<32x4x4x8xf32>
    %433 = stablehlo.add %arg7, %417 : tensor<32x4x64xf32>
    %434 = stablehlo.add %arg8, %419 : tensor<32x4x64xf32>
    %435 = stablehlo.add %arg9, %421 : tensor<64x4x32xf32>
    %436 = stablehlo.add %arg10, %423 : tensor<32x128xf32>
    %437 = stablehlo.add %arg11, %425 : tensor<128x32xf32>
    %438 = stablehlo.custom_call @annotate_device_placement(%426) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32xf32>) -> tensor<32xf32>
    %439 = stablehlo.custom_call @annotate_device_placement(%427) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %440 = stablehlo.custom_call @annotate_device_placement(%428) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
    %441 = stablehlo.custom_call @annotate_device_placement(%429) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %442 = stablehlo.custom_call @annotate_device_placement(%430) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %443 = stablehlo.custom_call @annotate_device_placement(%431) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %444 = stablehlo.custom_call @annotate_device_placement(%432) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %445 = stablehlo.custom_call @annotate_device_placement(%433) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %446 = stablehlo.custom_call @annotate_device_placement(%434) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %447 = stablehlo.custom_call @annotate_device_placement(%435) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<64x4x32xf32>) -> tensor<64x4x32xf32>
    %448 = stablehlo.custom_call @annotate_device_placement(%436) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %449 = stablehlo.custom_call @annotate_device_placement(%437) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %450 = stablehlo.custom_call @annotate_device_placement(%239) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<i32>) -> tensor<i32>
    %451 = stablehlo.custom_call @annotate_device_placement(%109) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32xf32>) -> tensor<32xf32>
    %452 = stablehlo.custom_call @annotate_device_placement(%114) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %453 = stablehlo.custom_call @annotate_device_placement(%119) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
    %454 = stablehlo.custom_call @annotate_device_placement(%124) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %455 = stablehlo.custom_call @annotate_device_placement(%129) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %456 = stablehlo.custom_call @annotate_device_placement(%134) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %457 = stablehlo.custom_call @annotate_device_placement(%139) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %458 = stablehlo.custom_call @annotate_device_placement(%144) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %459 = stablehlo.custom_call @annotate_device_placement(%149) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %460 = stablehlo.custom_call @annotate_device_placement(%154) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<64x4x32xf32>) -> tensor<64x4x32xf32>
    %461 = stablehlo.custom_call @annotate_device_placement(%159) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %462 = stablehlo.custom_call @annotate_device_placement(%164) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %463 = stablehlo.custom_call @annotate_device_placement(%170) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32xf32>) -> tensor<32xf32>
    %464 = stablehlo.custom_call @annotate_device_placement(%176) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %465 = stablehlo.custom_call @annotate_device_placement(%182) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
    %466 = stablehlo.custom_call @annotate_device_placement(%188) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %467 = stablehlo.custom_call @annotate_device_placement(%194) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %468 = stablehlo.custom_call @annotate_device_placement(%200) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %469 = stablehlo.custom_call @annotate_device_placement(%206) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x4x8xf32>) -> tensor<32x4x4x8xf32>
    %470 = stablehlo.custom_call @annotate_device_placement(%212) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %471 = stablehlo.custom_call @annotate_device_placement(%218) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x4x64xf32>) -> tensor<32x4x64xf32>
    %472 = stablehlo.custom_call @annotate_device_placement(%224) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<64x4x32xf32>) -> tensor<64x4x32xf32>
    %473 = stablehlo.custom_call @annotate_device_placement(%230) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<32x128xf32>) -> tensor<32x128xf32>
    %474 = stablehlo.custom_call @annotate_device_placement(%236) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<128x32xf32>) -> tensor<128x32xf32>
    %475 = stablehlo.custom_call @annotate_device_placement(%54) {backend_config = "", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<f32>) -> tensor<f32>
    return %438, %439, %440, %441, %442, %443, %444, %445, %446, %447, %448, %449, %450, %451, %452, %453, %454, %455, %456, %457, %458, %459, %460, %461, %462, %463, %464, %465, %466, %467, %468, %469, %470, %471, %472, %473, %474, %475 : tensor<32xf32>, tensor<32x4x4x8xf32>, tensor<4x4x8x32xf32>, tensor<32x4xf32>, tensor<32x4xf32>, tensor<32x4x4x8xf32>, tensor<32x4x4x8xf32>, tensor<32x4x64xf32>, tensor<32x4x64xf32>, tensor<64x4x32xf32>, tensor<32x128xf32>, tensor<128x32xf32>, tensor<i32>, tensor<32xf32>, tensor<32x4x4x8xf32>, tensor<4x4x8x32xf32>, tensor<32x4xf32>, tensor<32x4xf32>, tensor<32x4x4x8xf32>, tensor<32x4x4x8xf32>, tensor<32x4x64xf32>, tensor<32x4x64xf32>, tensor<64x4x32xf32>, tensor<32x128xf32>, tensor<128x32xf32>, tensor<32xf32>, tensor<32x4x4x8xf32>, tensor<4x4x8x32xf32>, tensor<32x4xf32>, tensor<32x4xf32>, tensor<32x4x4x8xf32>, tensor<32x4x4x8xf32>, tensor<32x4x64xf32>, tensor<32x4x64xf32>, tensor<64x4x32xf32>, tensor<32x128xf32>, tensor<128x32xf32>, tensor<f32>
  }
  func.func private @tril(%arg0: tensor<32x32xi1>) -> tensor<32x32xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<32x32xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<32x32xi32>
    %2 = stablehlo.add %0, %1 : tensor<32x32xi32>
    %3 = stablehlo.iota dim = 1 : tensor<32x32xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<32x32xi1>, tensor<32x32xi1>
    return %6 : tensor<32x32xi1>
  }
  func.func private @_where(%arg0: tensor<32x32xi1>, %arg1: tensor<f32>) -> (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<8x4x32x32xi1>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    return %0, %1 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x32x4x8xf32>, %arg1: tensor<i32>) -> tensor<32x4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 32, 4, 8] : (tensor<4x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x4x8xf32>) -> tensor<32x4x8xf32>
    return %1 : tensor<32x4x8xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x4x8x32xf32>, %arg1: tensor<i32>) -> tensor<4x8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 4, 8, 32] : (tensor<4x4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x8x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x8x32xf32>) -> tensor<4x8x32xf32>
    return %1 : tensor<4x8x32xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<4x32xf32>, %arg1: tensor<i32>) -> tensor<32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<4x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32xf32>) -> tensor<32xf32>
    return %1 : tensor<32xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<4x32x64xf32>, %arg1: tensor<i32>) -> tensor<32x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 64] : (tensor<4x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4x64x32xf32>, %arg1: tensor<i32>) -> tensor<64x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 32] : (tensor<4x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x32xf32>) -> tensor<64x32xf32>
    return %1 : tensor<64x32xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x4x32x32xi1>, %arg1: tensor<8x4x32x32xf32>, %arg2: tensor<8x32x32xf32>, %arg3: tensor<32x4x8xf32>, %arg4: tensor<4x8x32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32x4x8xf32>, %arg8: tensor<32x4x8xf32>, %arg9: tensor<32x64xf32>, %arg10: tensor<32x64xf32>, %arg11: tensor<64x32xf32>) -> (tensor<8x32x32xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x32xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x32xf32>) {
    %0 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %1 = chlo.square %0 : tensor<8x32x32xf32> -> tensor<8x32x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<8x32x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<8x32x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<8x32x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %10 = stablehlo.multiply %0, %9 : tensor<8x32x32xf32>
    %11 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<8x32x32xf32>
    %14 = sdy.sharding_constraint %13 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %15 = stablehlo.dot_general %14, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x4x8xf32>) -> tensor<8x32x4x8xf32>
    %16 = sdy.sharding_constraint %15 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %17 = stablehlo.dot_general %14, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x4x8xf32>) -> tensor<8x32x4x8xf32>
    %18 = sdy.sharding_constraint %17 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %19 = stablehlo.dot_general %14, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x4x8xf32>) -> tensor<8x32x4x8xf32>
    %20 = sdy.sharding_constraint %19 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %21 = stablehlo.dot_general %16, %18, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>) -> tensor<8x4x32x32xf32>
    %cst_2 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %23 = stablehlo.divide %21, %22 : tensor<8x4x32x32xf32>
    %24 = call @_where_4(%23, %arg0, %arg1) : (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %27 = stablehlo.maximum %26, %25 : tensor<8x4x32xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %30 = stablehlo.subtract %24, %29 : tensor<8x4x32x32xf32>
    %31 = stablehlo.exponential %30 : tensor<8x4x32x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%31 init: %cst_5) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %35 = stablehlo.divide %31, %34 : tensor<8x4x32x32xf32>
    %36 = stablehlo.dot_general %20, %35, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x8x32xf32>
    %37 = stablehlo.transpose %36, dims = [0, 3, 1, 2] : (tensor<8x4x8x32xf32>) -> tensor<8x32x4x8xf32>
    %38 = sdy.sharding_constraint %37 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %39 = stablehlo.dot_general %38, %arg4, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<4x8x32xf32>) -> tensor<8x32x32xf32>
    %40 = sdy.sharding_constraint %39 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %41 = stablehlo.add %0, %40 : tensor<8x32x32xf32>
    %42 = chlo.square %41 : tensor<8x32x32xf32> -> tensor<8x32x32xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %cst_7 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %46 = stablehlo.divide %44, %45 : tensor<8x32x1xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %48 = stablehlo.add %46, %47 : tensor<8x32x1xf32>
    %49 = stablehlo.rsqrt %48 : tensor<8x32x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %51 = stablehlo.multiply %41, %50 : tensor<8x32x32xf32>
    %52 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %54 = stablehlo.multiply %51, %53 : tensor<8x32x32xf32>
    %55 = sdy.sharding_constraint %54 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %56 = stablehlo.dot_general %55, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x64xf32>) -> tensor<8x32x64xf32>
    %57 = stablehlo.dot_general %55, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<32x64xf32>) -> tensor<8x32x64xf32>
    %58 = call @silu(%56) : (tensor<8x32x64xf32>) -> tensor<8x32x64xf32>
    %59 = stablehlo.multiply %58, %57 : tensor<8x32x64xf32>
    %60 = sdy.sharding_constraint %59 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x64xf32>
    %61 = stablehlo.dot_general %60, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32x64xf32>, tensor<64x32xf32>) -> tensor<8x32x32xf32>
    %62 = sdy.sharding_constraint %61 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %63 = stablehlo.add %41, %62 : tensor<8x32x32xf32>
    return %63, %15, %17, %19, %39, %56, %57, %arg2 : tensor<8x32x32xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>, tensor<8x32x32xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x32xf32>
  }
  func.func private @_where_4(%arg0: tensor<8x4x32x32xf32>, %arg1: tensor<8x4x32x32xi1>, %arg2: tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32> {
    %0 = stablehlo.select %arg1, %arg0, %arg2 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %0 : tensor<8x4x32x32xf32>
  }
  func.func private @silu(%arg0: tensor<8x32x64xf32>) -> tensor<8x32x64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8x32x64xf32>
    %1 = stablehlo.exponential %0 : tensor<8x32x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<8x32x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<8x32x64xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<8x32x64xf32>
    return %6 : tensor<8x32x64xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x8x32x4x8xf32>, %arg1: tensor<8x32x4x8xf32>, %arg2: tensor<i32>) -> tensor<4x8x32x4x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<8x32x4x8xf32>) -> tensor<1x8x32x4x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x8x32x4x8xf32>, tensor<1x8x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32x4x8xf32>
    return %1 : tensor<4x8x32x4x8xf32>
  }
  func.func private @dynamic_update_index_in_dim_5(%arg0: tensor<4x8x32x32xf32>, %arg1: tensor<8x32x32xf32>, %arg2: tensor<i32>) -> tensor<4x8x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<8x32x32xf32>) -> tensor<1x8x32x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x8x32x32xf32>, tensor<1x8x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32x32xf32>
    return %1 : tensor<4x8x32x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<4x8x32x64xf32>, %arg1: tensor<8x32x64xf32>, %arg2: tensor<i32>) -> tensor<4x8x32x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<8x32x64xf32>) -> tensor<1x8x32x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x8x32x64xf32>, tensor<1x8x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32x64xf32>
    return %1 : tensor<4x8x32x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<4x8x32x32xf32>, %arg1: tensor<8x32x32xf32>, %arg2: tensor<i32>) -> tensor<4x8x32x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<8x32x32xf32>) -> tensor<1x8x32x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x8x32x32xf32>, tensor<1x8x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32x32xf32>
    return %1 : tensor<4x8x32x32xf32>
  }
  func.func private @_one_hot(%arg0: tensor<8x32xi32>) -> tensor<8x32x128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<8x32xi32>) -> tensor<8x32x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x128xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<8x32x1xi32>) -> tensor<8x32x128xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x128xi32>) -> tensor<8x32x128xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x32x128xi32>, tensor<8x32x128xi32>) -> tensor<8x32x128xi1>
    %5 = stablehlo.convert %4 : (tensor<8x32x128xi1>) -> tensor<8x32x128xf32>
    return %5 : tensor<8x32x128xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x32x128xf32>) -> (tensor<8x32x128xf32>, tensor<8x32x128xf32>, tensor<8x32x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x32x128xf32>
    %6 = stablehlo.exponential %5 : tensor<8x32x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %9 = stablehlo.log %8 : tensor<8x32x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x128xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x32x128xf32>
    return %11, %6, %8 : tensor<8x32x128xf32>, tensor<8x32x128xf32>, tensor<8x32x1xf32>
  }
  func.func private @log_softmax_8(%arg0: tensor<8x32x128xf32>, %arg1: tensor<8x32x1xf32>, %arg2: tensor<8x32x128xf32>) -> tensor<8x32x128xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x32x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x32x128xf32>, tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.reshape %1 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x32x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x128xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x32x128xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x32x128xf32>
    return %7 : tensor<8x32x128xf32>
  }
  func.func private @dynamic_index_in_dim_9(%arg0: tensor<4x8x32x4x8xf32>, %arg1: tensor<i32>) -> tensor<8x32x4x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 8, 32, 4, 8] : (tensor<4x8x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32x4x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32x4x8xf32>) -> tensor<8x32x4x8xf32>
    return %1 : tensor<8x32x4x8xf32>
  }
  func.func private @dynamic_index_in_dim_10(%arg0: tensor<4x8x32x32xf32>, %arg1: tensor<i32>) -> tensor<8x32x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 8, 32, 32] : (tensor<4x8x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32x32xf32>) -> tensor<8x32x32xf32>
    return %1 : tensor<8x32x32xf32>
  }
  func.func private @dynamic_index_in_dim_11(%arg0: tensor<4x8x32x64xf32>, %arg1: tensor<i32>) -> tensor<8x32x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 8, 32, 64] : (tensor<4x8x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32x64xf32>) -> tensor<8x32x64xf32>
    return %1 : tensor<8x32x64xf32>
  }
  func.func private @dynamic_index_in_dim_12(%arg0: tensor<4x8x32x32xf32>, %arg1: tensor<i32>) -> tensor<8x32x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 8, 32, 32] : (tensor<4x8x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32x32xf32>) -> tensor<8x32x32xf32>
    return %1 : tensor<8x32x32xf32>
  }
  func.func private @closed_call_13(%arg0: tensor<8x32x32xf32>, %arg1: tensor<8x32x4x8xf32>, %arg2: tensor<8x32x4x8xf32>, %arg3: tensor<8x32x4x8xf32>, %arg4: tensor<8x32x32xf32>, %arg5: tensor<8x32x64xf32>, %arg6: tensor<8x32x64xf32>, %arg7: tensor<32x4x8xf32>, %arg8: tensor<4x8x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32x4x8xf32>, %arg12: tensor<32x4x8xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<32x64xf32>, %arg15: tensor<64x32xf32>, %arg16: tensor<8x32x32xf32>) -> (tensor<8x32x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) {
    %0 = sdy.sharding_constraint %arg16 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %1 = chlo.square %0 : tensor<8x32x32xf32> -> tensor<8x32x32xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32x32xf32>
    %3 = stablehlo.multiply %2, %0 : tensor<8x32x32xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %7 = stablehlo.divide %5, %6 : tensor<8x32x1xf32>
    %cst_2 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %9 = stablehlo.add %7, %8 : tensor<8x32x1xf32>
    %10 = stablehlo.rsqrt %9 : tensor<8x32x1xf32>
    %11 = stablehlo.divide %10, %9 : tensor<8x32x1xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8x32x1xf32>
    %14 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %15 = stablehlo.multiply %0, %14 : tensor<8x32x32xf32>
    %16 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<8x32x32xf32>
    %19 = sdy.sharding_constraint %18 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %20 = sdy.sharding_constraint %arg1 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %21 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %22 = sdy.sharding_constraint %arg3 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %23 = stablehlo.dot_general %20, %21, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x32x4x8xf32>) -> tensor<8x4x32x32xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %25 = stablehlo.divide %23, %24 : tensor<8x4x32x32xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %26 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %27 = call @tril_14(%26) : (tensor<32x32xi1>) -> tensor<32x32xi1>
    %cst_5 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %28:2 = call @_where_15(%27, %25, %cst_5) : (tensor<32x32xi1>, tensor<8x4x32x32xf32>, tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.reduce(%28#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %31 = stablehlo.maximum %30, %29 : tensor<8x4x32xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %34 = stablehlo.subtract %28#0, %33 : tensor<8x4x32x32xf32>
    %35 = stablehlo.exponential %34 : tensor<8x4x32x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.reduce(%35 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %39 = stablehlo.divide %35, %38 : tensor<8x4x32x32xf32>
    %40 = stablehlo.multiply %37, %37 : tensor<8x4x32x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x4x32x1xf32>
    %42 = stablehlo.divide %41, %40 : tensor<8x4x32x1xf32>
    %43 = stablehlo.dot_general %22, %39, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x8x32xf32>
    %44 = stablehlo.transpose %43, dims = [0, 3, 1, 2] : (tensor<8x4x8x32xf32>) -> tensor<8x32x4x8xf32>
    %45 = sdy.sharding_constraint %44 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %46 = sdy.sharding_constraint %arg4 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %47 = stablehlo.add %0, %46 : tensor<8x32x32xf32>
    %48 = chlo.square %47 : tensor<8x32x32xf32> -> tensor<8x32x32xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32x32xf32>
    %50 = stablehlo.multiply %49, %47 : tensor<8x32x32xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%48 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %cst_12 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %54 = stablehlo.divide %52, %53 : tensor<8x32x1xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %56 = stablehlo.add %54, %55 : tensor<8x32x1xf32>
    %57 = stablehlo.rsqrt %56 : tensor<8x32x1xf32>
    %58 = stablehlo.divide %57, %56 : tensor<8x32x1xf32>
    %cst_14 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %60 = stablehlo.multiply %59, %58 : tensor<8x32x1xf32>
    %61 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %62 = stablehlo.multiply %47, %61 : tensor<8x32x32xf32>
    %63 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %65 = stablehlo.multiply %62, %64 : tensor<8x32x32xf32>
    %66 = sdy.sharding_constraint %65 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %67:3 = call @silu_16(%arg5) : (tensor<8x32x64xf32>) -> (tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>)
    %68 = stablehlo.multiply %67#0, %arg6 : tensor<8x32x64xf32>
    %69 = sdy.sharding_constraint %68 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x64xf32>
    %70 = sdy.sharding_constraint %arg0 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %71 = stablehlo.dot_general %70, %69, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<8x32x64xf32>) -> tensor<32x64xf32>
    %72 = stablehlo.transpose %71, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %73 = stablehlo.dot_general %70, %arg15, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<64x32xf32>) -> tensor<8x32x64xf32>
    %74 = sdy.sharding_constraint %73 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x64xf32>
    %75 = stablehlo.multiply %67#0, %74 : tensor<8x32x64xf32>
    %76 = stablehlo.multiply %74, %arg6 : tensor<8x32x64xf32>
    %77 = call @silu_17(%67#1, %arg5, %67#2, %76) : (tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) -> tensor<8x32x64xf32>
    %78 = stablehlo.dot_general %75, %66, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x64xf32>, tensor<8x32x32xf32>) -> tensor<64x32xf32>
    %79 = stablehlo.transpose %78, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %80 = stablehlo.dot_general %75, %arg14, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x64xf32>, tensor<32x64xf32>) -> tensor<8x32x32xf32>
    %81 = stablehlo.dot_general %77, %66, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x64xf32>, tensor<8x32x32xf32>) -> tensor<64x32xf32>
    %82 = stablehlo.transpose %81, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %83 = stablehlo.dot_general %77, %arg13, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x64xf32>, tensor<32x64xf32>) -> tensor<8x32x32xf32>
    %84 = stablehlo.add %80, %83 : tensor<8x32x32xf32>
    %85 = sdy.sharding_constraint %84 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %86 = stablehlo.multiply %62, %85 : tensor<8x32x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.reduce(%86 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %88 = stablehlo.reshape %87 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %89 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %90 = stablehlo.multiply %85, %89 : tensor<8x32x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.reduce(%88 init: %cst_16) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %92 = stablehlo.multiply %47, %90 : tensor<8x32x32xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.reduce(%92 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %94 = stablehlo.reshape %93 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %95 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %96 = stablehlo.multiply %90, %95 : tensor<8x32x32xf32>
    %97 = stablehlo.add %arg0, %96 : tensor<8x32x32xf32>
    %98 = stablehlo.multiply %94, %60 : tensor<8x32x1xf32>
    %cst_18 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %100 = stablehlo.divide %98, %99 : tensor<8x32x1xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %101 = stablehlo.reduce(%100 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x32xf32>
    %103 = stablehlo.multiply %102, %50 : tensor<8x32x32xf32>
    %104 = stablehlo.add %97, %103 : tensor<8x32x32xf32>
    %105 = sdy.sharding_constraint %104 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %106 = stablehlo.dot_general %105, %45, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<8x32x4x8xf32>) -> tensor<32x4x8xf32>
    %107 = stablehlo.transpose %106, dims = [1, 2, 0] : (tensor<32x4x8xf32>) -> tensor<4x8x32xf32>
    %108 = stablehlo.dot_general %105, %arg8, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x32x32xf32>, tensor<4x8x32xf32>) -> tensor<8x32x4x8xf32>
    %109 = sdy.sharding_constraint %108 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %110 = stablehlo.transpose %109, dims = [0, 2, 3, 1] : (tensor<8x32x4x8xf32>) -> tensor<8x4x8x32xf32>
    %111 = stablehlo.dot_general %110, %22, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x32xf32>, tensor<8x32x4x8xf32>) -> tensor<8x4x32x32xf32>
    %112 = stablehlo.dot_general %110, %39, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8x32xf32>, tensor<8x4x32x32xf32>) -> tensor<8x4x8x32xf32>
    %113 = stablehlo.transpose %112, dims = [0, 3, 1, 2] : (tensor<8x4x8x32xf32>) -> tensor<8x32x4x8xf32>
    %114 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %115 = stablehlo.multiply %111, %114 : tensor<8x4x32x32xf32>
    %116 = stablehlo.multiply %115, %35 : tensor<8x4x32x32xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.reduce(%116 init: %cst_20) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x32xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %118 = stablehlo.reshape %117 : (tensor<8x4x32xf32>) -> tensor<8x4x32x1xf32>
    %119 = stablehlo.negate %118 : tensor<8x4x32x1xf32>
    %120 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<8x4x32x1xf32>) -> tensor<8x4x32x32xf32>
    %121 = stablehlo.divide %111, %120 : tensor<8x4x32x32xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %122 = stablehlo.reduce(%119 init: %cst_21) applies stablehlo.add across dimensions = [3] : (tensor<8x4x32x1xf32>, tensor<f32>) -> tensor<8x4x32xf32>
    %123 = stablehlo.broadcast_in_dim %122, dims = [0, 1, 2] : (tensor<8x4x32xf32>) -> tensor<8x4x32x32xf32>
    %124 = stablehlo.add %121, %123 : tensor<8x4x32x32xf32>
    %125 = stablehlo.multiply %124, %35 : tensor<8x4x32x32xf32>
    %126 = call @_where_18(%28#1, %125) : (tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32>
    %cst_22 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %128 = stablehlo.divide %126, %127 : tensor<8x4x32x32xf32>
    %129 = stablehlo.dot_general %128, %20, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x8xf32>) -> tensor<8x4x32x8xf32>
    %130 = stablehlo.transpose %129, dims = [0, 2, 1, 3] : (tensor<8x4x32x8xf32>) -> tensor<8x32x4x8xf32>
    %131 = stablehlo.dot_general %128, %21, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x32xf32>, tensor<8x32x4x8xf32>) -> tensor<8x4x32x8xf32>
    %132 = stablehlo.transpose %131, dims = [0, 2, 1, 3] : (tensor<8x4x32x8xf32>) -> tensor<8x32x4x8xf32>
    %133 = sdy.sharding_constraint %113 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %134 = stablehlo.dot_general %133, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x32x32xf32>) -> tensor<4x8x32xf32>
    %135 = stablehlo.transpose %134, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %136 = stablehlo.dot_general %133, %arg12, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<8x32x32xf32>
    %137 = sdy.sharding_constraint %130 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %138 = stablehlo.dot_general %137, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x32x32xf32>) -> tensor<4x8x32xf32>
    %139 = stablehlo.transpose %138, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %140 = stablehlo.dot_general %137, %arg7, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<8x32x32xf32>
    %141 = stablehlo.add %136, %140 : tensor<8x32x32xf32>
    %142 = sdy.sharding_constraint %132 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<8x32x4x8xf32>
    %143 = stablehlo.dot_general %142, %19, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<8x32x32xf32>) -> tensor<4x8x32xf32>
    %144 = stablehlo.transpose %143, dims = [2, 0, 1] : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    %145 = stablehlo.dot_general %142, %arg11, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<8x32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<8x32x32xf32>
    %146 = stablehlo.add %141, %145 : tensor<8x32x32xf32>
    %147 = sdy.sharding_constraint %146 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    %148 = stablehlo.multiply %15, %147 : tensor<8x32x32xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %149 = stablehlo.reduce(%148 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %150 = stablehlo.reshape %149 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %151 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<8x32x32xf32>
    %152 = stablehlo.multiply %147, %151 : tensor<8x32x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %153 = stablehlo.reduce(%150 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %154 = stablehlo.multiply %0, %152 : tensor<8x32x32xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %155 = stablehlo.reduce(%154 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<8x32x32xf32>, tensor<f32>) -> tensor<8x32xf32>
    %156 = stablehlo.reshape %155 : (tensor<8x32xf32>) -> tensor<8x32x1xf32>
    %157 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<8x32x1xf32>) -> tensor<8x32x32xf32>
    %158 = stablehlo.multiply %152, %157 : tensor<8x32x32xf32>
    %159 = stablehlo.add %104, %158 : tensor<8x32x32xf32>
    %160 = stablehlo.multiply %156, %13 : tensor<8x32x1xf32>
    %cst_26 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8x32x1xf32>
    %162 = stablehlo.divide %160, %161 : tensor<8x32x1xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %163 = stablehlo.reduce(%162 init: %cst_27) applies stablehlo.add across dimensions = [2] : (tensor<8x32x1xf32>, tensor<f32>) -> tensor<8x32xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<8x32xf32>) -> tensor<8x32x32xf32>
    %165 = stablehlo.multiply %164, %3 : tensor<8x32x32xf32>
    %166 = stablehlo.add %159, %165 : tensor<8x32x32xf32>
    %167 = sdy.sharding_constraint %166 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<8x32x32xf32>
    return %167, %139, %107, %153, %91, %144, %135, %82, %79, %72 : tensor<8x32x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>
  }
  func.func private @tril_14(%arg0: tensor<32x32xi1>) -> tensor<32x32xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<32x32xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<32x32xi32>
    %2 = stablehlo.add %0, %1 : tensor<32x32xi32>
    %3 = stablehlo.iota dim = 1 : tensor<32x32xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<32x32xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<32x32xi1>, tensor<32x32xi1>
    return %6 : tensor<32x32xi1>
  }
  func.func private @_where_15(%arg0: tensor<32x32xi1>, %arg1: tensor<8x4x32x32xf32>, %arg2: tensor<f32>) -> (tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<8x4x32x32xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %2, %0 : tensor<8x4x32x32xf32>, tensor<8x4x32x32xi1>
  }
  func.func private @silu_16(%arg0: tensor<8x32x64xf32>) -> (tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<8x32x64xf32>
    %1 = stablehlo.exponential %0 : tensor<8x32x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<8x32x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<8x32x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32x64xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<8x32x64xf32>
    %8 = stablehlo.multiply %5, %7 : tensor<8x32x64xf32>
    %9 = stablehlo.multiply %arg0, %5 : tensor<8x32x64xf32>
    return %9, %5, %8 : tensor<8x32x64xf32>, tensor<8x32x64xf32>, tensor<8x32x64xf32>
  }
  func.func private @silu_17(%arg0: tensor<8x32x64xf32>, %arg1: tensor<8x32x64xf32>, %arg2: tensor<8x32x64xf32>, %arg3: tensor<8x32x64xf32>) -> tensor<8x32x64xf32> {
    %0 = stablehlo.multiply %arg1, %arg3 : tensor<8x32x64xf32>
    %1 = stablehlo.multiply %arg3, %arg0 : tensor<8x32x64xf32>
    %2 = stablehlo.multiply %0, %arg2 : tensor<8x32x64xf32>
    %3 = stablehlo.add %1, %2 : tensor<8x32x64xf32>
    return %3 : tensor<8x32x64xf32>
  }
  func.func private @_where_18(%arg0: tensor<8x4x32x32xi1>, %arg1: tensor<8x4x32x32xf32>) -> tensor<8x4x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4x32x32xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<8x4x32x32xi1>, tensor<8x4x32x32xf32>
    return %1 : tensor<8x4x32x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_19(%arg0: tensor<4x32x4x8xf32>, %arg1: tensor<32x4x8xf32>, %arg2: tensor<i32>) -> tensor<4x32x4x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<32x4x8xf32>) -> tensor<1x32x4x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x32x4x8xf32>, tensor<1x32x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x4x8xf32>
    return %1 : tensor<4x32x4x8xf32>
  }
  func.func private @dynamic_update_index_in_dim_20(%arg0: tensor<4x4x8x32xf32>, %arg1: tensor<4x8x32xf32>, %arg2: tensor<i32>) -> tensor<4x4x8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<4x8x32xf32>) -> tensor<1x4x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x4x8x32xf32>, tensor<1x4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4x8x32xf32>
    return %1 : tensor<4x4x8x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_21(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<i32>) -> tensor<4x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<4x32xf32>
    return %1 : tensor<4x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_22(%arg0: tensor<4x32x64xf32>, %arg1: tensor<32x64xf32>, %arg2: tensor<i32>) -> tensor<4x32x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x32x64xf32>, tensor<1x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x64xf32>
    return %1 : tensor<4x32x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_23(%arg0: tensor<4x64x32xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<i32>) -> tensor<4x64x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<64x32xf32>) -> tensor<1x64x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x64x32xf32>, tensor<1x64x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x32xf32>
    return %1 : tensor<4x64x32xf32>
  }
  func.func private @_where_24(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
