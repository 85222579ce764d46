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
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x1x1x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x64x1024x16x64xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x64x1024x16x64xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x64x16x1024x1024xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x64x16x1024x1xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x64x16x1024x1xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x64x16x1024x1024xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x64x1024x16x64xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x64x1024x16x64xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x1x1x1024xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x64x1024x1024xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x64x1024x4096xf32>
    %c_30 = stablehlo.constant dense<0> : tensor<i32>
    %48:41 = stablehlo.while(%iterArg = %8, %iterArg_160 = %9, %iterArg_161 = %10, %iterArg_162 = %11, %iterArg_163 = %12, %iterArg_164 = %13, %iterArg_165 = %14, %iterArg_166 = %15, %iterArg_167 = %16, %iterArg_168 = %19#0, %iterArg_169 = %19#1, %iterArg_170 = %c_30, %iterArg_171 = %7, %iterArg_172 = %20, %iterArg_173 = %21, %iterArg_174 = %22, %iterArg_175 = %23, %iterArg_176 = %24, %iterArg_177 = %25, %iterArg_178 = %26, %iterArg_179 = %27, %iterArg_180 = %28, %iterArg_181 = %29, %iterArg_182 = %30, %iterArg_183 = %31, %iterArg_184 = %32, %iterArg_185 = %33, %iterArg_186 = %34, %iterArg_187 = %35, %iterArg_188 = %36, %iterArg_189 = %37, %iterArg_190 = %38, %iterArg_191 = %39, %iterArg_192 = %40, %iterArg_193 = %41, %iterArg_194 = %42, %iterArg_195 = %43, %iterArg_196 = %44, %iterArg_197 = %45, %iterArg_198 = %46, %iterArg_199 = %47) : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>
    cond {
      %c_200 = stablehlo.constant dense<4> : tensor<i32>
      %459 = stablehlo.compare LT, %iterArg_170, %c_200, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %459 : tensor<i1>
    } do {
      %459 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_170) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %460 = func.call @dynamic_index_in_dim_0(%iterArg_160, %iterArg_170) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %461 = func.call @dynamic_index_in_dim_1(%iterArg_161, %iterArg_170) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %462 = func.call @dynamic_index_in_dim_1(%iterArg_162, %iterArg_170) : (tensor<4x1024xf32>, tensor<i32>) -> tensor<1024xf32>
      %463 = func.call @dynamic_index_in_dim(%iterArg_163, %iterArg_170) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %464 = func.call @dynamic_index_in_dim(%iterArg_164, %iterArg_170) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %465 = func.call @dynamic_index_in_dim_2(%iterArg_165, %iterArg_170) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %466 = func.call @dynamic_index_in_dim_2(%iterArg_166, %iterArg_170) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %467 = func.call @dynamic_index_in_dim_3(%iterArg_167, %iterArg_170) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %468:29 = func.call @closed_call(%iterArg_168, %iterArg_169, %iterArg_171, %459, %460, %461, %462, %463, %464, %465, %466, %467) : (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>)
      %469 = func.call @dynamic_update_index_in_dim(%iterArg_172, %468#1, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %470 = func.call @dynamic_update_index_in_dim_5(%iterArg_173, %468#2, %iterArg_170) : (tensor<4x64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<i32>) -> tensor<4x64x1024x1xf32>
      %471 = func.call @dynamic_update_index_in_dim_5(%iterArg_174, %468#3, %iterArg_170) : (tensor<4x64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<i32>) -> tensor<4x64x1024x1xf32>
      %472 = func.call @dynamic_update_index_in_dim(%iterArg_175, %468#4, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %473 = func.call @dynamic_update_index_in_dim_6(%iterArg_176, %468#5, %iterArg_170) : (tensor<4x1x1x1024xf32>, tensor<1x1x1024xf32>, tensor<i32>) -> tensor<4x1x1x1024xf32>
      %474 = func.call @dynamic_update_index_in_dim(%iterArg_177, %468#6, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %475 = func.call @dynamic_update_index_in_dim(%iterArg_178, %468#7, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %476 = func.call @dynamic_update_index_in_dim_7(%iterArg_179, %468#8, %iterArg_170) : (tensor<4x64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<i32>) -> tensor<4x64x1024x16x64xf32>
      %477 = func.call @dynamic_update_index_in_dim_7(%iterArg_180, %468#9, %iterArg_170) : (tensor<4x64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<i32>) -> tensor<4x64x1024x16x64xf32>
      %478 = func.call @dynamic_update_index_in_dim_8(%iterArg_181, %468#10, %iterArg_170) : (tensor<4x64x16x1024x1024xf32>, tensor<64x16x1024x1024xf32>, tensor<i32>) -> tensor<4x64x16x1024x1024xf32>
      %479 = func.call @dynamic_update_index_in_dim_9(%iterArg_182, %468#11, %iterArg_170) : (tensor<4x64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<i32>) -> tensor<4x64x16x1024x1xf32>
      %480 = func.call @dynamic_update_index_in_dim_9(%iterArg_183, %468#12, %iterArg_170) : (tensor<4x64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<i32>) -> tensor<4x64x16x1024x1xf32>
      %481 = func.call @dynamic_update_index_in_dim_8(%iterArg_184, %468#13, %iterArg_170) : (tensor<4x64x16x1024x1024xf32>, tensor<64x16x1024x1024xf32>, tensor<i32>) -> tensor<4x64x16x1024x1024xf32>
      %482 = func.call @dynamic_update_index_in_dim_7(%iterArg_185, %468#14, %iterArg_170) : (tensor<4x64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<i32>) -> tensor<4x64x1024x16x64xf32>
      %483 = func.call @dynamic_update_index_in_dim_7(%iterArg_186, %468#15, %iterArg_170) : (tensor<4x64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<i32>) -> tensor<4x64x1024x16x64xf32>
      %484 = func.call @dynamic_update_index_in_dim(%iterArg_187, %468#16, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %485 = func.call @dynamic_update_index_in_dim_5(%iterArg_188, %468#17, %iterArg_170) : (tensor<4x64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<i32>) -> tensor<4x64x1024x1xf32>
      %486 = func.call @dynamic_update_index_in_dim_5(%iterArg_189, %468#18, %iterArg_170) : (tensor<4x64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<i32>) -> tensor<4x64x1024x1xf32>
      %487 = func.call @dynamic_update_index_in_dim(%iterArg_190, %468#19, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %488 = func.call @dynamic_update_index_in_dim_6(%iterArg_191, %468#20, %iterArg_170) : (tensor<4x1x1x1024xf32>, tensor<1x1x1024xf32>, tensor<i32>) -> tensor<4x1x1x1024xf32>
      %489 = func.call @dynamic_update_index_in_dim(%iterArg_192, %468#21, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %490 = func.call @dynamic_update_index_in_dim(%iterArg_193, %468#22, %iterArg_170) : (tensor<4x64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
      %491 = func.call @dynamic_update_index_in_dim_10(%iterArg_194, %468#23, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %492 = func.call @dynamic_update_index_in_dim_10(%iterArg_195, %468#24, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %493 = func.call @dynamic_update_index_in_dim_10(%iterArg_196, %468#25, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %494 = func.call @dynamic_update_index_in_dim_10(%iterArg_197, %468#26, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %495 = func.call @dynamic_update_index_in_dim_10(%iterArg_198, %468#27, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %496 = func.call @dynamic_update_index_in_dim_10(%iterArg_199, %468#28, %iterArg_170) : (tensor<4x64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
      %c_200 = stablehlo.constant dense<1> : tensor<i32>
      %497 = stablehlo.add %iterArg_170, %c_200 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_160, %iterArg_161, %iterArg_162, %iterArg_163, %iterArg_164, %iterArg_165, %iterArg_166, %iterArg_167, %iterArg_168, %iterArg_169, %497, %468#0, %469, %470, %471, %472, %473, %474, %475, %476, %477, %478, %479, %480, %481, %482, %483, %484, %485, %486, %487, %488, %489, %490, %491, %492, %493, %494, %495, %496 : tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>
    }
    %49 = chlo.square %48#12 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst_31 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<64x1024x1024xf32>
    %51 = stablehlo.multiply %50, %48#12 : tensor<64x1024x1024xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%49 init: %cst_32) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_33 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<64x1024x1xf32>
    %cst_34 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %57 = stablehlo.add %55, %56 : tensor<64x1024x1xf32>
    %58 = stablehlo.rsqrt %57 : tensor<64x1024x1xf32>
    %59 = stablehlo.divide %58, %57 : tensor<64x1024x1xf32>
    %cst_35 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %61 = stablehlo.multiply %60, %59 : tensor<64x1024x1xf32>
    %62 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %63 = stablehlo.multiply %48#12, %62 : tensor<64x1024x1024xf32>
    %64 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %66 = stablehlo.multiply %63, %65 : tensor<64x1024x1024xf32>
    %67 = stablehlo.dot_general %66, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x32768xf32>) -> tensor<64x1024x32768xf32>
    %68 = sdy.sharding_constraint %67 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x32768xf32>
    %69 = call @_one_hot(%arg38) : (tensor<64x1024xi32>) -> tensor<64x1024x32768xf32>
    %70:3 = call @log_softmax(%68) : (tensor<64x1024x32768xf32>) -> (tensor<64x1024x32768xf32>, tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>)
    %71 = stablehlo.multiply %69, %70#0 : tensor<64x1024x32768xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_36) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x32768xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.reduce(%72 init: %cst_37) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024xf32>, tensor<f32>) -> tensor<f32>
    %cst_38 = stablehlo.constant dense<6.553600e+04> : tensor<f32>
    %74 = stablehlo.divide %73, %cst_38 : tensor<f32>
    %75 = stablehlo.negate %74 : tensor<f32>
    %cst_39 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %76 = stablehlo.negate %cst_39 : tensor<f32>
    %cst_40 = stablehlo.constant dense<6.553600e+04> : tensor<f32>
    %77 = stablehlo.divide %76, %cst_40 : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x32768xf32>
    %80 = stablehlo.multiply %69, %79 : tensor<64x1024x32768xf32>
    %81 = call @log_softmax_11(%70#1, %70#2, %80) : (tensor<64x1024x32768xf32>, tensor<64x1024x1xf32>, tensor<64x1024x32768xf32>) -> tensor<64x1024x32768xf32>
    %82 = sdy.sharding_constraint %81 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x32768xf32>
    %83 = stablehlo.dot_general %82, %66, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x32768xf32>, tensor<64x1024x1024xf32>) -> tensor<32768x1024xf32>
    %84 = stablehlo.transpose %83, dims = [1, 0] : (tensor<32768x1024xf32>) -> tensor<1024x32768xf32>
    %85 = stablehlo.dot_general %82, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x32768xf32>, tensor<1024x32768xf32>) -> tensor<64x1024x1024xf32>
    %86 = stablehlo.multiply %63, %85 : tensor<64x1024x1024xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.reduce(%86 init: %cst_41) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %88 = stablehlo.reshape %87 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %89 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %90 = stablehlo.multiply %85, %89 : tensor<64x1024x1024xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.reduce(%88 init: %cst_42) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %92 = stablehlo.multiply %48#12, %90 : tensor<64x1024x1024xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.reduce(%92 init: %cst_43) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %94 = stablehlo.reshape %93 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %95 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %96 = stablehlo.multiply %90, %95 : tensor<64x1024x1024xf32>
    %97 = stablehlo.multiply %94, %61 : tensor<64x1024x1xf32>
    %cst_44 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %99 = stablehlo.divide %97, %98 : tensor<64x1024x1xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.reduce(%99 init: %cst_45) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %102 = stablehlo.multiply %101, %51 : tensor<64x1024x1024xf32>
    %103 = stablehlo.add %96, %102 : tensor<64x1024x1024xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x16x64x1024xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<4x1024x16x64xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4x1024x4096xf32>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4x4096x1024xf32>
    %c_55 = stablehlo.constant dense<0> : tensor<i32>
    %113:47 = stablehlo.while(%iterArg = %48#13, %iterArg_160 = %48#14, %iterArg_161 = %48#15, %iterArg_162 = %48#16, %iterArg_163 = %48#17, %iterArg_164 = %48#18, %iterArg_165 = %12, %iterArg_166 = %48#19, %iterArg_167 = %8, %iterArg_168 = %13, %iterArg_169 = %48#20, %iterArg_170 = %48#21, %iterArg_171 = %48#22, %iterArg_172 = %48#23, %iterArg_173 = %48#24, %iterArg_174 = %48#25, %iterArg_175 = %48#26, %iterArg_176 = %9, %iterArg_177 = %48#27, %iterArg_178 = %48#28, %iterArg_179 = %48#29, %iterArg_180 = %48#30, %iterArg_181 = %48#31, %iterArg_182 = %48#32, %iterArg_183 = %48#33, %iterArg_184 = %14, %iterArg_185 = %48#34, %iterArg_186 = %15, %iterArg_187 = %48#35, %iterArg_188 = %48#36, %iterArg_189 = %48#37, %iterArg_190 = %48#38, %iterArg_191 = %48#39, %iterArg_192 = %16, %iterArg_193 = %48#40, %iterArg_194 = %19#0, %iterArg_195 = %c_55, %iterArg_196 = %103, %iterArg_197 = %104, %iterArg_198 = %105, %iterArg_199 = %106, %iterArg_200 = %107, %iterArg_201 = %108, %iterArg_202 = %109, %iterArg_203 = %110, %iterArg_204 = %111, %iterArg_205 = %112) : tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x4096xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x64x1024x4096xf32>, tensor<64x16x1024x1024xi1>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    cond {
      %c_206 = stablehlo.constant dense<4> : tensor<i32>
      %459 = stablehlo.compare LT, %iterArg_195, %c_206, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %459 : tensor<i1>
    } do {
      %c_206 = stablehlo.constant dense<4> : tensor<i32>
      %459 = stablehlo.subtract %c_206, %iterArg_195 : tensor<i32>
      %c_207 = stablehlo.constant dense<1> : tensor<i32>
      %460 = stablehlo.subtract %459, %c_207 : tensor<i32>
      %461 = func.call @dynamic_index_in_dim_12(%iterArg, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %462 = func.call @dynamic_index_in_dim_13(%iterArg_160, %460) : (tensor<4x64x1024x1xf32>, tensor<i32>) -> tensor<64x1024x1xf32>
      %463 = func.call @dynamic_index_in_dim_13(%iterArg_161, %460) : (tensor<4x64x1024x1xf32>, tensor<i32>) -> tensor<64x1024x1xf32>
      %464 = func.call @dynamic_index_in_dim_12(%iterArg_162, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %465 = func.call @dynamic_index_in_dim_14(%iterArg_163, %460) : (tensor<4x1x1x1024xf32>, tensor<i32>) -> tensor<1x1x1024xf32>
      %466 = func.call @dynamic_index_in_dim_12(%iterArg_164, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %467 = func.call @dynamic_index_in_dim(%iterArg_165, %460) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %468 = func.call @dynamic_index_in_dim_12(%iterArg_166, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %469 = func.call @dynamic_index_in_dim(%iterArg_167, %460) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %470 = func.call @dynamic_index_in_dim(%iterArg_168, %460) : (tensor<4x1024x16x64xf32>, tensor<i32>) -> tensor<1024x16x64xf32>
      %471 = func.call @dynamic_index_in_dim_15(%iterArg_169, %460) : (tensor<4x64x1024x16x64xf32>, tensor<i32>) -> tensor<64x1024x16x64xf32>
      %472 = func.call @dynamic_index_in_dim_15(%iterArg_170, %460) : (tensor<4x64x1024x16x64xf32>, tensor<i32>) -> tensor<64x1024x16x64xf32>
      %473 = func.call @dynamic_index_in_dim_16(%iterArg_171, %460) : (tensor<4x64x16x1024x1024xf32>, tensor<i32>) -> tensor<64x16x1024x1024xf32>
      %474 = func.call @dynamic_index_in_dim_17(%iterArg_172, %460) : (tensor<4x64x16x1024x1xf32>, tensor<i32>) -> tensor<64x16x1024x1xf32>
      %475 = func.call @dynamic_index_in_dim_17(%iterArg_173, %460) : (tensor<4x64x16x1024x1xf32>, tensor<i32>) -> tensor<64x16x1024x1xf32>
      %476 = func.call @dynamic_index_in_dim_16(%iterArg_174, %460) : (tensor<4x64x16x1024x1024xf32>, tensor<i32>) -> tensor<64x16x1024x1024xf32>
      %477 = func.call @dynamic_index_in_dim_15(%iterArg_175, %460) : (tensor<4x64x1024x16x64xf32>, tensor<i32>) -> tensor<64x1024x16x64xf32>
      %478 = func.call @dynamic_index_in_dim_0(%iterArg_176, %460) : (tensor<4x16x64x1024xf32>, tensor<i32>) -> tensor<16x64x1024xf32>
      %479 = func.call @dynamic_index_in_dim_15(%iterArg_177, %460) : (tensor<4x64x1024x16x64xf32>, tensor<i32>) -> tensor<64x1024x16x64xf32>
      %480 = func.call @dynamic_index_in_dim_12(%iterArg_178, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %481 = func.call @dynamic_index_in_dim_13(%iterArg_179, %460) : (tensor<4x64x1024x1xf32>, tensor<i32>) -> tensor<64x1024x1xf32>
      %482 = func.call @dynamic_index_in_dim_13(%iterArg_180, %460) : (tensor<4x64x1024x1xf32>, tensor<i32>) -> tensor<64x1024x1xf32>
      %483 = func.call @dynamic_index_in_dim_12(%iterArg_181, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %484 = func.call @dynamic_index_in_dim_14(%iterArg_182, %460) : (tensor<4x1x1x1024xf32>, tensor<i32>) -> tensor<1x1x1024xf32>
      %485 = func.call @dynamic_index_in_dim_12(%iterArg_183, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %486 = func.call @dynamic_index_in_dim_2(%iterArg_184, %460) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %487 = func.call @dynamic_index_in_dim_12(%iterArg_185, %460) : (tensor<4x64x1024x1024xf32>, tensor<i32>) -> tensor<64x1024x1024xf32>
      %488 = func.call @dynamic_index_in_dim_2(%iterArg_186, %460) : (tensor<4x1024x4096xf32>, tensor<i32>) -> tensor<1024x4096xf32>
      %489 = func.call @dynamic_index_in_dim_18(%iterArg_187, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %490 = func.call @dynamic_index_in_dim_18(%iterArg_188, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %491 = func.call @dynamic_index_in_dim_18(%iterArg_189, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %492 = func.call @dynamic_index_in_dim_18(%iterArg_190, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %493 = func.call @dynamic_index_in_dim_18(%iterArg_191, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %494 = func.call @dynamic_index_in_dim_3(%iterArg_192, %460) : (tensor<4x4096x1024xf32>, tensor<i32>) -> tensor<4096x1024xf32>
      %495 = func.call @dynamic_index_in_dim_18(%iterArg_193, %460) : (tensor<4x64x1024x4096xf32>, tensor<i32>) -> tensor<64x1024x4096xf32>
      %496:10 = func.call @closed_call_19(%iterArg_194, %iterArg_196, %461, %462, %463, %464, %465, %466, %467, %468, %469, %470, %471, %472, %473, %474, %475, %476, %477, %478, %479, %480, %481, %482, %483, %484, %485, %486, %487, %488, %489, %490, %491, %492, %493, %494, %495) : (tensor<64x16x1024x1024xi1>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<1024x4096xf32>, tensor<64x1024x1024xf32>, tensor<1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<4096x1024xf32>, tensor<64x1024x4096xf32>) -> (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>)
      %497 = func.call @dynamic_update_index_in_dim_22(%iterArg_197, %496#1, %460) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %498 = func.call @dynamic_update_index_in_dim_23(%iterArg_198, %496#2, %460) : (tensor<4x16x64x1024xf32>, tensor<16x64x1024xf32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
      %499 = func.call @dynamic_update_index_in_dim_24(%iterArg_199, %496#3, %460) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %500 = func.call @dynamic_update_index_in_dim_24(%iterArg_200, %496#4, %460) : (tensor<4x1024xf32>, tensor<1024xf32>, tensor<i32>) -> tensor<4x1024xf32>
      %501 = func.call @dynamic_update_index_in_dim_22(%iterArg_201, %496#5, %460) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %502 = func.call @dynamic_update_index_in_dim_22(%iterArg_202, %496#6, %460) : (tensor<4x1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
      %503 = func.call @dynamic_update_index_in_dim_25(%iterArg_203, %496#7, %460) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %504 = func.call @dynamic_update_index_in_dim_25(%iterArg_204, %496#8, %460) : (tensor<4x1024x4096xf32>, tensor<1024x4096xf32>, tensor<i32>) -> tensor<4x1024x4096xf32>
      %505 = func.call @dynamic_update_index_in_dim_26(%iterArg_205, %496#9, %460) : (tensor<4x4096x1024xf32>, tensor<4096x1024xf32>, tensor<i32>) -> tensor<4x4096x1024xf32>
      %c_208 = stablehlo.constant dense<1> : tensor<i32>
      %506 = stablehlo.add %iterArg_195, %c_208 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_160, %iterArg_161, %iterArg_162, %iterArg_163, %iterArg_164, %iterArg_165, %iterArg_166, %iterArg_167, %iterArg_168, %iterArg_169, %iterArg_170, %iterArg_171, %iterArg_172, %iterArg_173, %iterArg_174, %iterArg_175, %iterArg_176, %iterArg_177, %iterArg_178, %iterArg_179, %iterArg_180, %iterArg_181, %iterArg_182, %iterArg_183, %iterArg_184, %iterArg_185, %iterArg_186, %iterArg_187, %iterArg_188, %iterArg_189, %iterArg_190, %iterArg_191, %iterArg_192, %iterArg_193, %iterArg_194, %506, %496#0, %497, %498, %499, %500, %501, %502, %503, %504, %505 : tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1xf32>, tensor<4x64x16x1024x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x64x1024x16x64xf32>, tensor<4x64x1024x1024xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1x1x1024xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x4096xf32>, tensor<4x64x1024x1024xf32>, tensor<4x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x64x1024x4096xf32>, tensor<4x4096x1024xf32>, tensor<4x64x1024x4096xf32>, tensor<64x16x1024x1024xi1>, tensor<i32>, tensor<64x1024x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x16x64x1024xf32>, tensor<4x1024xf32>, tensor<4x1024xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x16x64xf32>, tensor<4x1024x4096xf32>, tensor<4x1024x4096xf32>, tensor<4x4096x1024xf32>
    }
    %114 = stablehlo.transpose %113#46, dims = [1, 0, 2] : (tensor<4x4096x1024xf32>) -> tensor<4096x4x1024xf32>
    %115 = stablehlo.transpose %113#45, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %116 = stablehlo.transpose %113#44, dims = [1, 0, 2] : (tensor<4x1024x4096xf32>) -> tensor<1024x4x4096xf32>
    %117 = stablehlo.transpose %113#43, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %118 = stablehlo.transpose %113#42, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %119 = stablehlo.transpose %113#41, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %120 = stablehlo.transpose %113#40, dims = [1, 0] : (tensor<4x1024xf32>) -> tensor<1024x4xf32>
    %121 = stablehlo.transpose %113#39, dims = [1, 0, 2, 3] : (tensor<4x16x64x1024xf32>) -> tensor<16x4x64x1024xf32>
    %122 = stablehlo.transpose %113#38, dims = [1, 0, 2, 3] : (tensor<4x1024x16x64xf32>) -> tensor<1024x4x16x64xf32>
    %123 = sdy.sharding_constraint %113#37 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %125 = "stablehlo.scatter"(%124, %5, %123) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %459 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %459 : tensor<f32>
    }) : (tensor<32768x1024xf32>, tensor<64x1024x1xi32>, tensor<64x1024x1024xf32>) -> tensor<32768x1024xf32>
    %cst_57 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %127 = stablehlo.multiply %126, %91 : tensor<1024xf32>
    %cst_58 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %129 = stablehlo.multiply %128, %arg13 : tensor<1024xf32>
    %130 = stablehlo.add %127, %129 : tensor<1024xf32>
    %cst_59 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %132 = stablehlo.multiply %131, %122 : tensor<1024x4x16x64xf32>
    %cst_60 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %134 = stablehlo.multiply %133, %arg14 : tensor<1024x4x16x64xf32>
    %135 = stablehlo.add %132, %134 : tensor<1024x4x16x64xf32>
    %cst_61 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %136 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %137 = stablehlo.multiply %136, %121 : tensor<16x4x64x1024xf32>
    %cst_62 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %139 = stablehlo.multiply %138, %arg15 : tensor<16x4x64x1024xf32>
    %140 = stablehlo.add %137, %139 : tensor<16x4x64x1024xf32>
    %cst_63 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %142 = stablehlo.multiply %141, %120 : tensor<1024x4xf32>
    %cst_64 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %144 = stablehlo.multiply %143, %arg16 : tensor<1024x4xf32>
    %145 = stablehlo.add %142, %144 : tensor<1024x4xf32>
    %cst_65 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %147 = stablehlo.multiply %146, %119 : tensor<1024x4xf32>
    %cst_66 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %148 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %149 = stablehlo.multiply %148, %arg17 : tensor<1024x4xf32>
    %150 = stablehlo.add %147, %149 : tensor<1024x4xf32>
    %cst_67 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %152 = stablehlo.multiply %151, %118 : tensor<1024x4x16x64xf32>
    %cst_68 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %154 = stablehlo.multiply %153, %arg18 : tensor<1024x4x16x64xf32>
    %155 = stablehlo.add %152, %154 : tensor<1024x4x16x64xf32>
    %cst_69 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %157 = stablehlo.multiply %156, %117 : tensor<1024x4x16x64xf32>
    %cst_70 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %158 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %159 = stablehlo.multiply %158, %arg19 : tensor<1024x4x16x64xf32>
    %160 = stablehlo.add %157, %159 : tensor<1024x4x16x64xf32>
    %cst_71 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %162 = stablehlo.multiply %161, %116 : tensor<1024x4x4096xf32>
    %cst_72 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %164 = stablehlo.multiply %163, %arg20 : tensor<1024x4x4096xf32>
    %165 = stablehlo.add %162, %164 : tensor<1024x4x4096xf32>
    %cst_73 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %166 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %167 = stablehlo.multiply %166, %115 : tensor<1024x4x4096xf32>
    %cst_74 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %169 = stablehlo.multiply %168, %arg21 : tensor<1024x4x4096xf32>
    %170 = stablehlo.add %167, %169 : tensor<1024x4x4096xf32>
    %cst_75 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %171 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %172 = stablehlo.multiply %171, %114 : tensor<4096x4x1024xf32>
    %cst_76 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %174 = stablehlo.multiply %173, %arg22 : tensor<4096x4x1024xf32>
    %175 = stablehlo.add %172, %174 : tensor<4096x4x1024xf32>
    %cst_77 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %176 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %177 = stablehlo.multiply %176, %84 : tensor<1024x32768xf32>
    %cst_78 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %179 = stablehlo.multiply %178, %arg23 : tensor<1024x32768xf32>
    %180 = stablehlo.add %177, %179 : tensor<1024x32768xf32>
    %cst_79 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %182 = stablehlo.multiply %181, %125 : tensor<32768x1024xf32>
    %cst_80 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %183 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %184 = stablehlo.multiply %183, %arg24 : tensor<32768x1024xf32>
    %185 = stablehlo.add %182, %184 : tensor<32768x1024xf32>
    %186 = stablehlo.multiply %91, %91 : tensor<1024xf32>
    %cst_81 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %188 = stablehlo.multiply %187, %186 : tensor<1024xf32>
    %cst_82 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %190 = stablehlo.multiply %189, %arg25 : tensor<1024xf32>
    %191 = stablehlo.add %188, %190 : tensor<1024xf32>
    %192 = stablehlo.multiply %122, %122 : tensor<1024x4x16x64xf32>
    %cst_83 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %194 = stablehlo.multiply %193, %192 : tensor<1024x4x16x64xf32>
    %cst_84 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %196 = stablehlo.multiply %195, %arg26 : tensor<1024x4x16x64xf32>
    %197 = stablehlo.add %194, %196 : tensor<1024x4x16x64xf32>
    %198 = stablehlo.multiply %121, %121 : tensor<16x4x64x1024xf32>
    %cst_85 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %200 = stablehlo.multiply %199, %198 : tensor<16x4x64x1024xf32>
    %cst_86 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %202 = stablehlo.multiply %201, %arg27 : tensor<16x4x64x1024xf32>
    %203 = stablehlo.add %200, %202 : tensor<16x4x64x1024xf32>
    %204 = stablehlo.multiply %120, %120 : tensor<1024x4xf32>
    %cst_87 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %206 = stablehlo.multiply %205, %204 : tensor<1024x4xf32>
    %cst_88 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %208 = stablehlo.multiply %207, %arg28 : tensor<1024x4xf32>
    %209 = stablehlo.add %206, %208 : tensor<1024x4xf32>
    %210 = stablehlo.multiply %119, %119 : tensor<1024x4xf32>
    %cst_89 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %211 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %212 = stablehlo.multiply %211, %210 : tensor<1024x4xf32>
    %cst_90 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %214 = stablehlo.multiply %213, %arg29 : tensor<1024x4xf32>
    %215 = stablehlo.add %212, %214 : tensor<1024x4xf32>
    %216 = stablehlo.multiply %118, %118 : tensor<1024x4x16x64xf32>
    %cst_91 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %217 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %218 = stablehlo.multiply %217, %216 : tensor<1024x4x16x64xf32>
    %cst_92 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %220 = stablehlo.multiply %219, %arg30 : tensor<1024x4x16x64xf32>
    %221 = stablehlo.add %218, %220 : tensor<1024x4x16x64xf32>
    %222 = stablehlo.multiply %117, %117 : tensor<1024x4x16x64xf32>
    %cst_93 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %224 = stablehlo.multiply %223, %222 : tensor<1024x4x16x64xf32>
    %cst_94 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %226 = stablehlo.multiply %225, %arg31 : tensor<1024x4x16x64xf32>
    %227 = stablehlo.add %224, %226 : tensor<1024x4x16x64xf32>
    %228 = stablehlo.multiply %116, %116 : tensor<1024x4x4096xf32>
    %cst_95 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %229 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %230 = stablehlo.multiply %229, %228 : tensor<1024x4x4096xf32>
    %cst_96 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %231 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %232 = stablehlo.multiply %231, %arg32 : tensor<1024x4x4096xf32>
    %233 = stablehlo.add %230, %232 : tensor<1024x4x4096xf32>
    %234 = stablehlo.multiply %115, %115 : tensor<1024x4x4096xf32>
    %cst_97 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %235 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %236 = stablehlo.multiply %235, %234 : tensor<1024x4x4096xf32>
    %cst_98 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %238 = stablehlo.multiply %237, %arg33 : tensor<1024x4x4096xf32>
    %239 = stablehlo.add %236, %238 : tensor<1024x4x4096xf32>
    %240 = stablehlo.multiply %114, %114 : tensor<4096x4x1024xf32>
    %cst_99 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %241 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %242 = stablehlo.multiply %241, %240 : tensor<4096x4x1024xf32>
    %cst_100 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %244 = stablehlo.multiply %243, %arg34 : tensor<4096x4x1024xf32>
    %245 = stablehlo.add %242, %244 : tensor<4096x4x1024xf32>
    %246 = stablehlo.multiply %84, %84 : tensor<1024x32768xf32>
    %cst_101 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %247 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %248 = stablehlo.multiply %247, %246 : tensor<1024x32768xf32>
    %cst_102 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %249 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %250 = stablehlo.multiply %249, %arg35 : tensor<1024x32768xf32>
    %251 = stablehlo.add %248, %250 : tensor<1024x32768xf32>
    %252 = stablehlo.multiply %125, %125 : tensor<32768x1024xf32>
    %cst_103 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %253 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %254 = stablehlo.multiply %253, %252 : tensor<32768x1024xf32>
    %cst_104 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %256 = stablehlo.multiply %255, %arg36 : tensor<32768x1024xf32>
    %257 = stablehlo.add %254, %256 : tensor<32768x1024xf32>
    %c_105 = stablehlo.constant dense<2147483647> : tensor<i32>
    %258 = stablehlo.compare LT, %arg12, %c_105, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_106 = stablehlo.constant dense<1> : tensor<i32>
    %259 = stablehlo.add %arg12, %c_106 : tensor<i32>
    %c_107 = stablehlo.constant dense<2147483647> : tensor<i32>
    %260 = call @_where_27(%258, %259, %c_107) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %cst_108 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %261 = stablehlo.convert %260 : (tensor<i32>) -> tensor<f32>
    %262 = stablehlo.power %cst_108, %261 : tensor<f32>
    %cst_109 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %263 = stablehlo.subtract %cst_109, %262 : tensor<f32>
    %264 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %265 = stablehlo.divide %130, %264 : tensor<1024xf32>
    %266 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %267 = stablehlo.divide %135, %266 : tensor<1024x4x16x64xf32>
    %268 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %269 = stablehlo.divide %140, %268 : tensor<16x4x64x1024xf32>
    %270 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %271 = stablehlo.divide %145, %270 : tensor<1024x4xf32>
    %272 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %273 = stablehlo.divide %150, %272 : tensor<1024x4xf32>
    %274 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %275 = stablehlo.divide %155, %274 : tensor<1024x4x16x64xf32>
    %276 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %277 = stablehlo.divide %160, %276 : tensor<1024x4x16x64xf32>
    %278 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %279 = stablehlo.divide %165, %278 : tensor<1024x4x4096xf32>
    %280 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %281 = stablehlo.divide %170, %280 : tensor<1024x4x4096xf32>
    %282 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %283 = stablehlo.divide %175, %282 : tensor<4096x4x1024xf32>
    %284 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %285 = stablehlo.divide %180, %284 : tensor<1024x32768xf32>
    %286 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %287 = stablehlo.divide %185, %286 : tensor<32768x1024xf32>
    %cst_110 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %288 = stablehlo.convert %260 : (tensor<i32>) -> tensor<f32>
    %289 = stablehlo.power %cst_110, %288 : tensor<f32>
    %cst_111 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %290 = stablehlo.subtract %cst_111, %289 : tensor<f32>
    %291 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %292 = stablehlo.divide %191, %291 : tensor<1024xf32>
    %293 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %294 = stablehlo.divide %197, %293 : tensor<1024x4x16x64xf32>
    %295 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %296 = stablehlo.divide %203, %295 : tensor<16x4x64x1024xf32>
    %297 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %298 = stablehlo.divide %209, %297 : tensor<1024x4xf32>
    %299 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %300 = stablehlo.divide %215, %299 : tensor<1024x4xf32>
    %301 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %302 = stablehlo.divide %221, %301 : tensor<1024x4x16x64xf32>
    %303 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %304 = stablehlo.divide %227, %303 : tensor<1024x4x16x64xf32>
    %305 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %306 = stablehlo.divide %233, %305 : tensor<1024x4x4096xf32>
    %307 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %308 = stablehlo.divide %239, %307 : tensor<1024x4x4096xf32>
    %309 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %310 = stablehlo.divide %245, %309 : tensor<4096x4x1024xf32>
    %311 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %312 = stablehlo.divide %251, %311 : tensor<1024x32768xf32>
    %313 = stablehlo.broadcast_in_dim %290, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %314 = stablehlo.divide %257, %313 : tensor<32768x1024xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %315 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %316 = stablehlo.add %292, %315 : tensor<1024xf32>
    %317 = stablehlo.sqrt %316 : tensor<1024xf32>
    %cst_113 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %318 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %319 = stablehlo.add %317, %318 : tensor<1024xf32>
    %320 = stablehlo.divide %265, %319 : tensor<1024xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %321 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %322 = stablehlo.add %294, %321 : tensor<1024x4x16x64xf32>
    %323 = stablehlo.sqrt %322 : tensor<1024x4x16x64xf32>
    %cst_115 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %324 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %325 = stablehlo.add %323, %324 : tensor<1024x4x16x64xf32>
    %326 = stablehlo.divide %267, %325 : tensor<1024x4x16x64xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %327 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %328 = stablehlo.add %296, %327 : tensor<16x4x64x1024xf32>
    %329 = stablehlo.sqrt %328 : tensor<16x4x64x1024xf32>
    %cst_117 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %330 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %331 = stablehlo.add %329, %330 : tensor<16x4x64x1024xf32>
    %332 = stablehlo.divide %269, %331 : tensor<16x4x64x1024xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %333 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %334 = stablehlo.add %298, %333 : tensor<1024x4xf32>
    %335 = stablehlo.sqrt %334 : tensor<1024x4xf32>
    %cst_119 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %336 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %337 = stablehlo.add %335, %336 : tensor<1024x4xf32>
    %338 = stablehlo.divide %271, %337 : tensor<1024x4xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %340 = stablehlo.add %300, %339 : tensor<1024x4xf32>
    %341 = stablehlo.sqrt %340 : tensor<1024x4xf32>
    %cst_121 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %342 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %343 = stablehlo.add %341, %342 : tensor<1024x4xf32>
    %344 = stablehlo.divide %273, %343 : tensor<1024x4xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %345 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %346 = stablehlo.add %302, %345 : tensor<1024x4x16x64xf32>
    %347 = stablehlo.sqrt %346 : tensor<1024x4x16x64xf32>
    %cst_123 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %348 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %349 = stablehlo.add %347, %348 : tensor<1024x4x16x64xf32>
    %350 = stablehlo.divide %275, %349 : tensor<1024x4x16x64xf32>
    %cst_124 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %352 = stablehlo.add %304, %351 : tensor<1024x4x16x64xf32>
    %353 = stablehlo.sqrt %352 : tensor<1024x4x16x64xf32>
    %cst_125 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %355 = stablehlo.add %353, %354 : tensor<1024x4x16x64xf32>
    %356 = stablehlo.divide %277, %355 : tensor<1024x4x16x64xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %358 = stablehlo.add %306, %357 : tensor<1024x4x4096xf32>
    %359 = stablehlo.sqrt %358 : tensor<1024x4x4096xf32>
    %cst_127 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %361 = stablehlo.add %359, %360 : tensor<1024x4x4096xf32>
    %362 = stablehlo.divide %279, %361 : tensor<1024x4x4096xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %364 = stablehlo.add %308, %363 : tensor<1024x4x4096xf32>
    %365 = stablehlo.sqrt %364 : tensor<1024x4x4096xf32>
    %cst_129 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %366 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %367 = stablehlo.add %365, %366 : tensor<1024x4x4096xf32>
    %368 = stablehlo.divide %281, %367 : tensor<1024x4x4096xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %370 = stablehlo.add %310, %369 : tensor<4096x4x1024xf32>
    %371 = stablehlo.sqrt %370 : tensor<4096x4x1024xf32>
    %cst_131 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %373 = stablehlo.add %371, %372 : tensor<4096x4x1024xf32>
    %374 = stablehlo.divide %283, %373 : tensor<4096x4x1024xf32>
    %cst_132 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %376 = stablehlo.add %312, %375 : tensor<1024x32768xf32>
    %377 = stablehlo.sqrt %376 : tensor<1024x32768xf32>
    %cst_133 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %379 = stablehlo.add %377, %378 : tensor<1024x32768xf32>
    %380 = stablehlo.divide %285, %379 : tensor<1024x32768xf32>
    %cst_134 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %382 = stablehlo.add %314, %381 : tensor<32768x1024xf32>
    %383 = stablehlo.sqrt %382 : tensor<32768x1024xf32>
    %cst_135 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %385 = stablehlo.add %383, %384 : tensor<32768x1024xf32>
    %386 = stablehlo.divide %287, %385 : tensor<32768x1024xf32>
    %cst_136 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %388 = stablehlo.multiply %387, %arg0 : tensor<1024xf32>
    %389 = stablehlo.add %320, %388 : tensor<1024xf32>
    %cst_137 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %391 = stablehlo.multiply %390, %arg1 : tensor<1024x4x16x64xf32>
    %392 = stablehlo.add %326, %391 : tensor<1024x4x16x64xf32>
    %cst_138 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %394 = stablehlo.multiply %393, %arg2 : tensor<16x4x64x1024xf32>
    %395 = stablehlo.add %332, %394 : tensor<16x4x64x1024xf32>
    %cst_139 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %396 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %397 = stablehlo.multiply %396, %arg3 : tensor<1024x4xf32>
    %398 = stablehlo.add %338, %397 : tensor<1024x4xf32>
    %cst_140 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %399 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %400 = stablehlo.multiply %399, %arg4 : tensor<1024x4xf32>
    %401 = stablehlo.add %344, %400 : tensor<1024x4xf32>
    %cst_141 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %402 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %403 = stablehlo.multiply %402, %arg5 : tensor<1024x4x16x64xf32>
    %404 = stablehlo.add %350, %403 : tensor<1024x4x16x64xf32>
    %cst_142 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %405 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %406 = stablehlo.multiply %405, %arg6 : tensor<1024x4x16x64xf32>
    %407 = stablehlo.add %356, %406 : tensor<1024x4x16x64xf32>
    %cst_143 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %408 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %409 = stablehlo.multiply %408, %arg7 : tensor<1024x4x4096xf32>
    %410 = stablehlo.add %362, %409 : tensor<1024x4x4096xf32>
    %cst_144 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %411 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %412 = stablehlo.multiply %411, %arg8 : tensor<1024x4x4096xf32>
    %413 = stablehlo.add %368, %412 : tensor<1024x4x4096xf32>
    %cst_145 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %cst_145, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %415 = stablehlo.multiply %414, %arg9 : tensor<4096x4x1024xf32>
    %416 = stablehlo.add %374, %415 : tensor<4096x4x1024xf32>
    %cst_146 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %417 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %418 = stablehlo.multiply %417, %arg10 : tensor<1024x32768xf32>
    %419 = stablehlo.add %380, %418 : tensor<1024x32768xf32>
    %cst_147 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %420 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %421 = stablehlo.multiply %420, %arg11 : tensor<32768x1024xf32>
    %422 = stablehlo.add %386, %421 : tensor<32768x1024xf32>
    %cst_148 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %423 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %424 = stablehlo.multiply %423, %389 : tensor<1024xf32>
    %cst_149 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %425 = stablehlo.broadcast_in_dim %cst_149, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %426 = stablehlo.multiply %425, %392 : tensor<1024x4x16x64xf32>
    %cst_150 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %427 = stablehlo.broadcast_in_dim %cst_150, dims = [] : (tensor<f32>) -> tensor<16x4x64x1024xf32>
    %428 = stablehlo.multiply %427, %395 : tensor<16x4x64x1024xf32>
    %cst_151 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %429 = stablehlo.broadcast_in_dim %cst_151, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %430 = stablehlo.multiply %429, %398 : tensor<1024x4xf32>
    %cst_152 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %431 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<1024x4xf32>
    %432 = stablehlo.multiply %431, %401 : tensor<1024x4xf32>
    %cst_153 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %433 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %434 = stablehlo.multiply %433, %404 : tensor<1024x4x16x64xf32>
    %cst_154 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %435 = stablehlo.broadcast_in_dim %cst_154, dims = [] : (tensor<f32>) -> tensor<1024x4x16x64xf32>
    %436 = stablehlo.multiply %435, %407 : tensor<1024x4x16x64xf32>
    %cst_155 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %437 = stablehlo.broadcast_in_dim %cst_155, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %438 = stablehlo.multiply %437, %410 : tensor<1024x4x4096xf32>
    %cst_156 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %439 = stablehlo.broadcast_in_dim %cst_156, dims = [] : (tensor<f32>) -> tensor<1024x4x4096xf32>
    %440 = stablehlo.multiply %439, %413 : tensor<1024x4x4096xf32>
    %cst_157 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %441 = stablehlo.broadcast_in_dim %cst_157, dims = [] : (tensor<f32>) -> tensor<4096x4x1024xf32>
    %442 = stablehlo.multiply %441, %416 : tensor<4096x4x1024xf32>
    %cst_158 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %443 = stablehlo.broadcast_in_dim %cst_158, dims = [] : (tensor<f32>) -> tensor<1024x32768xf32>
    %444 = stablehlo.multiply %443, %419 : tensor<1024x32768xf32>
    %cst_159 = stablehlo.constant dense<-9.99999974E-5> : tensor<f32>
    %445 = stablehlo.broadcast_in_dim %cst_159, dims = [] : (tensor<f32>) -> tensor<32768x1024xf32>
    %446 = stablehlo.multiply %445, %422 : tensor<32768x1024xf32>
    %447 = stablehlo.add %arg0, %424 : tensor<1024xf32>
    %448 = stablehlo.add %arg1, %426 : tensor<1024x4x16x64xf32>
    %449 = stablehlo.add %arg2, %428 : tensor<16x4x64x1024xf32>
    %450 = stablehlo.add %arg3, %430 : tensor<1024x4xf32>
    %451 = stablehlo.add %arg4, %432 : tensor<1024x4xf32>
    %452 = stablehlo.add %arg5, %434 : tensor<1024x4x16x64xf32>
    %453 = stablehlo.add %arg6, %436 : tensor<1024x4x16x64xf32>
    %454 = stablehlo.add %arg7, %438 : tensor<1024x4x4096xf32>
    %455 = stablehlo.add %arg8, %440 : tensor<1024x4x4096xf32>
    %456 = stablehlo.add %arg9, %442 : tensor<4096x4x1024xf32>
    %457 = stablehlo.add %arg10, %444 : tensor<1024x32768xf32>
    %458 = stablehlo.add %arg11, %446 : tensor<32768x1024xf32>
    return %447, %448, %449, %450, %451, %452, %453, %454, %455, %456, %457, %458, %260, %130, %135, %140, %145, %150, %155, %160, %165, %170, %175, %180, %185, %191, %197, %203, %209, %215, %221, %227, %233, %239, %245, %251, %257, %75 : tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<i32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<1024xf32>, tensor<1024x4x16x64xf32>, tensor<16x4x64x1024xf32>, tensor<1024x4xf32>, tensor<1024x4xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x16x64xf32>, tensor<1024x4x4096xf32>, tensor<1024x4x4096xf32>, tensor<4096x4x1024xf32>, tensor<1024x32768xf32>, tensor<32768x1024xf32>, tensor<f32>
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
  func.func private @closed_call(%arg0: tensor<64x16x1024x1024xi1>, %arg1: tensor<64x16x1024x1024xf32>, %arg2: tensor<64x1024x1024xf32>, %arg3: tensor<1024x16x64xf32>, %arg4: tensor<16x64x1024xf32>, %arg5: tensor<1024xf32>, %arg6: tensor<1024xf32>, %arg7: tensor<1024x16x64xf32>, %arg8: tensor<1024x16x64xf32>, %arg9: tensor<1024x4096xf32>, %arg10: tensor<1024x4096xf32>, %arg11: tensor<4096x1024xf32>) -> (tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>) {
    %0 = sdy.sharding_constraint %arg2 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
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
    %16 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<64x1024x1024xf32>
    %19 = sdy.sharding_constraint %18 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %20 = stablehlo.dot_general %19, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %21 = sdy.sharding_constraint %20 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %22 = stablehlo.dot_general %19, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %23 = sdy.sharding_constraint %22 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %24 = stablehlo.dot_general %19, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    %25 = sdy.sharding_constraint %24 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %26 = stablehlo.dot_general %21, %23, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %28 = stablehlo.divide %26, %27 : tensor<64x16x1024x1024xf32>
    %29 = call @_where_4(%28, %arg0, %arg1) : (tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<64x16x1024xf32>
    %32 = stablehlo.maximum %31, %30 : tensor<64x16x1024xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %35 = stablehlo.subtract %29, %34 : tensor<64x16x1024x1024xf32>
    %36 = stablehlo.exponential %35 : tensor<64x16x1024x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %40 = stablehlo.divide %36, %39 : tensor<64x16x1024x1024xf32>
    %41 = stablehlo.multiply %38, %38 : tensor<64x16x1024x1xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1xf32>
    %43 = stablehlo.divide %42, %41 : tensor<64x16x1024x1xf32>
    %44 = stablehlo.dot_general %25, %40, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x64x1024xf32>
    %45 = stablehlo.transpose %44, dims = [0, 3, 1, 2] : (tensor<64x16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %46 = sdy.sharding_constraint %45 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %47 = stablehlo.dot_general %46, %arg4, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<16x64x1024xf32>) -> tensor<64x1024x1024xf32>
    %48 = sdy.sharding_constraint %47 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %49 = stablehlo.add %0, %48 : tensor<64x1024x1024xf32>
    %50 = chlo.square %49 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<64x1024x1024xf32>
    %52 = stablehlo.multiply %51, %49 : tensor<64x1024x1024xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%50 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %cst_11 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %56 = stablehlo.divide %54, %55 : tensor<64x1024x1xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %58 = stablehlo.add %56, %57 : tensor<64x1024x1xf32>
    %59 = stablehlo.rsqrt %58 : tensor<64x1024x1xf32>
    %60 = stablehlo.divide %59, %58 : tensor<64x1024x1xf32>
    %cst_13 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %62 = stablehlo.multiply %61, %60 : tensor<64x1024x1xf32>
    %63 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %64 = stablehlo.multiply %49, %63 : tensor<64x1024x1024xf32>
    %65 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %67 = stablehlo.multiply %64, %66 : tensor<64x1024x1024xf32>
    %68 = sdy.sharding_constraint %67 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %69 = stablehlo.dot_general %68, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %70 = stablehlo.dot_general %68, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %71:3 = call @silu(%69) : (tensor<64x1024x4096xf32>) -> (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>)
    %72 = stablehlo.multiply %71#0, %70 : tensor<64x1024x4096xf32>
    %73 = sdy.sharding_constraint %72 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x4096xf32>
    %74 = stablehlo.dot_general %73, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<4096x1024xf32>) -> tensor<64x1024x1024xf32>
    %75 = sdy.sharding_constraint %74 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %76 = stablehlo.add %49, %75 : tensor<64x1024x1024xf32>
    return %76, %3, %13, %10, %0, %16, %15, %19, %23, %21, %36, %38, %43, %40, %25, %46, %52, %62, %59, %49, %65, %64, %68, %71#1, %71#2, %69, %70, %71#0, %73 : tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x16x1024x1024xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1xf32>, tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1xf32>, tensor<64x1024x1024xf32>, tensor<1x1x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x1024xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>
  }
  func.func private @_where_4(%arg0: tensor<64x16x1024x1024xf32>, %arg1: tensor<64x16x1024x1024xi1>, %arg2: tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32> {
    %0 = stablehlo.select %arg1, %arg0, %arg2 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
    return %0 : tensor<64x16x1024x1024xf32>
  }
  func.func private @silu(%arg0: tensor<64x1024x4096xf32>) -> (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>) {
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
    return %9, %8, %5 : tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x64x1024x1024xf32>, %arg1: tensor<64x1024x1024xf32>, %arg2: tensor<i32>) -> tensor<4x64x1024x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<64x1024x1024xf32>) -> tensor<1x64x1024x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x64x1024x1024xf32>, tensor<1x64x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x1024x1024xf32>
    return %1 : tensor<4x64x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_5(%arg0: tensor<4x64x1024x1xf32>, %arg1: tensor<64x1024x1xf32>, %arg2: tensor<i32>) -> tensor<4x64x1024x1xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<64x1024x1xf32>) -> tensor<1x64x1024x1xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x64x1024x1xf32>, tensor<1x64x1024x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x1024x1xf32>
    return %1 : tensor<4x64x1024x1xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<4x1x1x1024xf32>, %arg1: tensor<1x1x1024xf32>, %arg2: tensor<i32>) -> tensor<4x1x1x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1x1x1024xf32>) -> tensor<1x1x1x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x1x1x1024xf32>, tensor<1x1x1x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1x1x1024xf32>
    return %1 : tensor<4x1x1x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<4x64x1024x16x64xf32>, %arg1: tensor<64x1024x16x64xf32>, %arg2: tensor<i32>) -> tensor<4x64x1024x16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<64x1024x16x64xf32>) -> tensor<1x64x1024x16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x64x1024x16x64xf32>, tensor<1x64x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x1024x16x64xf32>
    return %1 : tensor<4x64x1024x16x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<4x64x16x1024x1024xf32>, %arg1: tensor<64x16x1024x1024xf32>, %arg2: tensor<i32>) -> tensor<4x64x16x1024x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<64x16x1024x1024xf32>) -> tensor<1x64x16x1024x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x64x16x1024x1024xf32>, tensor<1x64x16x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x16x1024x1024xf32>
    return %1 : tensor<4x64x16x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_9(%arg0: tensor<4x64x16x1024x1xf32>, %arg1: tensor<64x16x1024x1xf32>, %arg2: tensor<i32>) -> tensor<4x64x16x1024x1xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3, 4] : (tensor<64x16x1024x1xf32>) -> tensor<1x64x16x1024x1xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1, %c_2 : (tensor<4x64x16x1024x1xf32>, tensor<1x64x16x1024x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x16x1024x1xf32>
    return %1 : tensor<4x64x16x1024x1xf32>
  }
  func.func private @dynamic_update_index_in_dim_10(%arg0: tensor<4x64x1024x4096xf32>, %arg1: tensor<64x1024x4096xf32>, %arg2: tensor<i32>) -> tensor<4x64x1024x4096xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<64x1024x4096xf32>) -> tensor<1x64x1024x4096xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x64x1024x4096xf32>, tensor<1x64x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x1024x4096xf32>
    return %1 : tensor<4x64x1024x4096xf32>
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
  func.func private @log_softmax_11(%arg0: tensor<64x1024x32768xf32>, %arg1: tensor<64x1024x1xf32>, %arg2: tensor<64x1024x32768xf32>) -> tensor<64x1024x32768xf32> {
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
  func.func private @dynamic_index_in_dim_12(%arg0: tensor<4x64x1024x1024xf32>, %arg1: tensor<i32>) -> tensor<64x1024x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 64, 1024, 1024] : (tensor<4x64x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    return %1 : tensor<64x1024x1024xf32>
  }
  func.func private @dynamic_index_in_dim_13(%arg0: tensor<4x64x1024x1xf32>, %arg1: tensor<i32>) -> tensor<64x1024x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 64, 1024, 1] : (tensor<4x64x1024x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x1024x1xf32>) -> tensor<64x1024x1xf32>
    return %1 : tensor<64x1024x1xf32>
  }
  func.func private @dynamic_index_in_dim_14(%arg0: tensor<4x1x1x1024xf32>, %arg1: tensor<i32>) -> tensor<1x1x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 1, 1, 1024] : (tensor<4x1x1x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x1x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1x1x1024xf32>) -> tensor<1x1x1024xf32>
    return %1 : tensor<1x1x1024xf32>
  }
  func.func private @dynamic_index_in_dim_15(%arg0: tensor<4x64x1024x16x64xf32>, %arg1: tensor<i32>) -> tensor<64x1024x16x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 64, 1024, 16, 64] : (tensor<4x64x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024x16x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x1024x16x64xf32>) -> tensor<64x1024x16x64xf32>
    return %1 : tensor<64x1024x16x64xf32>
  }
  func.func private @dynamic_index_in_dim_16(%arg0: tensor<4x64x16x1024x1024xf32>, %arg1: tensor<i32>) -> tensor<64x16x1024x1024xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 64, 16, 1024, 1024] : (tensor<4x64x16x1024x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16x1024x1024xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32>
    return %1 : tensor<64x16x1024x1024xf32>
  }
  func.func private @dynamic_index_in_dim_17(%arg0: tensor<4x64x16x1024x1xf32>, %arg1: tensor<i32>) -> tensor<64x16x1024x1xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, %c_2, sizes = [1, 64, 16, 1024, 1] : (tensor<4x64x16x1024x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16x1024x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x16x1024x1xf32>) -> tensor<64x16x1024x1xf32>
    return %1 : tensor<64x16x1024x1xf32>
  }
  func.func private @dynamic_index_in_dim_18(%arg0: tensor<4x64x1024x4096xf32>, %arg1: tensor<i32>) -> tensor<64x1024x4096xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 64, 1024, 4096] : (tensor<4x64x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x1024x4096xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x1024x4096xf32>) -> tensor<64x1024x4096xf32>
    return %1 : tensor<64x1024x4096xf32>
  }
  func.func private @closed_call_19(%arg0: tensor<64x16x1024x1024xi1>, %arg1: tensor<64x1024x1024xf32>, %arg2: tensor<64x1024x1024xf32>, %arg3: tensor<64x1024x1xf32>, %arg4: tensor<64x1024x1xf32>, %arg5: tensor<64x1024x1024xf32>, %arg6: tensor<1x1x1024xf32>, %arg7: tensor<64x1024x1024xf32>, %arg8: tensor<1024x16x64xf32>, %arg9: tensor<64x1024x1024xf32>, %arg10: tensor<1024x16x64xf32>, %arg11: tensor<1024x16x64xf32>, %arg12: tensor<64x1024x16x64xf32>, %arg13: tensor<64x1024x16x64xf32>, %arg14: tensor<64x16x1024x1024xf32>, %arg15: tensor<64x16x1024x1xf32>, %arg16: tensor<64x16x1024x1xf32>, %arg17: tensor<64x16x1024x1024xf32>, %arg18: tensor<64x1024x16x64xf32>, %arg19: tensor<16x64x1024xf32>, %arg20: tensor<64x1024x16x64xf32>, %arg21: tensor<64x1024x1024xf32>, %arg22: tensor<64x1024x1xf32>, %arg23: tensor<64x1024x1xf32>, %arg24: tensor<64x1024x1024xf32>, %arg25: tensor<1x1x1024xf32>, %arg26: tensor<64x1024x1024xf32>, %arg27: tensor<1024x4096xf32>, %arg28: tensor<64x1024x1024xf32>, %arg29: tensor<1024x4096xf32>, %arg30: tensor<64x1024x4096xf32>, %arg31: tensor<64x1024x4096xf32>, %arg32: tensor<64x1024x4096xf32>, %arg33: tensor<64x1024x4096xf32>, %arg34: tensor<64x1024x4096xf32>, %arg35: tensor<4096x1024xf32>, %arg36: tensor<64x1024x4096xf32>) -> (tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>) {
    %0 = sdy.sharding_constraint %arg1 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %1 = stablehlo.dot_general %0, %arg36, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<64x1024x4096xf32>) -> tensor<1024x4096xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<1024x4096xf32>) -> tensor<4096x1024xf32>
    %3 = stablehlo.dot_general %0, %arg35, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<4096x1024xf32>) -> tensor<64x1024x4096xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x4096xf32>
    %5 = stablehlo.multiply %arg34, %4 : tensor<64x1024x4096xf32>
    %6 = stablehlo.multiply %4, %arg33 : tensor<64x1024x4096xf32>
    %7 = call @silu_20(%arg30, %arg31, %arg32, %6) : (tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>, tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32>
    %8 = stablehlo.dot_general %5, %arg28, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<64x1024x1024xf32>) -> tensor<4096x1024xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %10 = stablehlo.dot_general %5, %arg29, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x1024xf32>
    %11 = stablehlo.dot_general %7, %arg28, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<64x1024x1024xf32>) -> tensor<4096x1024xf32>
    %12 = stablehlo.transpose %11, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
    %13 = stablehlo.dot_general %7, %arg27, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x4096xf32>, tensor<1024x4096xf32>) -> tensor<64x1024x1024xf32>
    %14 = stablehlo.add %10, %13 : tensor<64x1024x1024xf32>
    %15 = sdy.sharding_constraint %14 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %16 = stablehlo.multiply %arg26, %15 : tensor<64x1024x1024xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %18 = stablehlo.reshape %17 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %19 = stablehlo.broadcast_in_dim %arg25, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %20 = stablehlo.multiply %15, %19 : tensor<64x1024x1024xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%18 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %22 = stablehlo.multiply %arg24, %20 : tensor<64x1024x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %24 = stablehlo.reshape %23 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %25 = stablehlo.broadcast_in_dim %arg23, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %26 = stablehlo.multiply %20, %25 : tensor<64x1024x1024xf32>
    %27 = stablehlo.add %arg1, %26 : tensor<64x1024x1024xf32>
    %28 = stablehlo.multiply %24, %arg22 : tensor<64x1024x1xf32>
    %cst_2 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %30 = stablehlo.divide %28, %29 : tensor<64x1024x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %33 = stablehlo.multiply %32, %arg21 : tensor<64x1024x1024xf32>
    %34 = stablehlo.add %27, %33 : tensor<64x1024x1024xf32>
    %35 = sdy.sharding_constraint %34 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %36 = stablehlo.dot_general %35, %arg20, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<1024x16x64xf32>
    %37 = stablehlo.transpose %36, dims = [1, 2, 0] : (tensor<1024x16x64xf32>) -> tensor<16x64x1024xf32>
    %38 = stablehlo.dot_general %35, %arg19, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x1024xf32>, tensor<16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %39 = sdy.sharding_constraint %38 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %40 = stablehlo.transpose %39, dims = [0, 2, 3, 1] : (tensor<64x1024x16x64xf32>) -> tensor<64x16x64x1024xf32>
    %41 = stablehlo.dot_general %40, %arg18, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x1024xf32>
    %42 = stablehlo.dot_general %40, %arg17, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<64x16x64x1024xf32>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x64x1024xf32>
    %43 = stablehlo.transpose %42, dims = [0, 3, 1, 2] : (tensor<64x16x64x1024xf32>) -> tensor<64x1024x16x64xf32>
    %44 = stablehlo.broadcast_in_dim %arg16, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %45 = stablehlo.multiply %41, %44 : tensor<64x16x1024x1024xf32>
    %46 = stablehlo.multiply %45, %arg14 : tensor<64x16x1024x1024xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1024xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %48 = stablehlo.reshape %47 : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1xf32>
    %49 = stablehlo.negate %48 : tensor<64x16x1024x1xf32>
    %50 = stablehlo.broadcast_in_dim %arg15, dims = [0, 1, 2, 3] : (tensor<64x16x1024x1xf32>) -> tensor<64x16x1024x1024xf32>
    %51 = stablehlo.divide %41, %50 : tensor<64x16x1024x1024xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%49 init: %cst_5) applies stablehlo.add across dimensions = [3] : (tensor<64x16x1024x1xf32>, tensor<f32>) -> tensor<64x16x1024xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<64x16x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %54 = stablehlo.add %51, %53 : tensor<64x16x1024x1024xf32>
    %55 = stablehlo.multiply %54, %arg14 : tensor<64x16x1024x1024xf32>
    %56 = call @_where_21(%arg0, %55) : (tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %58 = stablehlo.divide %56, %57 : tensor<64x16x1024x1024xf32>
    %59 = stablehlo.dot_general %58, %arg13, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x64xf32>
    %60 = stablehlo.transpose %59, dims = [0, 2, 1, 3] : (tensor<64x16x1024x64xf32>) -> tensor<64x1024x16x64xf32>
    %61 = stablehlo.dot_general %58, %arg12, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x16x1024x1024xf32>, tensor<64x1024x16x64xf32>) -> tensor<64x16x1024x64xf32>
    %62 = stablehlo.transpose %61, dims = [0, 2, 1, 3] : (tensor<64x16x1024x64xf32>) -> tensor<64x1024x16x64xf32>
    %63 = sdy.sharding_constraint %43 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %64 = stablehlo.dot_general %63, %arg9, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %65 = stablehlo.transpose %64, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %66 = stablehlo.dot_general %63, %arg11, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %67 = sdy.sharding_constraint %60 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %68 = stablehlo.dot_general %67, %arg9, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %69 = stablehlo.transpose %68, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %70 = stablehlo.dot_general %67, %arg10, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %71 = stablehlo.add %66, %70 : tensor<64x1024x1024xf32>
    %72 = sdy.sharding_constraint %62 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {}, {"tensor", "sequence"}, {}]> : tensor<64x1024x16x64xf32>
    %73 = stablehlo.dot_general %72, %arg9, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<64x1024x1024xf32>) -> tensor<16x64x1024xf32>
    %74 = stablehlo.transpose %73, dims = [2, 0, 1] : (tensor<16x64x1024xf32>) -> tensor<1024x16x64xf32>
    %75 = stablehlo.dot_general %72, %arg8, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<64x1024x16x64xf32>, tensor<1024x16x64xf32>) -> tensor<64x1024x1024xf32>
    %76 = stablehlo.add %71, %75 : tensor<64x1024x1024xf32>
    %77 = sdy.sharding_constraint %76 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    %78 = stablehlo.multiply %arg7, %77 : tensor<64x1024x1024xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %80 = stablehlo.reshape %79 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %81 = stablehlo.broadcast_in_dim %arg6, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<64x1024x1024xf32>
    %82 = stablehlo.multiply %77, %81 : tensor<64x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.reduce(%80 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %84 = stablehlo.multiply %arg5, %82 : tensor<64x1024x1024xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1024xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %86 = stablehlo.reshape %85 : (tensor<64x1024xf32>) -> tensor<64x1024x1xf32>
    %87 = stablehlo.broadcast_in_dim %arg4, dims = [0, 1, 2] : (tensor<64x1024x1xf32>) -> tensor<64x1024x1024xf32>
    %88 = stablehlo.multiply %82, %87 : tensor<64x1024x1024xf32>
    %89 = stablehlo.add %34, %88 : tensor<64x1024x1024xf32>
    %90 = stablehlo.multiply %86, %arg3 : tensor<64x1024x1xf32>
    %cst_10 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64x1024x1xf32>
    %92 = stablehlo.divide %90, %91 : tensor<64x1024x1xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.reduce(%92 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<64x1024x1xf32>, tensor<f32>) -> tensor<64x1024xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<64x1024xf32>) -> tensor<64x1024x1024xf32>
    %95 = stablehlo.multiply %94, %arg2 : tensor<64x1024x1024xf32>
    %96 = stablehlo.add %89, %95 : tensor<64x1024x1024xf32>
    %97 = sdy.sharding_constraint %96 <@mesh, [{"data", "fsdp", "fsdp_transpose"}, {"sequence"}, {"tensor"}]> : tensor<64x1024x1024xf32>
    return %97, %69, %37, %83, %21, %74, %65, %12, %9, %2 : tensor<64x1024x1024xf32>, tensor<1024x16x64xf32>, tensor<16x64x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x16x64xf32>, tensor<1024x16x64xf32>, tensor<1024x4096xf32>, tensor<1024x4096xf32>, tensor<4096x1024xf32>
  }
  func.func private @silu_20(%arg0: tensor<64x1024x4096xf32>, %arg1: tensor<64x1024x4096xf32>, %arg2: tensor<64x1024x4096xf32>, %arg3: tensor<64x1024x4096xf32>) -> tensor<64x1024x4096xf32> {
    %0 = stablehlo.multiply %arg2, %arg3 : tensor<64x1024x4096xf32>
    %1 = stablehlo.multiply %arg3, %arg1 : tensor<64x1024x4096xf32>
    %2 = stablehlo.multiply %0, %arg0 : tensor<64x1024x4096xf32>
    %3 = stablehlo.add %1, %2 : tensor<64x1024x4096xf32>
    return %3 : tensor<64x1024x4096xf32>
  }
  func.func private @_where_21(%arg0: tensor<64x16x1024x1024xi1>, %arg1: tensor<64x16x1024x1024xf32>) -> tensor<64x16x1024x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x16x1024x1024xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<64x16x1024x1024xi1>, tensor<64x16x1024x1024xf32>
    return %1 : tensor<64x16x1024x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_22(%arg0: tensor<4x1024x16x64xf32>, %arg1: tensor<1024x16x64xf32>, %arg2: tensor<i32>) -> tensor<4x1024x16x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1024x16x64xf32>) -> tensor<1x1024x16x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x1024x16x64xf32>, tensor<1x1024x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x16x64xf32>
    return %1 : tensor<4x1024x16x64xf32>
  }
  func.func private @dynamic_update_index_in_dim_23(%arg0: tensor<4x16x64x1024xf32>, %arg1: tensor<16x64x1024xf32>, %arg2: tensor<i32>) -> tensor<4x16x64x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<16x64x1024xf32>) -> tensor<1x16x64x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<4x16x64x1024xf32>, tensor<1x16x64x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x64x1024xf32>
    return %1 : tensor<4x16x64x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_24(%arg0: tensor<4x1024xf32>, %arg1: tensor<1024xf32>, %arg2: tensor<i32>) -> tensor<4x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x1024xf32>, tensor<1x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1024xf32>
    return %1 : tensor<4x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim_25(%arg0: tensor<4x1024x4096xf32>, %arg1: tensor<1024x4096xf32>, %arg2: tensor<i32>) -> tensor<4x1024x4096xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<1024x4096xf32>) -> tensor<1x1024x4096xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x1024x4096xf32>, tensor<1x1024x4096xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1024x4096xf32>
    return %1 : tensor<4x1024x4096xf32>
  }
  func.func private @dynamic_update_index_in_dim_26(%arg0: tensor<4x4096x1024xf32>, %arg1: tensor<4096x1024xf32>, %arg2: tensor<i32>) -> tensor<4x4096x1024xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4096x1024xf32>) -> tensor<1x4096x1024xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x4096x1024xf32>, tensor<1x4096x1024xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4096x1024xf32>
    return %1 : tensor<4x4096x1024xf32>
  }
  func.func private @_where_27(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
