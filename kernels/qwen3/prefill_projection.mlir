// Qwen3-0.6B multi-token `prefill_projection` stage: for a block of T = 512 tokens at positions
// 0..511 of a KV-cache chunk, x^ = RMSNorm(x); q, k, v = x^ W^T for all 32 heads (16 q, 8 k,
// 8 v; 128 rows each); per-head RMSNorm and RoPE of q and k; q's heads to q_out, k's and v's
// rows into the chunk's caches. docs/prefill.md explains the layouts.
//
// Signature (HBM layouts chosen so that each slice's part is contiguous):
//   x                [T, H] bf16, layout [T / 256, T % 256 / 64, H / 16, T % 64, H % 16]
//   input_rms_weight [H] bf16
//   qkv_weight       [O = 4096, H] bf16: q_proj's 2048 rows, then k_proj's 1024, v_proj's 1024,
//                    layout [H / 512, O, H % 512] (each half of h a contiguous tile)
//   head_rms_weight  [O] bf16: q_norm's 128 weights for each q head, k_norm's for each k head,
//                    anything for the v heads (not used)
//   cos, sin         [T, 64] bf16 for the block's positions (F = d % 64), layout
//                    [T / 256, F / 8, T % 64, T % 256 / 64, F % 8]
//   q_out            [T, Q = 2048] bf16, layout
//                    [T / 256, Q / 128, T % 256 / 16, Q % 128 / 8, T % 16, Q % 8]
//                    (prefill_attention_first's q: 16 tokens x 8 values of a head contiguous)
//   k_cache, v_cache [T, N, D] bf16: the chunk, every row written (the rows of a shorter
//                    prompt's padding tokens hold their values until decode overwrites them)
//
// Placement: tokens split over the clusters (T / 256); every slice of both clusters holds 16
// weight rows in its TRF (8 lanes, two rows per lane), a head on 8 slices, rows d and d + 64 of
// a head on one slice and lane.
// 1. x's RMSNorm in the GEMM's layout (slice (T % 256 / 32, H % 512 / 16) holds 32 tokens x
//    16 values of each half of h): the transpose puts 4 tokens in the lanes, the reducer's 8
//    slots sum a slice's 32 values of each token ([H / 512, H % 16] order), the inter-slice
//    reducer adds a row's 32 slices; rms and the weights from the VRF. Runs while the weights
//    stream.
// 2. The GEMM in two halves of h: each half's weights arrive and load into the TRF by
//    themselves, so one half's contraction runs while the other's weights stream; each half of
//    x^ broadcast around each 256-slice ring, each packet time-broadcast over a lane's two
//    rows (8,192 contraction cycles a half: 16,384 in all, the compute roofline). The halves'
//    f32 sums are added 128 tokens at a time (one through the VRF), then rounded to bf16.
// 3. v's heads to the cache: each head's 8 slices gathered onto one by the Switch Engine
//    (ring 8) on the sub context while main normalises q and k, then copied through a view on
//    the v heads' slices.
// 4. Head norms: q transposed (4 tokens in the lanes), 8 passes of 32 tokens' sums (joined), a
//    head's 8 slices added; q x weight, then / rms from the VRF.
// 5. RoPE: the halves d and d + 64 read through DM views over F; four passes make the exact
//    products (-x1 sin, x0 sin, x0 cos, x1 cos) against the VRF tables, two add them. The
//    tables come from HBM once, onto one head's slices, and are copied DM to DM to the others
//    (read 32 times from HBM they took 4 MB of its bandwidth from the weights).
// 6. q's heads out through a view on their slices; k's heads gathered and copied like v's.
// Rounding points: x^, the GEMM's q, k and v (after the halves' sums are added), the
// normalised heads and the results are bf16; every other value is f32.
!x = !tcp.hbm<bf16, "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]">
!vec = !tcp.hbm<bf16, "H">
!w = !tcp.hbm<bf16, "[H / 512, O, H % 512]">
!wh = !tcp.hbm<bf16, "[O, HL]">
!hwh = !tcp.hbm<bf16, "O">
!yh = !tcp.hbm<bf16, "[T / 256, O / 128, O % 64 / 8, T % 64, T % 256 / 64, O % 128 / 64, O % 8]">

