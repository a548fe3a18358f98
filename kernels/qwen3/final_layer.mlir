// Qwen3-0.6B `final_layer` stage: logits = RMSNorm(input) x lm_head^T over 18 tiles of 8192
// rows and two tiles of the remaining 4480 (the LM head buffer is padded to Wp = 155,648 rows;
// the padding rows are neither read nor written, so rows >= W of `out` are unspecified).
//
// RMSNorm runs on one slice of each cluster (input and weight come from HBM once per cluster,
// replica axis K2), then the normalised x goes to every slice DM to DM (replica axes C2 x
// S256), each cluster reading the other cluster's copy, so that every slice streams it:
//   1. sum of squares (intra-slice tree per flit, 128 flits into one slot)
//   2. rms = sqrt(sum / 1024 + 1e-6)      3-4. rms and w into the VRF (sub)
//   5. x * w                                6. / rms, cast to bf16
// Each tile: the 16 MiB tile -> DM over 512 slices (16 rows each), DM -> TRF on the main
// context in 32-byte packets (8 lanes x 2 rows), the contraction against the normalised x (2
// slots), a cast to bf16, and the 16 results per slice back to `out`. The last two tiles run
// on fewer slices (below), each with its own copy of the normalised x there.
!vec = !tcp.hbm<bf16, "H">
!lm = !tcp.hbm<bf16, "[W # 155648 / 8192, W # 155648 % 8192, H]">
!logits = !tcp.hbm<bf16, "W # 155648">
!xone = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "H">
!xs = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "H / 8", packet = "H % 8">
!ss = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "1", packet = "1 # 2">
!sdm = !tcp.dm<f32, cluster = "K2", slice = "1 # 256", elem = "1 # 2">
!svrf = !tcp.vrf<f32, cluster = "K2", slice = "1 # 256", elem = "1 # 2">
!w4 = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "H / 4", packet = "H % 4">
!wvrf = !tcp.vrf<f32, cluster = "K2", slice = "1 # 256", elem = "H">
!xfdm = !tcp.dm<f32, cluster = "K2", slice = "1 # 256", elem = "H">
!xdm = !tcp.dm<bf16, cluster = "C2", slice = "S256", elem = "H">
!xn = !tcp.stream<bf16, cluster = "C2", slice = "S256", time = "H / 16", packet = "H % 16">
!tile = !tcp.hbm<bf16, "[R, H]">
!rows = !tcp.hbm<bf16, "R">
!tdm = !tcp.dm<bf16, cluster = "R / 4096", slice = "R / 16 % 256", elem = "[R % 16, H]">
!tload = !tcp.stream<bf16, cluster = "R / 4096", slice = "R / 16 % 256", time = "[R % 8, R / 8 % 2, H / 16]", packet = "H % 16">
!ttrf = !tcp.trf<bf16, cluster = "R / 4096", slice = "R / 16 % 256", lane = "R % 8", elem = "[R / 8 % 2, H]">
!acc = !tcp.stream<f32, cluster = "R / 4096", slice = "R / 16 % 256", time = "R / 8 % 2", packet = "R % 8">
!res = !tcp.stream<bf16, cluster = "R / 4096", slice = "R / 16 % 256", time = "R / 8 % 2", packet = "R % 8">
!rdm = !tcp.dm<bf16, cluster = "R / 4096", slice = "R / 16 % 256", elem = "R % 16">
// The last 4480 rows in two tiles, so that little is left to load into the TRF after the last
// byte arrives: 3456 rows on 216 slices of each cluster (8 rows each, one per TRF lane: half a
// tile's TRF load), then 1024 rows on 128 slices of each cluster (4 rows each: a quarter),
// each tile with its own copy of the normalised x on its slices.
!ctile = !tcp.hbm<bf16, "[C, H]">
!crows = !tcp.hbm<bf16, "C">
!ctdm = !tcp.dm<bf16, cluster = "C / 1728", slice = "C / 8 % 216 # 256", elem = "[C % 8, H]">
!ctload = !tcp.stream<bf16, cluster = "C / 1728", slice = "C / 8 % 216 # 256", time = "[C % 8, H / 16]", packet = "H % 16">
!cttrf = !tcp.trf<bf16, cluster = "C / 1728", slice = "C / 8 % 216 # 256", lane = "C % 8", elem = "H">
!cacc = !tcp.stream<f32, cluster = "C / 1728", slice = "C / 8 % 216 # 256", time = "1", packet = "C % 8">
!cres = !tcp.stream<bf16, cluster = "C / 1728", slice = "C / 8 % 216 # 256", time = "1", packet = "C % 8">
!cxdm = !tcp.dm<bf16, cluster = "C2", slice = "S216 # 256", elem = "H">
!cxn = !tcp.stream<bf16, cluster = "C2", slice = "S216 # 256", time = "H / 16", packet = "H % 16">
!crdm = !tcp.dm<bf16, cluster = "C / 1728", slice = "C / 8 % 216 # 256", elem = "C % 8">
!etile = !tcp.hbm<bf16, "[E, H]">
!erows = !tcp.hbm<bf16, "E">
!etdm = !tcp.dm<bf16, cluster = "E / 512", slice = "E / 4 % 128 # 256", elem = "[E % 4, H]">
!etload = !tcp.stream<bf16, cluster = "E / 512", slice = "E / 4 % 128 # 256", time = "[E % 4, H / 16]", packet = "H % 16">
!ettrf = !tcp.trf<bf16, cluster = "E / 512", slice = "E / 4 % 128 # 256", lane = "E % 4", elem = "H">
!eacc = !tcp.stream<f32, cluster = "E / 512", slice = "E / 4 % 128 # 256", time = "1", packet = "E % 4 # 8">
!eres = !tcp.stream<bf16, cluster = "E / 512", slice = "E / 4 % 128 # 256", time = "1", packet = "E % 4 # 8">
!exdm = !tcp.dm<bf16, cluster = "C2", slice = "S128 # 256", elem = "H">
!exn = !tcp.stream<bf16, cluster = "C2", slice = "S128 # 256", time = "H / 16", packet = "H % 16">
!erdm = !tcp.dm<bf16, cluster = "E / 512", slice = "E / 4 % 128 # 256", elem = "E % 4">

module attributes {tcp.axes = {H = 1024, W = 151936, R = 8192, C = 3456, E = 1024, C2 = 2,
                               K2 = 2, S256 = 256, S216 = 216, S128 = 128}} {
  func.func @final_layer(%input: !vec {tcp.arg = "in", tcp.name = "input"},
                         %rms_weight: !vec {tcp.arg = "in", tcp.name = "rms_weight"},
                         %lm_head_weight: !lm {tcp.arg = "in", tcp.name = "lm_head_weight"},
                         %out: !logits {tcp.arg = "out", tcp.name = "out"}) {
    %xd = tcp.dma %input : !vec -> !xone
    %wd = tcp.dma %rms_weight : !vec -> !xone

    // 1. sum of squares.
    %s1 = tcp.fetch main %xd : !xone -> !xs
    %c1 = tcp.collect %s1 : !xs
    %q = tcp.vector %c1 [stash, mul_f stash, reduce_add_f] : !xs -> !ss
    %sum = tcp.commit %q : !ss -> !sdm
    // 2. rms.
    %s2 = tcp.fetch main %sum : !sdm -> !ss
    %c2 = tcp.collect %s2 : !ss
    %r = tcp.vector %c2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !ss
    %rms = tcp.commit %r : !ss -> !sdm
    // 3-4. VRF operands.
    %s3 = tcp.fetch sub %rms : !sdm -> !ss
    %c3 = tcp.collect %s3 : !ss
    %rv = tcp.to_vrf %c3 : !ss -> !svrf
    %s4 = tcp.fetch sub %wd : !xone -> !w4
    %c4 = tcp.collect %s4 : !w4
    %wv = tcp.to_vrf %c4 : !w4 -> !wvrf
    // 5. x * w.
    %s5 = tcp.fetch main %xd : !xone -> !xs
    %c5 = tcp.collect %s5 : !xs
    %p = tcp.vector %c5 [mul_f vrf(%wv : !wvrf)] : !xs
    %xw = tcp.commit %p : !xs -> !xfdm
    // 6. / rms, to bf16, then to every slice (DM to DM, each cluster reading the other's copy).
    %s6 = tcp.fetch main %xw : !xfdm -> !xs
    %c6 = tcp.collect %s6 : !xs
    %n = tcp.vector %c6 [div_f vrf(%rv : !svrf)] : !xs
    %xn1 = tcp.commit %n {cast} : !xs -> !xone
    %xnd = tcp.dma %xn1 : !xone -> !xdm
    // The normalised x on the last two tiles' slices of each cluster.
    %cx = tcp.dma %xn1 : !xone -> !cxdm
    %ex = tcp.dma %xn1 : !xone -> !exdm

    // Tile 0: rows 0 .. 8191.
    %w0 = tcp.view %lm_head_weight offset 0 : !lm -> !tile
    %d0 = tcp.dma %w0 : !tile -> !tdm
    %l0 = tcp.fetch main %d0 : !tdm -> !tload
    %k0 = tcp.collect %l0 : !tload
    %t0 = tcp.to_trf %k0 : !tload -> !ttrf
    %x0 = tcp.fetch main %xnd : !xdm -> !xn
    %y0 = tcp.collect %x0 : !xn
    %a0 = tcp.contract %y0, %t0 pack 2 : !xn, !ttrf -> !acc
    %b0 = tcp.cast %a0 : !acc -> !res
    %o0 = tcp.commit %b0 : !res -> !rdm
    %v0 = tcp.view %out offset 0 : !logits -> !rows
    tcp.dma %o0 into %v0 : !rdm -> !rows

    // Tile 1: rows 8192 .. 16383.
    %w1 = tcp.view %lm_head_weight offset 8388608 : !lm -> !tile
    %d1 = tcp.dma %w1 : !tile -> !tdm
    %l1 = tcp.fetch main %d1 : !tdm -> !tload
    %k1 = tcp.collect %l1 : !tload
    %t1 = tcp.to_trf %k1 : !tload -> !ttrf
    %x1 = tcp.fetch main %xnd : !xdm -> !xn
    %y1 = tcp.collect %x1 : !xn
    %a1 = tcp.contract %y1, %t1 pack 2 : !xn, !ttrf -> !acc
    %b1 = tcp.cast %a1 : !acc -> !res
    %o1 = tcp.commit %b1 : !res -> !rdm
    %v1 = tcp.view %out offset 8192 : !logits -> !rows
    tcp.dma %o1 into %v1 : !rdm -> !rows

    // Tile 2: rows 16384 .. 24575.
    %w2 = tcp.view %lm_head_weight offset 16777216 : !lm -> !tile
    %d2 = tcp.dma %w2 : !tile -> !tdm
    %l2 = tcp.fetch main %d2 : !tdm -> !tload
    %k2 = tcp.collect %l2 : !tload
    %t2 = tcp.to_trf %k2 : !tload -> !ttrf
    %x2 = tcp.fetch main %xnd : !xdm -> !xn
    %y2 = tcp.collect %x2 : !xn
    %a2 = tcp.contract %y2, %t2 pack 2 : !xn, !ttrf -> !acc
    %b2 = tcp.cast %a2 : !acc -> !res
    %o2 = tcp.commit %b2 : !res -> !rdm
    %v2 = tcp.view %out offset 16384 : !logits -> !rows
    tcp.dma %o2 into %v2 : !rdm -> !rows

    // Tile 3: rows 24576 .. 32767.
    %w3 = tcp.view %lm_head_weight offset 25165824 : !lm -> !tile
    %d3 = tcp.dma %w3 : !tile -> !tdm
    %l3 = tcp.fetch main %d3 : !tdm -> !tload
    %k3 = tcp.collect %l3 : !tload
    %t3 = tcp.to_trf %k3 : !tload -> !ttrf
    %x3 = tcp.fetch main %xnd : !xdm -> !xn
    %y3 = tcp.collect %x3 : !xn
    %a3 = tcp.contract %y3, %t3 pack 2 : !xn, !ttrf -> !acc
    %b3 = tcp.cast %a3 : !acc -> !res
    %o3 = tcp.commit %b3 : !res -> !rdm
    %v3 = tcp.view %out offset 24576 : !logits -> !rows
    tcp.dma %o3 into %v3 : !rdm -> !rows

    // Tile 4: rows 32768 .. 40959.
    %w4 = tcp.view %lm_head_weight offset 33554432 : !lm -> !tile
    %d4 = tcp.dma %w4 : !tile -> !tdm
    %l4 = tcp.fetch main %d4 : !tdm -> !tload
    %k4 = tcp.collect %l4 : !tload
    %t4 = tcp.to_trf %k4 : !tload -> !ttrf
    %x4 = tcp.fetch main %xnd : !xdm -> !xn
    %y4 = tcp.collect %x4 : !xn
    %a4 = tcp.contract %y4, %t4 pack 2 : !xn, !ttrf -> !acc
    %b4 = tcp.cast %a4 : !acc -> !res
    %o4 = tcp.commit %b4 : !res -> !rdm
    %v4 = tcp.view %out offset 32768 : !logits -> !rows
    tcp.dma %o4 into %v4 : !rdm -> !rows

    // Tile 5: rows 40960 .. 49151.
    %w5 = tcp.view %lm_head_weight offset 41943040 : !lm -> !tile
    %d5 = tcp.dma %w5 : !tile -> !tdm
    %l5 = tcp.fetch main %d5 : !tdm -> !tload
    %k5 = tcp.collect %l5 : !tload
    %t5 = tcp.to_trf %k5 : !tload -> !ttrf
    %x5 = tcp.fetch main %xnd : !xdm -> !xn
    %y5 = tcp.collect %x5 : !xn
    %a5 = tcp.contract %y5, %t5 pack 2 : !xn, !ttrf -> !acc
    %b5 = tcp.cast %a5 : !acc -> !res
    %o5 = tcp.commit %b5 : !res -> !rdm
    %v5 = tcp.view %out offset 40960 : !logits -> !rows
    tcp.dma %o5 into %v5 : !rdm -> !rows

    // Tile 6: rows 49152 .. 57343.
    %w6 = tcp.view %lm_head_weight offset 50331648 : !lm -> !tile
    %d6 = tcp.dma %w6 : !tile -> !tdm
    %l6 = tcp.fetch main %d6 : !tdm -> !tload
    %k6 = tcp.collect %l6 : !tload
    %t6 = tcp.to_trf %k6 : !tload -> !ttrf
    %x6 = tcp.fetch main %xnd : !xdm -> !xn
    %y6 = tcp.collect %x6 : !xn
    %a6 = tcp.contract %y6, %t6 pack 2 : !xn, !ttrf -> !acc
    %b6 = tcp.cast %a6 : !acc -> !res
    %o6 = tcp.commit %b6 : !res -> !rdm
    %v6 = tcp.view %out offset 49152 : !logits -> !rows
    tcp.dma %o6 into %v6 : !rdm -> !rows

    // Tile 7: rows 57344 .. 65535.
    %w7 = tcp.view %lm_head_weight offset 58720256 : !lm -> !tile
    %d7 = tcp.dma %w7 : !tile -> !tdm
    %l7 = tcp.fetch main %d7 : !tdm -> !tload
    %k7 = tcp.collect %l7 : !tload
    %t7 = tcp.to_trf %k7 : !tload -> !ttrf
    %x7 = tcp.fetch main %xnd : !xdm -> !xn
    %y7 = tcp.collect %x7 : !xn
    %a7 = tcp.contract %y7, %t7 pack 2 : !xn, !ttrf -> !acc
    %b7 = tcp.cast %a7 : !acc -> !res
    %o7 = tcp.commit %b7 : !res -> !rdm
    %v7 = tcp.view %out offset 57344 : !logits -> !rows
    tcp.dma %o7 into %v7 : !rdm -> !rows

    // Tile 8: rows 65536 .. 73727.
    %w8 = tcp.view %lm_head_weight offset 67108864 : !lm -> !tile
    %d8 = tcp.dma %w8 : !tile -> !tdm
    %l8 = tcp.fetch main %d8 : !tdm -> !tload
    %k8 = tcp.collect %l8 : !tload
    %t8 = tcp.to_trf %k8 : !tload -> !ttrf
    %x8 = tcp.fetch main %xnd : !xdm -> !xn
    %y8 = tcp.collect %x8 : !xn
    %a8 = tcp.contract %y8, %t8 pack 2 : !xn, !ttrf -> !acc
    %b8 = tcp.cast %a8 : !acc -> !res
    %o8 = tcp.commit %b8 : !res -> !rdm
    %v8 = tcp.view %out offset 65536 : !logits -> !rows
    tcp.dma %o8 into %v8 : !rdm -> !rows

    // Tile 9: rows 73728 .. 81919.
    %w9 = tcp.view %lm_head_weight offset 75497472 : !lm -> !tile
    %d9 = tcp.dma %w9 : !tile -> !tdm
    %l9 = tcp.fetch main %d9 : !tdm -> !tload
    %k9 = tcp.collect %l9 : !tload
    %t9 = tcp.to_trf %k9 : !tload -> !ttrf
    %x9 = tcp.fetch main %xnd : !xdm -> !xn
    %y9 = tcp.collect %x9 : !xn
    %a9 = tcp.contract %y9, %t9 pack 2 : !xn, !ttrf -> !acc
    %b9 = tcp.cast %a9 : !acc -> !res
    %o9 = tcp.commit %b9 : !res -> !rdm
    %v9 = tcp.view %out offset 73728 : !logits -> !rows
    tcp.dma %o9 into %v9 : !rdm -> !rows

    // Tile 10: rows 81920 .. 90111.
    %w10 = tcp.view %lm_head_weight offset 83886080 : !lm -> !tile
    %d10 = tcp.dma %w10 : !tile -> !tdm
    %l10 = tcp.fetch main %d10 : !tdm -> !tload
    %k10 = tcp.collect %l10 : !tload
    %t10 = tcp.to_trf %k10 : !tload -> !ttrf
    %x10 = tcp.fetch main %xnd : !xdm -> !xn
    %y10 = tcp.collect %x10 : !xn
    %a10 = tcp.contract %y10, %t10 pack 2 : !xn, !ttrf -> !acc
    %b10 = tcp.cast %a10 : !acc -> !res
    %o10 = tcp.commit %b10 : !res -> !rdm
    %v10 = tcp.view %out offset 81920 : !logits -> !rows
    tcp.dma %o10 into %v10 : !rdm -> !rows

    // Tile 11: rows 90112 .. 98303.
    %w11 = tcp.view %lm_head_weight offset 92274688 : !lm -> !tile
    %d11 = tcp.dma %w11 : !tile -> !tdm
    %l11 = tcp.fetch main %d11 : !tdm -> !tload
    %k11 = tcp.collect %l11 : !tload
    %t11 = tcp.to_trf %k11 : !tload -> !ttrf
    %x11 = tcp.fetch main %xnd : !xdm -> !xn
    %y11 = tcp.collect %x11 : !xn
    %a11 = tcp.contract %y11, %t11 pack 2 : !xn, !ttrf -> !acc
    %b11 = tcp.cast %a11 : !acc -> !res
    %o11 = tcp.commit %b11 : !res -> !rdm
    %v11 = tcp.view %out offset 90112 : !logits -> !rows
    tcp.dma %o11 into %v11 : !rdm -> !rows

    // Tile 12: rows 98304 .. 106495.
    %w12 = tcp.view %lm_head_weight offset 100663296 : !lm -> !tile
    %d12 = tcp.dma %w12 : !tile -> !tdm
    %l12 = tcp.fetch main %d12 : !tdm -> !tload
    %k12 = tcp.collect %l12 : !tload
    %t12 = tcp.to_trf %k12 : !tload -> !ttrf
    %x12 = tcp.fetch main %xnd : !xdm -> !xn
    %y12 = tcp.collect %x12 : !xn
    %a12 = tcp.contract %y12, %t12 pack 2 : !xn, !ttrf -> !acc
    %b12 = tcp.cast %a12 : !acc -> !res
    %o12 = tcp.commit %b12 : !res -> !rdm
    %v12 = tcp.view %out offset 98304 : !logits -> !rows
    tcp.dma %o12 into %v12 : !rdm -> !rows

    // Tile 13: rows 106496 .. 114687.
    %w13 = tcp.view %lm_head_weight offset 109051904 : !lm -> !tile
    %d13 = tcp.dma %w13 : !tile -> !tdm
    %l13 = tcp.fetch main %d13 : !tdm -> !tload
    %k13 = tcp.collect %l13 : !tload
    %t13 = tcp.to_trf %k13 : !tload -> !ttrf
    %x13 = tcp.fetch main %xnd : !xdm -> !xn
    %y13 = tcp.collect %x13 : !xn
    %a13 = tcp.contract %y13, %t13 pack 2 : !xn, !ttrf -> !acc
    %b13 = tcp.cast %a13 : !acc -> !res
    %o13 = tcp.commit %b13 : !res -> !rdm
    %v13 = tcp.view %out offset 106496 : !logits -> !rows
    tcp.dma %o13 into %v13 : !rdm -> !rows

    // Tile 14: rows 114688 .. 122879.
    %w14 = tcp.view %lm_head_weight offset 117440512 : !lm -> !tile
    %d14 = tcp.dma %w14 : !tile -> !tdm
    %l14 = tcp.fetch main %d14 : !tdm -> !tload
    %k14 = tcp.collect %l14 : !tload
    %t14 = tcp.to_trf %k14 : !tload -> !ttrf
    %x14 = tcp.fetch main %xnd : !xdm -> !xn
    %y14 = tcp.collect %x14 : !xn
    %a14 = tcp.contract %y14, %t14 pack 2 : !xn, !ttrf -> !acc
    %b14 = tcp.cast %a14 : !acc -> !res
    %o14 = tcp.commit %b14 : !res -> !rdm
    %v14 = tcp.view %out offset 114688 : !logits -> !rows
    tcp.dma %o14 into %v14 : !rdm -> !rows

    // Tile 15: rows 122880 .. 131071.
    %w15 = tcp.view %lm_head_weight offset 125829120 : !lm -> !tile
    %d15 = tcp.dma %w15 : !tile -> !tdm
    %l15 = tcp.fetch main %d15 : !tdm -> !tload
    %k15 = tcp.collect %l15 : !tload
    %t15 = tcp.to_trf %k15 : !tload -> !ttrf
    %x15 = tcp.fetch main %xnd : !xdm -> !xn
    %y15 = tcp.collect %x15 : !xn
    %a15 = tcp.contract %y15, %t15 pack 2 : !xn, !ttrf -> !acc
    %b15 = tcp.cast %a15 : !acc -> !res
    %o15 = tcp.commit %b15 : !res -> !rdm
    %v15 = tcp.view %out offset 122880 : !logits -> !rows
    tcp.dma %o15 into %v15 : !rdm -> !rows

    // Tile 16: rows 131072 .. 139263.
    %w16 = tcp.view %lm_head_weight offset 134217728 : !lm -> !tile
    %d16 = tcp.dma %w16 : !tile -> !tdm
    %l16 = tcp.fetch main %d16 : !tdm -> !tload
    %k16 = tcp.collect %l16 : !tload
    %t16 = tcp.to_trf %k16 : !tload -> !ttrf
    %x16 = tcp.fetch main %xnd : !xdm -> !xn
    %y16 = tcp.collect %x16 : !xn
    %a16 = tcp.contract %y16, %t16 pack 2 : !xn, !ttrf -> !acc
    %b16 = tcp.cast %a16 : !acc -> !res
    %o16 = tcp.commit %b16 : !res -> !rdm
    %v16 = tcp.view %out offset 131072 : !logits -> !rows
    tcp.dma %o16 into %v16 : !rdm -> !rows

    // Tile 17: rows 139264 .. 147455.
    %w17 = tcp.view %lm_head_weight offset 142606336 : !lm -> !tile
    %d17 = tcp.dma %w17 : !tile -> !tdm
    %l17 = tcp.fetch main %d17 : !tdm -> !tload
    %k17 = tcp.collect %l17 : !tload
    %t17 = tcp.to_trf %k17 : !tload -> !ttrf
    %x17 = tcp.fetch main %xnd : !xdm -> !xn
    %y17 = tcp.collect %x17 : !xn
    %a17 = tcp.contract %y17, %t17 pack 2 : !xn, !ttrf -> !acc
    %b17 = tcp.cast %a17 : !acc -> !res
    %o17 = tcp.commit %b17 : !res -> !rdm
    %v17 = tcp.view %out offset 139264 : !logits -> !rows
    tcp.dma %o17 into %v17 : !rdm -> !rows

    // Tile 18: rows 147456 .. 150911.
    %w18 = tcp.view %lm_head_weight offset 150994944 : !lm -> !ctile
    %d18 = tcp.dma %w18 : !ctile -> !ctdm
    %l18 = tcp.fetch main %d18 : !ctdm -> !ctload
    %k18 = tcp.collect %l18 : !ctload
    %t18 = tcp.to_trf %k18 : !ctload -> !cttrf
    %x18 = tcp.fetch main %cx : !cxdm -> !cxn
    %y18 = tcp.collect %x18 : !cxn
    %a18 = tcp.contract %y18, %t18 pack 2 : !cxn, !cttrf -> !cacc
    %b18 = tcp.cast %a18 : !cacc -> !cres
    %o18 = tcp.commit %b18 : !cres -> !crdm
    %v18 = tcp.view %out offset 147456 : !logits -> !crows
    tcp.dma %o18 into %v18 : !crdm -> !crows

    // Tile 19: rows 150912 .. 151935, the last (no padding rows).
    %w19 = tcp.view %lm_head_weight offset 154533888 : !lm -> !etile
    %d19 = tcp.dma %w19 : !etile -> !etdm
    %l19 = tcp.fetch main %d19 : !etdm -> !etload
    %k19 = tcp.collect %l19 : !etload
    %t19 = tcp.to_trf %k19 : !etload -> !ettrf
    %x19 = tcp.fetch main %ex : !exdm -> !exn
    %y19 = tcp.collect %x19 : !exn
    %a19 = tcp.contract %y19, %t19 pack 2 : !exn, !ettrf -> !eacc
    %b19 = tcp.cast %a19 : !eacc -> !eres
    %o19 = tcp.commit %b19 : !eres -> !erdm
    %v19 = tcp.view %out offset 150912 : !logits -> !erows
    tcp.dma %o19 into %v19 : !erdm -> !erows
    return
  }
}