// x's RMSNorm, in the GEMM's layout: slice (T % 256 / 32, H % 512 / 16) holds 32 tokens x 16
// values of each half of H (H / 512), so that each half alone spans a cluster's 256 slices.
// The transpose puts 4 tokens in the lanes; one pass sums a slice's 32 values of each token
// ([H / 512, H % 16] order) in the reducer's 8 slots of 4 tokens, the inter-slice reducer a
// row's 32 slices.
!xdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", elem = "[H / 512, T % 32, H % 16]">
!trin = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", time = "[H / 512, T % 32 / 4, T % 4, H % 16 / 8]", packet = "H % 8">
!trout = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", time = "[H / 512, T % 32 / 4, H % 16 / 8, H % 8]", packet = "T % 4">
!xtdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", elem = "[H / 512, T % 32 / 4, H % 16, T % 4]">
!sqin = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", time = "[H / 512, H % 16, T % 32 / 4]", packet = "T % 4">
!ssc = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", time = "T % 32 / 4", packet = "T % 4">
!ssdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", elem = "T % 32">
!sss = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", time = "T % 32 / 8", packet = "T % 8">
!rsub = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", time = "T % 32 / 2", packet = "T % 2">
!rvrf = !tcp.vrf<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", elem = "T % 32">
!wn = !tcp.dm<bf16, cluster = "C2", slice = "[R8, H % 512 / 16]", elem = "[H / 512, H % 16]">
!wnsub = !tcp.stream<f32, cluster = "C2", slice = "[R8, H % 512 / 16]", time = "[H / 512, H % 16 / 2]", packet = "H % 2">
!wnvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R8, H % 512 / 16]", elem = "[H / 512, H % 16]">
!xs = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", time = "[T % 32, H / 512, H % 16 / 8]", packet = "H % 8">
!xwdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", elem = "[H / 512, T % 32, H % 16]">
!xws = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H % 512 / 16]", time = "[H / 512, H % 16 / 8, T % 32]", packet = "H % 8">

// q, k and v: 32 heads of 128 rows (O / 128: 16 q, 8 k, 8 v), a head on 8 slices; a slice holds
// rows d and d + 64 (d % 64 / 8 its slice in the head, d % 8 its lane).
// In two halves of H (HL = H % 512): each half's weights (a contiguous tile of qkv_weight) and
// its TRF load, so that the first half's contraction runs while the second's weights stream;
// each half of x^ (an element offset in its layout) broadcast around the 256-slice ring.
!xhh = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 32, HL / 16]", elem = "[T % 32, HL % 16]">
!xf = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 32, HL / 16]", time = "T % 32", packet = "HL % 16">
!xn = !tcp.stream<bf16, cluster = "T / 256", slice = "X256", time = "[T % 32, T % 256 / 32, HL / 16]", packet = "HL % 16">
!wdm = !tcp.dm<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", elem = "[O % 8, O % 128 / 64, HL]">
!wload = !tcp.stream<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", time = "[O % 8, O % 128 / 64, HL / 16]", packet = "HL % 16">
!wtrf = !tcp.trf<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", lane = "O % 8", elem = "[O % 128 / 64, HL]">
!acc = !tcp.stream<f32, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 32, T % 256 / 32, O % 128 / 64]", packet = "O % 8">
// The halves' partial sums (f32) added 128 tokens at a time (T % 64 / 32; U = T % 32,
// K4 = T % 256 / 64): the second's chunk through the VRF (8 KB), then bf16.
!qc = !tcp.dm<f32, cluster = "K2", slice = "[O / 128, O % 64 / 8]", elem = "[U, K4, O % 128 / 64, O % 8]">
!qcs = !tcp.stream<f32, cluster = "K2", slice = "[O / 128, O % 64 / 8]", time = "[U, K4, O % 128 / 64]", packet = "O % 8">
!qcsb = !tcp.stream<bf16, cluster = "K2", slice = "[O / 128, O % 64 / 8]", time = "[U, K4, O % 128 / 64]", packet = "O % 8">
!qcv = !tcp.vrf<f32, cluster = "K2", slice = "[O / 128, O % 64 / 8]", elem = "[U, K4, O % 128 / 64, O % 8]">
!qcb = !tcp.dm<bf16, cluster = "K2", slice = "[O / 128, O % 64 / 8]", elem = "[U, K4, O % 128 / 64, O % 8]">
!qcj = !tcp.dm<bf16, cluster = "K2", slice = "[O / 128, O % 64 / 8]", elem = "[P2, U, K4, O % 128 / 64, O % 8]">

// Per-head RMSNorm of q and k (every head is normalised; v's results are not used).
!qraw = !tcp.dm<f32, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[T % 64, T % 256 / 64, O % 128 / 64, O % 8]">
!qrawb = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[T % 64, T % 256 / 64, O % 128 / 64, O % 8]">
!qtinb = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 64 / 4, T % 256 / 64, T % 4, O % 128 / 64]", packet = "O % 8">
!qtout = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 64 / 4, T % 256 / 64, O % 128 / 64, O % 8]", packet = "T % 4">
!qt = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[T % 64 / 4, T % 256 / 64, O % 128 / 64, O % 8, T % 4]">
!qtc = !tcp.dm<bf16, cluster = "K2", slice = "[G32, J8]", elem = "[V, JJ, L, R4]">
!hsq = !tcp.stream<f32, cluster = "K2", slice = "[G32, J8]", time = "[JJ, L, V]", packet = "R4">
!hss = !tcp.stream<f32, cluster = "K2", slice = "[G32, X8]", time = "V", packet = "R4">
!hssdm = !tcp.dm<f32, cluster = "K2", slice = "[G32, X8]", elem = "[V, R4]">
!hssj = !tcp.dm<f32, cluster = "K2", slice = "[G32, X8]", elem = "[P8, V, R4]">
!hsst = !tcp.dm<f32, cluster = "T / 256", slice = "[G32, X8]", elem = "[T % 64 / 8, T % 8 / 4, T % 256 / 64, T % 4]">
!hsts = !tcp.stream<f32, cluster = "T / 256", slice = "[G32, X8]", time = "[T % 64 / 8, T % 8 / 4, T % 256 / 64]", packet = "T % 4">
!hrvrf = !tcp.vrf<f32, cluster = "T / 256", slice = "[G32, X8]", elem = "[T % 64 / 8, T % 8 / 4, T % 256 / 64, T % 4]">
!hw = !tcp.dm<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", elem = "[O % 128 / 64, O % 8]">
!hws = !tcp.stream<f32, cluster = "C2", slice = "[O / 128, O % 64 / 8]", time = "O % 128 / 64", packet = "O % 8">
!hwvrf = !tcp.vrf<f32, cluster = "C2", slice = "[O / 128, O % 64 / 8]", elem = "[O % 128 / 64, O % 8]">
!qs = !tcp.stream<f32, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 64, T % 256 / 64, O % 128 / 64]", packet = "O % 8">
!qws = !tcp.stream<f32, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[O % 128 / 64, T % 64 / 8, T % 8 / 4, T % 256 / 64, T % 4]", packet = "O % 8">
!qn = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[T % 64, T % 256 / 64, O % 128 / 64, O % 8]">

// RoPE on the normalised heads: out = x cos + swap(x) sin, swap(x) = [-x1, x0] for the halves
// x0 = rows d < 64 and x1 = rows d + 64, which sit on the same slice and lane. The halves are
// read through views over the frequency axis F (d % 64), as are the tables (F % 8 in the
// lanes, F / 8 the slice in the head).
!ropeh = !tcp.hbm<bf16, "[T / 256, F / 8, T % 64, T % 256 / 64, F % 8]">
!tab1 = !tcp.dm<bf16, cluster = "T / 256", slice = "[1 # 32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8]">
!tab = !tcp.dm<bf16, cluster = "T / 256", slice = "[R32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8]">
!tabs = !tcp.stream<f32, cluster = "T / 256", slice = "[R32, F / 8]", time = "[T % 64, T % 256 / 64]", packet = "F % 8">
!tabv = !tcp.vrf<f32, cluster = "T / 256", slice = "[R32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8]">
!half = !tcp.dm<bf16, cluster = "T / 256", slice = "[G32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8 # 16]">
!halfs = !tcp.stream<f32, cluster = "T / 256", slice = "[G32, F / 8]", time = "[T % 64, T % 256 / 64]", packet = "F % 8">
!part = !tcp.dm<f32, cluster = "T / 256", slice = "[G32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8]">
!partv = !tcp.vrf<f32, cluster = "T / 256", slice = "[G32, F / 8]", elem = "[T % 64, T % 256 / 64, F % 8]">
!outb = !tcp.dm<bf16, cluster = "T / 256", slice = "[G32, F / 8]", elem = "[T % 256 / 64, T % 64, F % 8]">
!outj = !tcp.dm<bf16, cluster = "T / 256", slice = "[G32, F / 8]", elem = "[P2, T % 256 / 64, T % 64, F % 8]">
!rope = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[O % 128 / 64, T % 256 / 64, T % 64, O % 8]">

// Outputs: q's heads (0..15) as they are; each k head (16..23, after RoPE) and v head (24..31,
// the GEMM's rows) gathered onto one slice of its 8 by the Switch Engine (a row of 128 values
// per token, committed with each token's row contiguous: 256-byte DMA pieces; v's on the sub
// context, in 8-byte packets), then copied into the cache chunk through views on those heads'
// slices.
!qv = !tcp.dm<bf16, cluster = "T / 256", slice = "[Q / 128 # 32, Q % 64 / 8]", elem = "[Q % 128 / 64, T % 256 / 64, T % 64, Q % 8]">
!qo = !tcp.hbm<bf16, "[T / 256, Q / 128, T % 256 / 16, Q % 128 / 8, T % 16, Q % 8]">
!gin = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[O % 128 / 64, T % 64, T % 256 / 64]", packet = "O % 8">
!gout = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, X8]", time = "[O % 128 / 64, T % 64, T % 256 / 64, O % 64 / 8]", packet = "O % 8">
!vin = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[O % 128 / 64, T % 64, T % 256 / 64, O % 8 / 4]", packet = "O % 4">
!vout = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, X8]", time = "[O % 128 / 64, T % 64, T % 256 / 64, O % 8 / 4, O % 64 / 8]", packet = "O % 4">
!rows = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, 1 # 8]", elem = "[T % 64, T % 256 / 64, O % 128 / 64, O % 64 / 8, O % 8]">
!kvrows = !tcp.dm<bf16, cluster = "T / 256", slice = "[1 # 4, N, 1 # 8]", elem = "[T % 64, T % 256 / 64, D / 64, D % 64 / 8, D % 8]">
!cache = !tcp.hbm<bf16, "[T, N, D]">

module attributes {tcp.axes = {T = 512, H = 1024, O = 4096, U = 32, P2 = 2, K2 = 2, K4 = 4,
                               R4 = 4, C2 = 2, X64 = 64, X256 = 256, G32 = 32, J8 = 8, X8 = 8,
                               V = 8, JJ = 2, L = 8, P8 = 8, F = 64, R32 = 32, Q = 2048, N = 8, D = 128,
                               HL = 512, R8 = 8, X32 = 32}} {
  func.func @prefill_projection(%x: !x {tcp.arg = "in", tcp.name = "x"},
                         %input_rms_weight: !vec {tcp.arg = "in", tcp.name = "input_rms_weight"},
                         %qkv_weight: !w {tcp.arg = "in", tcp.name = "qkv_weight"},
                         %head_rms_weight: !hwh {tcp.arg = "in", tcp.name = "head_rms_weight"},
                         %cos: !ropeh {tcp.arg = "in", tcp.name = "cos"},
                         %sin: !ropeh {tcp.arg = "in", tcp.name = "sin"},
                         %q_out: !qo {tcp.arg = "out", tcp.name = "q_out"},
                         %k_cache: !cache {tcp.arg = "inout", tcp.name = "k_cache"},
                         %v_cache: !cache {tcp.arg = "inout", tcp.name = "v_cache"}) {
    %xd = tcp.dma %x : !x -> !xdm
    %t1 = tcp.fetch main %xd : !xdm -> !trin
    %t2 = tcp.collect %t1 : !trin
    %t3 = tcp.transpose %t2 : !trin -> !trout
    %xt = tcp.commit %t3 : !trout -> !xtdm
    %a1 = tcp.fetch main %xt : !xtdm -> !sqin
    %a2 = tcp.collect %a1 : !sqin
    %a3 = tcp.vector %a2 [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ssc
    %ss = tcp.commit %a3 : !ssc -> !ssdm
    %r1 = tcp.fetch main %ss : !ssdm -> !sss
    %r2 = tcp.collect %r1 : !sss
    %r3 = tcp.vector %r2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !sss
    %rd = tcp.commit %r3 : !sss -> !ssdm
    %v1 = tcp.fetch sub %rd : !ssdm -> !rsub
    %v2 = tcp.collect %v1 : !rsub
    %rv = tcp.to_vrf %v2 : !rsub -> !rvrf
    %wnd = tcp.dma %input_rms_weight : !vec -> !wn
    %n1 = tcp.fetch sub %wnd : !wn -> !wnsub
    %n2 = tcp.collect %n1 : !wnsub
    %wnv = tcp.to_vrf %n2 : !wnsub -> !wnvrf
    %m1 = tcp.fetch main %xd : !xdm -> !xs
    %m2 = tcp.collect %m1 : !xs
    %m3 = tcp.vector %m2 [mul_f vrf(%wnv : !wnvrf)] : !xs
    %xw = tcp.commit %m3 : !xs -> !xwdm
    %d1 = tcp.fetch main %xw : !xwdm -> !xws
    %d2 = tcp.collect %d1 : !xws
    %d3 = tcp.vector %d2 [div_f vrf(%rv : !rvrf)] : !xws
    %xh = tcp.commit %d3 {cast} : !xws -> !xdm

    %wa = tcp.view %qkv_weight offset 0 : !w -> !wh
    %wb = tcp.view %qkv_weight offset 2097152 : !w -> !wh
    %wda = tcp.dma %wa : !wh -> !wdm
    %wdb = tcp.dma %wb : !wh -> !wdm
    %wsa = tcp.fetch main %wda : !wdm -> !wload
    %wca = tcp.collect %wsa : !wload
    %wta = tcp.to_trf %wca : !wload -> !wtrf
    %xa = tcp.dm_view %xh offset 0 : !xdm -> !xhh
    %xa1 = tcp.fetch main %xa : !xhh -> !xf
    %xa2 = tcp.switch broadcast1 %xa1 : !xf -> !xn
    %xa3 = tcp.collect %xa2 : !xn
    %ga = tcp.contract %xa3, %wta pack 2 : !xn, !wtrf -> !acc
    %pa = tcp.commit %ga : !acc -> !qraw
    %wsb = tcp.fetch main %wdb : !wdm -> !wload
    %wcb = tcp.collect %wsb : !wload
    %wtb = tcp.to_trf %wcb : !wload -> !wtrf
    %xb = tcp.dm_view %xh offset 512 : !xdm -> !xhh
    %xb1 = tcp.fetch main %xb : !xhh -> !xf
    %xb2 = tcp.switch broadcast1 %xb1 : !xf -> !xn
    %xb3 = tcp.collect %xb2 : !xn
    %gbh = tcp.contract %xb3, %wtb pack 2 : !xn, !wtrf -> !acc
    %pb = tcp.commit %gbh : !acc -> !qraw
    %pa0 = tcp.dm_view %pa offset 0 : !qraw -> !qc
    %pb0 = tcp.dm_view %pb offset 0 : !qraw -> !qc
    %pv01 = tcp.fetch main %pb0 : !qc -> !qcs
    %pv02 = tcp.collect %pv01 : !qcs
    %pv0 = tcp.to_vrf %pv02 : !qcs -> !qcv
    %ps01 = tcp.fetch main %pa0 : !qc -> !qcs
    %ps02 = tcp.collect %ps01 : !qcs
    %ps03 = tcp.vector %ps02 [add_f vrf(%pv0 : !qcv)] : !qcs
    %ps04 = tcp.cast %ps03 : !qcs -> !qcsb
    %qs0 = tcp.commit %ps04 : !qcsb -> !qcb
    %pa1 = tcp.dm_view %pa offset 2048 : !qraw -> !qc
    %pb1 = tcp.dm_view %pb offset 2048 : !qraw -> !qc
    %pv11 = tcp.fetch main %pb1 : !qc -> !qcs
    %pv12 = tcp.collect %pv11 : !qcs
    %pv1 = tcp.to_vrf %pv12 : !qcs -> !qcv
    %ps11 = tcp.fetch main %pa1 : !qc -> !qcs
    %ps12 = tcp.collect %ps11 : !qcs
    %ps13 = tcp.vector %ps12 [add_f vrf(%pv1 : !qcv)] : !qcs
    %ps14 = tcp.cast %ps13 : !qcs -> !qcsb
    %qs1 = tcp.commit %ps14 : !qcsb -> !qcb
    %qj = tcp.dm_join %qs0, %qs1 : !qcb, !qcb -> !qcj
    %qr = tcp.reinterpret %qj : !qcj -> !qrawb

    // v's heads to the cache while the q and k heads are normalised.
    %w1 = tcp.fetch sub %qr : !qrawb -> !vin
    %w2 = tcp.switch broadcast1 %w1 : !vin -> !vout
    %w3 = tcp.collect %w2 : !vout
    %vrows = tcp.commit %w3 : !vout -> !rows
    %vview = tcp.dm_view %vrows offset 0 slices 192 : !rows -> !kvrows
    tcp.dma %vview into %v_cache : !kvrows -> !cache

    // The sums of squares per token and head: q to bf16 with 4 tokens in the lanes, then
    // 8 chunks of 32 tokens (the reducer's 8 slots of 4 tokens), a head's 8 slices added.
    %q1 = tcp.fetch main %qr : !qrawb -> !qtinb
    %q2 = tcp.collect %q1 : !qtinb
    %q4 = tcp.transpose %q2 : !qtinb -> !qtout
    %qtd = tcp.commit %q4 : !qtout -> !qt
    %c0v = tcp.dm_view %qtd offset 0 : !qt -> !qtc
    %c0f = tcp.fetch main %c0v : !qtc -> !hsq
    %c0c = tcp.collect %c0f : !hsq
    %c0r = tcp.vector %c0c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c0 = tcp.commit %c0r : !hss -> !hssdm
    %c1v = tcp.dm_view %qtd offset 512 : !qt -> !qtc
    %c1f = tcp.fetch main %c1v : !qtc -> !hsq
    %c1c = tcp.collect %c1f : !hsq
    %c1r = tcp.vector %c1c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c1 = tcp.commit %c1r : !hss -> !hssdm
    %c2v = tcp.dm_view %qtd offset 1024 : !qt -> !qtc
    %c2f = tcp.fetch main %c2v : !qtc -> !hsq
    %c2c = tcp.collect %c2f : !hsq
    %c2r = tcp.vector %c2c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c2 = tcp.commit %c2r : !hss -> !hssdm
    %c3v = tcp.dm_view %qtd offset 1536 : !qt -> !qtc
    %c3f = tcp.fetch main %c3v : !qtc -> !hsq
    %c3c = tcp.collect %c3f : !hsq
    %c3r = tcp.vector %c3c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c3 = tcp.commit %c3r : !hss -> !hssdm
    %c4v = tcp.dm_view %qtd offset 2048 : !qt -> !qtc
    %c4f = tcp.fetch main %c4v : !qtc -> !hsq
    %c4c = tcp.collect %c4f : !hsq
    %c4r = tcp.vector %c4c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c4 = tcp.commit %c4r : !hss -> !hssdm
    %c5v = tcp.dm_view %qtd offset 2560 : !qt -> !qtc
    %c5f = tcp.fetch main %c5v : !qtc -> !hsq
    %c5c = tcp.collect %c5f : !hsq
    %c5r = tcp.vector %c5c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c5 = tcp.commit %c5r : !hss -> !hssdm
    %c6v = tcp.dm_view %qtd offset 3072 : !qt -> !qtc
    %c6f = tcp.fetch main %c6v : !qtc -> !hsq
    %c6c = tcp.collect %c6f : !hsq
    %c6r = tcp.vector %c6c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c6 = tcp.commit %c6r : !hss -> !hssdm
    %c7v = tcp.dm_view %qtd offset 3584 : !qt -> !qtc
    %c7f = tcp.fetch main %c7v : !qtc -> !hsq
    %c7c = tcp.collect %c7f : !hsq
    %c7r = tcp.vector %c7c [stash, mul_f stash, reduce_add_f, inter_add_f] : !hsq -> !hss
    %c7 = tcp.commit %c7r : !hss -> !hssdm
    %hj = tcp.dm_join %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7 : !hssdm, !hssdm, !hssdm, !hssdm, !hssdm, !hssdm, !hssdm, !hssdm -> !hssj
    %hs = tcp.reinterpret %hj : !hssj -> !hsst
    %h1 = tcp.fetch main %hs : !hsst -> !hsts
    %h2 = tcp.collect %h1 : !hsts
    %h3 = tcp.vector %h2 [fma_f 7.812500e-03 + 1.0e-06, sqrt_f] : !hsts
    %hr = tcp.commit %h3 : !hsts -> !hsst
    %h4 = tcp.fetch main %hr : !hsst -> !hsts
    %h5 = tcp.collect %h4 : !hsts
    %hrv = tcp.to_vrf %h5 : !hsts -> !hrvrf
    %hwd = tcp.dma %head_rms_weight : !hwh -> !hw
    %h6 = tcp.fetch sub %hwd : !hw -> !hws
    %h7 = tcp.collect %h6 : !hws
    %hwv = tcp.to_vrf %h7 : !hws -> !hwvrf
    %e1 = tcp.fetch main %qr : !qrawb -> !qs
    %e2 = tcp.collect %e1 : !qs
    %e3 = tcp.vector %e2 [mul_f vrf(%hwv : !hwvrf)] : !qs
    %qw = tcp.commit %e3 : !qs -> !qraw
    %e4 = tcp.fetch main %qw : !qraw -> !qws
    %e5 = tcp.collect %e4 : !qws
    %e6 = tcp.vector %e5 [div_f vrf(%hrv : !hrvrf)] : !qws
    %qnd = tcp.commit %e6 {cast} : !qws -> !qn

    // RoPE.
    %sin1 = tcp.dma %sin : !ropeh -> !tab1
    %sind = tcp.dma %sin1 : !tab1 -> !tab
    %cos1 = tcp.dma %cos : !ropeh -> !tab1
    %cosd = tcp.dma %cos1 : !tab1 -> !tab
    %x0 = tcp.dm_view %qnd offset 0 : !qn -> !half
    %x1 = tcp.dm_view %qnd offset 8 : !qn -> !half
    %sv1 = tcp.fetch main %sind : !tab -> !tabs
    %sv2 = tcp.collect %sv1 : !tabs
    %sinv = tcp.to_vrf %sv2 : !tabs -> !tabv
    %a01 = tcp.fetch main %x1 : !half -> !halfs
    %a02 = tcp.collect %a01 : !halfs
    %a03 = tcp.vector %a02 [fma_f -1.0 + 0.0, mul_f vrf(%sinv : !tabv)] : !halfs
    %ra0 = tcp.commit %a03 : !halfs -> !part
    %a11 = tcp.fetch main %x0 : !half -> !halfs
    %a12 = tcp.collect %a11 : !halfs
    %a13 = tcp.vector %a12 [mul_f vrf(%sinv : !tabv)] : !halfs
    %ra1 = tcp.commit %a13 : !halfs -> !part
    %cv1 = tcp.fetch main %cosd : !tab -> !tabs
    %cv2 = tcp.collect %cv1 : !tabs
    %cosv = tcp.to_vrf %cv2 : !tabs -> !tabv
    %b01 = tcp.fetch main %x0 : !half -> !halfs
    %b02 = tcp.collect %b01 : !halfs
    %b03 = tcp.vector %b02 [mul_f vrf(%cosv : !tabv)] : !halfs
    %rb0 = tcp.commit %b03 : !halfs -> !part
    %b11 = tcp.fetch main %x1 : !half -> !halfs
    %b12 = tcp.collect %b11 : !halfs
    %b13 = tcp.vector %b12 [mul_f vrf(%cosv : !tabv)] : !halfs
    %rb1 = tcp.commit %b13 : !halfs -> !part
    %av1 = tcp.fetch main %ra0 : !part -> !halfs
    %av2 = tcp.collect %av1 : !halfs
    %a0v = tcp.to_vrf %av2 : !halfs -> !partv
    %o01 = tcp.fetch main %rb0 : !part -> !halfs
    %o02 = tcp.collect %o01 : !halfs
    %o03 = tcp.vector %o02 [add_f vrf(%a0v : !partv)] : !halfs
    %ro0 = tcp.commit %o03 {cast} : !halfs -> !outb
    %aw1 = tcp.fetch main %ra1 : !part -> !halfs
    %aw2 = tcp.collect %aw1 : !halfs
    %a1v = tcp.to_vrf %aw2 : !halfs -> !partv
    %o11 = tcp.fetch main %rb1 : !part -> !halfs
    %o12 = tcp.collect %o11 : !halfs
    %o13 = tcp.vector %o12 [add_f vrf(%a1v : !partv)] : !halfs
    %ro1 = tcp.commit %o13 {cast} : !halfs -> !outb
    %oj = tcp.dm_join %ro0, %ro1 : !outb, !outb -> !outj
    %ro = tcp.reinterpret %oj : !outj -> !rope

    %qview = tcp.dm_view %ro offset 0 slices 0 : !rope -> !qv
    tcp.dma %qview into %q_out : !qv -> !qo
    %k1 = tcp.fetch main %ro : !rope -> !gin
    %k2 = tcp.switch broadcast1 %k1 : !gin -> !gout
    %k3 = tcp.collect %k2 : !gout
    %krows = tcp.commit %k3 : !gout -> !rows
    %kview = tcp.dm_view %krows offset 0 slices 128 : !rows -> !kvrows
    tcp.dma %kview into %k_cache : !kvrows -> !cache
    return
  }
}
