// Qwen3-0.6B multi-token `prefill_decoder` stage: the rest of a layer after attention, for a
// block of T = 512 tokens.
//   r = bf16(x + a W_o^T)                       (o_proj, K = Q = 2048 split in 4 blocks)
//   h = bf16(RMSNorm(r) post_rms_weight)         (eps 1e-6)
//   p = bf16(silu(h W_gate^T) * (h W_up^T))      (silu(g) = f32(sigmoid(g)) * g)
//   y = bf16(r + p W_down^T)                     (down, K = L = 3072 split in 3 blocks)
//
// Signature:
//   attn        [T, Q] bf16 (prefill_attention_first's a; Q = 128 head + d), layout
//               [Q / 16, T, Q % 16]
//   x, y        [T, H] bf16, the layer's input and output (the residual stream), layout
//               [T / 256, T % 256 / 64, H / 16, T % 64, H % 16] (prefill_projection's x)
//   o_weight [H, Q], post_rms_weight [H], gate_weight and up_weight [L, H], down_weight [H, L]
//
// Placement: tokens split over the clusters (T / 256, 256 each); each weight on one slice of
// each cluster, used by all 256 of its tokens while it sits in the TRF. After o_proj, the work
// runs in two halves of each cluster's tokens (T % 64 / 32: 32 of each slice's 64 in x's
// layout), so that one half's DMAs and short passes run beside the other half's contraction.
// 1. o_proj: 1024 rows x 2048 is 16 rows x 512 per slice, so K is split in 4 blocks (KS):
//    slice (KS, H / 16) holds rows H / 16 (8 lanes, two time-broadcast rows) x block KS, and
//    the 64 slices of a block are a ring that broadcasts a's block (128 tokens x 16 values per
//    slice, 8,192 cycles), for all the tokens at once.
// 2. Per half: a DMA gathers the 4 partial sums (f32) of 32 tokens x 16 rows onto slice
//    (T % 256 / 64, H / 16) (the inter-slice reducer adds only innermost slices; the ring needs
//    the blocks outermost), ((p0 + p1) + p2) + p3 + x through the VRF, then the RMSNorm of r in
//    x's layout, as prefill_projection normalises x (the half's 32 tokens in the reducer's 8
//    slots of 4).
// 3. gate/up: 3072 pairs, 16 per slice on 192 slices (each lane holds the gate and up rows of
//    two pairs: four time-broadcast rows, 64 KB of TRF), h's half broadcast around the
//    256-slice ring (16,384 cycles a half); silu(g) u per 64 tokens with u from the VRF.
// 4. down: 1024 rows x 3072 is 16 rows x 1024 per slice on 192 slices (K in 3 blocks); per
//    quarter of the tokens (each half's T % 32 / 16), a DMA lays p out for the ring of each
//    block (32 tokens x 32 values per slice), contracted in the order [L % 32 / 16,
//    L % 1024 / 32, L % 16] (4,096 cycles a quarter); the partials are gathered and added like
//    o_proj's, plus r, so only the last quarter's gather and additions follow the contractions.
// Each token's sums are added in the same order as with the whole block at once.
// Rounding points: r, h, p and y are bf16; the contraction sums, the partial sums' additions,
// the norm and silu(g) u are f32.
!ah = !tcp.hbm<bf16, "[Q / 16, T, Q % 16]">
!x = !tcp.hbm<bf16, "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]">
!vec = !tcp.hbm<bf16, "H">
!ow = !tcp.hbm<bf16, "[H, Q]">
!lw = !tcp.hbm<bf16, "[L, H]">
!dw = !tcp.hbm<bf16, "[H, L]">

// o_proj: a's block KS broadcast around its 64-slice ring; W_o's rows and block in the TRF.
!adm = !tcp.dm<bf16, cluster = "T / 256", slice = "[Q / 512, T % 256 / 128, Q % 512 / 16]", elem = "[T % 128, Q % 16]">
!af = !tcp.stream<bf16, cluster = "T / 256", slice = "[Q / 512, T % 256 / 128, Q % 512 / 16]", time = "T % 128", packet = "Q % 16">
!as = !tcp.stream<bf16, cluster = "T / 256", slice = "[Q / 512, X64]", time = "[T % 128, T % 256 / 128, Q % 512 / 16]", packet = "Q % 16">
!owdm = !tcp.dm<bf16, cluster = "C2", slice = "[Q / 512, H / 16]", elem = "[H % 16, Q % 512]">
!owload = !tcp.stream<bf16, cluster = "C2", slice = "[Q / 512, H / 16]", time = "[H % 8, H % 16 / 8, Q % 512 / 16]", packet = "Q % 16">
!owtrf = !tcp.trf<bf16, cluster = "C2", slice = "[Q / 512, H / 16]", lane = "H % 8", elem = "[H % 16 / 8, Q % 512]">
!oacc = !tcp.stream<f32, cluster = "T / 256", slice = "[KS, H / 16]", time = "[T % 128, T % 256 / 128, H % 16 / 8]", packet = "H % 8">
!part = !tcp.dm<f32, cluster = "T / 256", slice = "[KS, H / 16]", elem = "[T % 256 / 64, T % 64, H % 16]">

// The rest in two halves of the tokens (K4 = T % 256 / 64, U = T % 32; half h holds the
// tokens with T % 64 / 32 = h, 32 of each slice's 64 in x's layout), so that one half's DMAs
// (partial-sum gathers, p's layout) and short passes run beside the other half's contraction.
// x over those axes (P2 = T % 64 / 32) through a view of the argument (y likewise, below).
!xv = !tcp.hbm<bf16, "[K2, K4, H / 16, P2, U, H % 16]">
!xj = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[P2, U, H % 16]">
!half = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[U, H % 16]">
// A half's partial sums gathered onto slice (K4, H / 16) and added with the residual.
!parth = !tcp.dm<f32, cluster = "K2", slice = "[KS, H / 16]", elem = "[K4, U # 64, H % 16]">
!parts = !tcp.dm<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[KS, U, H % 16]">
!one = !tcp.dm<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[U, H % 16]">
!ones = !tcp.stream<f32, cluster = "K2", slice = "[K4, H / 16]", time = "[U, H % 16 / 8]", packet = "H % 8">
!onesb = !tcp.stream<bf16, cluster = "K2", slice = "[K4, H / 16]", time = "[U, H % 16 / 8]", packet = "H % 8">
!onevrf = !tcp.vrf<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[U, H % 16]">

// h = RMSNorm(r) for a half (the projection's x RMSNorm): the transpose puts 4 tokens in the
// lanes, the reducer's 8 slots sum the half's 32 tokens, the inter-slice reducer a row's 64
// slices.
!trin = !tcp.stream<bf16, cluster = "K2", slice = "[K4, H / 16]", time = "[U / 4, U % 4, H % 16 / 8]", packet = "H % 8">
!trout = !tcp.stream<bf16, cluster = "K2", slice = "[K4, H / 16]", time = "[U / 4, H % 16 / 8, H % 8]", packet = "U % 4">
!xtc = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[U / 4, H % 16, U % 4]">
!sqin = !tcp.stream<f32, cluster = "K2", slice = "[K4, H / 16]", time = "[H % 16, U / 4]", packet = "U % 4">
!ssc = !tcp.stream<f32, cluster = "K2", slice = "[K4, X64]", time = "U / 4", packet = "U % 4">
!ssdm = !tcp.dm<f32, cluster = "K2", slice = "[K4, X64]", elem = "U">
!sss = !tcp.stream<f32, cluster = "K2", slice = "[K4, X64]", time = "U / 8", packet = "U % 8">
!rsub = !tcp.stream<f32, cluster = "K2", slice = "[K4, X64]", time = "U / 2", packet = "U % 2">
!rvrf = !tcp.vrf<f32, cluster = "K2", slice = "[K4, X64]", elem = "U">
!wn = !tcp.dm<bf16, cluster = "C2", slice = "[R4, H / 16]", elem = "H % 16">
!wnsub = !tcp.stream<f32, cluster = "C2", slice = "[R4, H / 16]", time = "H % 16 / 2", packet = "H % 2">
!wnvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R4, H / 16]", elem = "H % 16">
!xws = !tcp.stream<f32, cluster = "K2", slice = "[K4, H / 16]", time = "[H % 16 / 8, U]", packet = "H % 8">

// gate/up: slice L / 16 (192 of 256) holds pairs L % 16: lane L % 8, rows [L % 16 / 8, GU]
// (GU: 0 gate, 1 up). h's half is broadcast around the 256-slice ring as in prefill_projection.
!xf = !tcp.stream<bf16, cluster = "K2", slice = "[K4, H / 16]", time = "U", packet = "H % 16">
!xn = !tcp.stream<bf16, cluster = "K2", slice = "X256", time = "[U, K4, H / 16]", packet = "H % 16">
!guh = !tcp.dm<bf16, cluster = "C2", slice = "L / 16 # 256", elem = "[L % 16, H]">
!gudm = !tcp.dm<bf16, cluster = "C2", slice = "L / 16 # 256", elem = "[GU, L % 16, H]">
!guload = !tcp.stream<bf16, cluster = "C2", slice = "L / 16 # 256", time = "[L % 8, L % 16 / 8, GU, H / 16]", packet = "H % 16">
!gutrf = !tcp.trf<bf16, cluster = "C2", slice = "L / 16 # 256", lane = "L % 8", elem = "[L % 16 / 8, GU, H]">
!guacc = !tcp.stream<f32, cluster = "K2", slice = "L / 16 # 256", time = "[U, K4, L % 16 / 8, GU]", packet = "L % 8">
!gures = !tcp.dm<f32, cluster = "K2", slice = "L / 16 # 256", elem = "[K4, U, L % 16 / 8, GU, L % 8]">
// silu(g) u for 64 tokens (U64 = [K4 % 2, U]) at a time: g and u through views 8 cells apart.
!gview = !tcp.dm<f32, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN # 16]">
!gs = !tcp.stream<f32, cluster = "K2", slice = "LS # 256", time = "[U64, J2]", packet = "LN">
!gsb = !tcp.stream<bf16, cluster = "K2", slice = "LS # 256", time = "[U64, J2]", packet = "LN">
!uvrf = !tcp.vrf<f32, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN]">
!pc = !tcp.dm<bf16, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN]">
!pj = !tcp.dm<bf16, cluster = "K2", slice = "LS # 256", elem = "[P2, U64, J2, LN]">
!ph = !tcp.dm<bf16, cluster = "K2", slice = "L / 16 # 256", elem = "[K4, U, L % 16]">

// down: slice (L / 1024, H / 16) (192 of 256) holds 16 rows x block L / 1024 (K in 3 blocks).
// p's half laid out for the block's ring: slice (K4 / 2, L % 1024 / 32) of it holds 64 tokens
// x 32 values, contracted in the order [L % 32 / 16, L % 1024 / 32, L % 16].
// Down runs in quarters of the tokens (U16 = T % 16; quarter (h, j) holds half h's tokens with
// U / 16 = j), so that only the last quarter's gather and additions follow the contractions.
!pq = !tcp.dm<bf16, cluster = "K2", slice = "L / 16 # 256", elem = "[K4, U16 # 32, L % 16]">
!ddm = !tcp.dm<bf16, cluster = "K2", slice = "[L / 1024 # 4, K4 / 2, L % 1024 / 32]", elem = "[L % 32 / 16, K4 % 2, U16, L % 16]">
!df = !tcp.stream<bf16, cluster = "K2", slice = "[L / 1024 # 4, K4 / 2, L % 1024 / 32]", time = "[K4 % 2, U16, L % 32 / 16]", packet = "L % 16">
!ds = !tcp.stream<bf16, cluster = "K2", slice = "[L / 1024 # 4, X64]", time = "[K4 % 2, U16, L % 32 / 16, K4 / 2, L % 1024 / 32]", packet = "L % 16">
!dwdm = !tcp.dm<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", elem = "[H % 16, L % 1024]">
!dwload = !tcp.stream<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", time = "[H % 8, H % 16 / 8, L % 32 / 16, L % 1024 / 32]", packet = "L % 16">
!dwtrf = !tcp.trf<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", lane = "H % 8", elem = "[H % 16 / 8, L % 32 / 16, L % 1024 / 32, L % 16]">
!dacc = !tcp.stream<f32, cluster = "K2", slice = "[KS3 # 4, H / 16]", time = "[K4 % 2, U16, K4 / 2, H % 16 / 8]", packet = "H % 8">
!dpart = !tcp.dm<f32, cluster = "K2", slice = "[KS3 # 4, H / 16]", elem = "[K4, U16, H % 16]">
!dparts = !tcp.dm<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[KS3, U16, H % 16]">
!qone = !tcp.dm<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[U16, H % 16]">
!qones = !tcp.stream<f32, cluster = "K2", slice = "[K4, H / 16]", time = "[U16, H % 16 / 8]", packet = "H % 8">
!qonesb = !tcp.stream<bf16, cluster = "K2", slice = "[K4, H / 16]", time = "[U16, H % 16 / 8]", packet = "H % 8">
!qonevrf = !tcp.vrf<f32, cluster = "K2", slice = "[K4, H / 16]", elem = "[U16, H % 16]">
!quarter = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[U16, H % 16]">
!yq = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[Q4, U16, H % 16]">
!yv = !tcp.hbm<bf16, "[K2, K4, H / 16, Q4, U16, H % 16]">

module attributes {tcp.axes = {T = 512, H = 1024, Q = 2048, L = 3072, X64 = 64, X256 = 256,
                               C2 = 2, KS = 4, KS3 = 3, K2 = 2, K4 = 4, U = 32, P2 = 2, R4 = 4,
                               GU = 2, LS = 192, U64 = 64, J2 = 2, LN = 8, U16 = 16, Q4 = 4}} {
  func.func @prefill_decoder(%attn: !ah {tcp.arg = "in", tcp.name = "attn"},
                             %x: !x {tcp.arg = "in", tcp.name = "x"},
                             %o_weight: !ow {tcp.arg = "in", tcp.name = "o_weight"},
                             %post_rms_weight: !vec {tcp.arg = "in", tcp.name = "post_rms_weight"},
                             %gate_weight: !lw {tcp.arg = "in", tcp.name = "gate_weight"},
                             %up_weight: !lw {tcp.arg = "in", tcp.name = "up_weight"},
                             %down_weight: !dw {tcp.arg = "in", tcp.name = "down_weight"},
                             %y: !x {tcp.arg = "out", tcp.name = "y"}) {
    // 1. o_proj: partial sums per block of K, for all the tokens.
    %owd = tcp.dma %o_weight : !ow -> !owdm
    %ow1 = tcp.fetch main %owd : !owdm -> !owload
    %ow2 = tcp.collect %ow1 : !owload
    %owt = tcp.to_trf %ow2 : !owload -> !owtrf
    %ad = tcp.dma %attn : !ah -> !adm
    %aa1 = tcp.fetch main %ad : !adm -> !af
    %aa2 = tcp.switch broadcast1 %aa1 : !af -> !as
    %aa3 = tcp.collect %aa2 : !as
    %oa = tcp.contract %aa3, %owt pack 2 : !as, !owtrf -> !oacc
    %op = tcp.commit %oa : !oacc -> !part
    %xv = tcp.view %x offset 0 : !x -> !xv
    %xd = tcp.dma %xv : !xv -> !xj
    %wnd = tcp.dma %post_rms_weight : !vec -> !wn
    %n1 = tcp.fetch sub %wnd : !wn -> !wnsub
    %n2 = tcp.collect %n1 : !wnsub
    %wnv = tcp.to_vrf %n2 : !wnsub -> !wnvrf

    // 2. Half 0: r = bf16(((p0 + p1) + p2) + p3 + x), then h = bf16(RMSNorm(r) w).
    %op0 = tcp.dm_view %op offset 0 : !part -> !parth
    %ops0 = tcp.dma %op0 : !parth -> !parts
    %o00 = tcp.dm_view %ops0 offset 0 : !parts -> !one
    %o01 = tcp.dm_view %ops0 offset 512 : !parts -> !one
    %o02 = tcp.dm_view %ops0 offset 1024 : !parts -> !one
    %o03 = tcp.dm_view %ops0 offset 1536 : !parts -> !one
    %ob01a = tcp.fetch main %o01 : !one -> !ones
    %ob01b = tcp.collect %ob01a : !ones
    %ob01v = tcp.to_vrf %ob01b : !ones -> !onevrf
    %oc01a = tcp.fetch main %o00 : !one -> !ones
    %oc01b = tcp.collect %oc01a : !ones
    %oc01c = tcp.vector %oc01b [add_f vrf(%ob01v : !onevrf)] : !ones
    %os01 = tcp.commit %oc01c : !ones -> !one
    %ob02a = tcp.fetch main %o02 : !one -> !ones
    %ob02b = tcp.collect %ob02a : !ones
    %ob02v = tcp.to_vrf %ob02b : !ones -> !onevrf
    %oc02a = tcp.fetch main %os01 : !one -> !ones
    %oc02b = tcp.collect %oc02a : !ones
    %oc02c = tcp.vector %oc02b [add_f vrf(%ob02v : !onevrf)] : !ones
    %os02 = tcp.commit %oc02c : !ones -> !one
    %ob03a = tcp.fetch main %o03 : !one -> !ones
    %ob03b = tcp.collect %ob03a : !ones
    %ob03v = tcp.to_vrf %ob03b : !ones -> !onevrf
    %oc03a = tcp.fetch main %os02 : !one -> !ones
    %oc03b = tcp.collect %oc03a : !ones
    %oc03c = tcp.vector %oc03b [add_f vrf(%ob03v : !onevrf)] : !ones
    %os03 = tcp.commit %oc03c : !ones -> !one
    %x0 = tcp.dm_view %xd offset 0 : !xj -> !half
    %xx0a = tcp.fetch main %x0 : !half -> !ones
    %xx0b = tcp.collect %xx0a : !ones
    %xx0v = tcp.to_vrf %xx0b : !ones -> !onevrf
    %oc04a = tcp.fetch main %os03 : !one -> !ones
    %oc04b = tcp.collect %oc04a : !ones
    %oc04c = tcp.vector %oc04b [add_f vrf(%xx0v : !onevrf)] : !ones
    %oc04d = tcp.cast %oc04c : !ones -> !onesb
    %r0 = tcp.commit %oc04d : !onesb -> !half
    %t0a = tcp.fetch main %r0 : !half -> !trin
    %t0b = tcp.collect %t0a : !trin
    %t0c = tcp.transpose %t0b : !trin -> !trout
    %xt0 = tcp.commit %t0c : !trout -> !xtc
    %sq0a = tcp.fetch main %xt0 : !xtc -> !sqin
    %sq0b = tcp.collect %sq0a : !sqin
    %sq0c = tcp.vector %sq0b [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ssc
    %ss0 = tcp.commit %sq0c : !ssc -> !ssdm
    %rs0a = tcp.fetch main %ss0 : !ssdm -> !sss
    %rs0b = tcp.collect %rs0a : !sss
    %rs0c = tcp.vector %rs0b [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !sss
    %rd0 = tcp.commit %rs0c : !sss -> !ssdm
    %rv0a = tcp.fetch sub %rd0 : !ssdm -> !rsub
    %rv0b = tcp.collect %rv0a : !rsub
    %rv0 = tcp.to_vrf %rv0b : !rsub -> !rvrf
    %m0a = tcp.fetch main %r0 : !half -> !ones
    %m0b = tcp.collect %m0a : !ones
    %m0c = tcp.vector %m0b [mul_f vrf(%wnv : !wnvrf)] : !ones
    %xw0 = tcp.commit %m0c : !ones -> !one
    %dv0a = tcp.fetch main %xw0 : !one -> !xws
    %dv0b = tcp.collect %dv0a : !xws
    %dv0c = tcp.vector %dv0b [div_f vrf(%rv0 : !rvrf)] : !xws
    %hn0 = tcp.commit %dv0c {cast} : !xws -> !half

    // 2. Half 1: r = bf16(((p0 + p1) + p2) + p3 + x), then h = bf16(RMSNorm(r) w).
    %op1 = tcp.dm_view %op offset 512 : !part -> !parth
    %ops1 = tcp.dma %op1 : !parth -> !parts
    %o10 = tcp.dm_view %ops1 offset 0 : !parts -> !one
    %o11 = tcp.dm_view %ops1 offset 512 : !parts -> !one
    %o12 = tcp.dm_view %ops1 offset 1024 : !parts -> !one
    %o13 = tcp.dm_view %ops1 offset 1536 : !parts -> !one
    %ob11a = tcp.fetch main %o11 : !one -> !ones
    %ob11b = tcp.collect %ob11a : !ones
    %ob11v = tcp.to_vrf %ob11b : !ones -> !onevrf
    %oc11a = tcp.fetch main %o10 : !one -> !ones
    %oc11b = tcp.collect %oc11a : !ones
    %oc11c = tcp.vector %oc11b [add_f vrf(%ob11v : !onevrf)] : !ones
    %os11 = tcp.commit %oc11c : !ones -> !one
    %ob12a = tcp.fetch main %o12 : !one -> !ones
    %ob12b = tcp.collect %ob12a : !ones
    %ob12v = tcp.to_vrf %ob12b : !ones -> !onevrf
    %oc12a = tcp.fetch main %os11 : !one -> !ones
    %oc12b = tcp.collect %oc12a : !ones
    %oc12c = tcp.vector %oc12b [add_f vrf(%ob12v : !onevrf)] : !ones
    %os12 = tcp.commit %oc12c : !ones -> !one
    %ob13a = tcp.fetch main %o13 : !one -> !ones
    %ob13b = tcp.collect %ob13a : !ones
    %ob13v = tcp.to_vrf %ob13b : !ones -> !onevrf
    %oc13a = tcp.fetch main %os12 : !one -> !ones
    %oc13b = tcp.collect %oc13a : !ones
    %oc13c = tcp.vector %oc13b [add_f vrf(%ob13v : !onevrf)] : !ones
    %os13 = tcp.commit %oc13c : !ones -> !one
    %x1 = tcp.dm_view %xd offset 512 : !xj -> !half
    %xx1a = tcp.fetch main %x1 : !half -> !ones
    %xx1b = tcp.collect %xx1a : !ones
    %xx1v = tcp.to_vrf %xx1b : !ones -> !onevrf
    %oc14a = tcp.fetch main %os13 : !one -> !ones
    %oc14b = tcp.collect %oc14a : !ones
    %oc14c = tcp.vector %oc14b [add_f vrf(%xx1v : !onevrf)] : !ones
    %oc14d = tcp.cast %oc14c : !ones -> !onesb
    %r1 = tcp.commit %oc14d : !onesb -> !half
    %t1a = tcp.fetch main %r1 : !half -> !trin
    %t1b = tcp.collect %t1a : !trin
    %t1c = tcp.transpose %t1b : !trin -> !trout
    %xt1 = tcp.commit %t1c : !trout -> !xtc
    %sq1a = tcp.fetch main %xt1 : !xtc -> !sqin
    %sq1b = tcp.collect %sq1a : !sqin
    %sq1c = tcp.vector %sq1b [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ssc
    %ss1 = tcp.commit %sq1c : !ssc -> !ssdm
    %rs1a = tcp.fetch main %ss1 : !ssdm -> !sss
    %rs1b = tcp.collect %rs1a : !sss
    %rs1c = tcp.vector %rs1b [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !sss
    %rd1 = tcp.commit %rs1c : !sss -> !ssdm
    %rv1a = tcp.fetch sub %rd1 : !ssdm -> !rsub
    %rv1b = tcp.collect %rv1a : !rsub
    %rv1 = tcp.to_vrf %rv1b : !rsub -> !rvrf
    %m1a = tcp.fetch main %r1 : !half -> !ones
    %m1b = tcp.collect %m1a : !ones
    %m1c = tcp.vector %m1b [mul_f vrf(%wnv : !wnvrf)] : !ones
    %xw1 = tcp.commit %m1c : !ones -> !one
    %dv1a = tcp.fetch main %xw1 : !one -> !xws
    %dv1b = tcp.collect %dv1a : !xws
    %dv1c = tcp.vector %dv1b [div_f vrf(%rv1 : !rvrf)] : !xws
    %hn1 = tcp.commit %dv1c {cast} : !xws -> !half

    // 3. gate/up per half, then p = bf16(silu(g) u), 64 tokens at a time.
    %gd = tcp.dma %gate_weight : !lw -> !guh
    %ud = tcp.dma %up_weight : !lw -> !guh
    %gud = tcp.dm_join %gd, %ud : !guh, !guh -> !gudm
    %gu1 = tcp.fetch main %gud : !gudm -> !guload
    %gu2 = tcp.collect %gu1 : !guload
    %gut = tcp.to_trf %gu2 : !guload -> !gutrf
    %hb0a = tcp.fetch main %hn0 : !half -> !xf
    %hb0b = tcp.switch broadcast1 %hb0a : !xf -> !xn
    %hb0c = tcp.collect %hb0b : !xn
    %ga0 = tcp.contract %hb0c, %gut pack 2 : !xn, !gutrf -> !guacc
    %gr0 = tcp.commit %ga0 : !guacc -> !gures
    %g00a = tcp.dm_view %gr0 offset 0 : !gures -> !gview
    %u00a = tcp.dm_view %gr0 offset 8 : !gures -> !gview
    %u00b = tcp.fetch main %u00a : !gview -> !gs
    %u00c = tcp.collect %u00b : !gs
    %u00v = tcp.to_vrf %u00c : !gs -> !uvrf
    %g00b = tcp.fetch main %g00a : !gview -> !gs
    %g00c = tcp.collect %g00b : !gs
    %g00d = tcp.vector %g00c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u00v : !uvrf)] : !gs
    %g00e = tcp.cast %g00d : !gs -> !gsb
    %p00 = tcp.commit %g00e : !gsb -> !pc
    %g01a = tcp.dm_view %gr0 offset 2048 : !gures -> !gview
    %u01a = tcp.dm_view %gr0 offset 2056 : !gures -> !gview
    %u01b = tcp.fetch main %u01a : !gview -> !gs
    %u01c = tcp.collect %u01b : !gs
    %u01v = tcp.to_vrf %u01c : !gs -> !uvrf
    %g01b = tcp.fetch main %g01a : !gview -> !gs
    %g01c = tcp.collect %g01b : !gs
    %g01d = tcp.vector %g01c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u01v : !uvrf)] : !gs
    %g01e = tcp.cast %g01d : !gs -> !gsb
    %p01 = tcp.commit %g01e : !gsb -> !pc
    %pj0 = tcp.dm_join %p00, %p01 : !pc, !pc -> !pj
    %p0 = tcp.reinterpret %pj0 : !pj -> !ph
    %hb1a = tcp.fetch main %hn1 : !half -> !xf
    %hb1b = tcp.switch broadcast1 %hb1a : !xf -> !xn
    %hb1c = tcp.collect %hb1b : !xn
    %ga1 = tcp.contract %hb1c, %gut pack 2 : !xn, !gutrf -> !guacc
    %gr1 = tcp.commit %ga1 : !guacc -> !gures
    %g10a = tcp.dm_view %gr1 offset 0 : !gures -> !gview
    %u10a = tcp.dm_view %gr1 offset 8 : !gures -> !gview
    %u10b = tcp.fetch main %u10a : !gview -> !gs
    %u10c = tcp.collect %u10b : !gs
    %u10v = tcp.to_vrf %u10c : !gs -> !uvrf
    %g10b = tcp.fetch main %g10a : !gview -> !gs
    %g10c = tcp.collect %g10b : !gs
    %g10d = tcp.vector %g10c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u10v : !uvrf)] : !gs
    %g10e = tcp.cast %g10d : !gs -> !gsb
    %p10 = tcp.commit %g10e : !gsb -> !pc
    %g11a = tcp.dm_view %gr1 offset 2048 : !gures -> !gview
    %u11a = tcp.dm_view %gr1 offset 2056 : !gures -> !gview
    %u11b = tcp.fetch main %u11a : !gview -> !gs
    %u11c = tcp.collect %u11b : !gs
    %u11v = tcp.to_vrf %u11c : !gs -> !uvrf
    %g11b = tcp.fetch main %g11a : !gview -> !gs
    %g11c = tcp.collect %g11b : !gs
    %g11d = tcp.vector %g11c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u11v : !uvrf)] : !gs
    %g11e = tcp.cast %g11d : !gs -> !gsb
    %p11 = tcp.commit %g11e : !gsb -> !pc
    %pj1 = tcp.dm_join %p10, %p11 : !pc, !pc -> !pj
    %p1 = tcp.reinterpret %pj1 : !pj -> !ph

    // 4. down per quarter: p laid out for the rings, partial sums per block,
    // y = bf16(((d0 + d1) + d2) + r).
    %dwd = tcp.dma %down_weight : !dw -> !dwdm
    %dw1 = tcp.fetch main %dwd : !dwdm -> !dwload
    %dw2 = tcp.collect %dw1 : !dwload
    %dwt = tcp.to_trf %dw2 : !dwload -> !dwtrf
    %pq00 = tcp.dm_view %p0 offset 0 : !ph -> !pq
    %pd00 = tcp.dma %pq00 : !pq -> !ddm
    %dd00a = tcp.fetch main %pd00 : !ddm -> !df
    %dd00b = tcp.switch broadcast1 %dd00a : !df -> !ds
    %dd00c = tcp.collect %dd00b : !ds
    %da00 = tcp.contract %dd00c, %dwt pack 2 : !ds, !dwtrf -> !dacc
    %dp00 = tcp.commit %da00 : !dacc -> !dpart
    %dps00 = tcp.dma %dp00 : !dpart -> !dparts
    %e000 = tcp.dm_view %dps00 offset 0 : !dparts -> !qone
    %e001 = tcp.dm_view %dps00 offset 256 : !dparts -> !qone
    %e002 = tcp.dm_view %dps00 offset 512 : !dparts -> !qone
    %f001a = tcp.fetch main %e001 : !qone -> !qones
    %f001b = tcp.collect %f001a : !qones
    %f001v = tcp.to_vrf %f001b : !qones -> !qonevrf
    %k001a = tcp.fetch main %e000 : !qone -> !qones
    %k001b = tcp.collect %k001a : !qones
    %k001c = tcp.vector %k001b [add_f vrf(%f001v : !qonevrf)] : !qones
    %ks001 = tcp.commit %k001c : !qones -> !qone
    %f002a = tcp.fetch main %e002 : !qone -> !qones
    %f002b = tcp.collect %f002a : !qones
    %f002v = tcp.to_vrf %f002b : !qones -> !qonevrf
    %k002a = tcp.fetch main %ks001 : !qone -> !qones
    %k002b = tcp.collect %k002a : !qones
    %k002c = tcp.vector %k002b [add_f vrf(%f002v : !qonevrf)] : !qones
    %ks002 = tcp.commit %k002c : !qones -> !qone
    %rq00 = tcp.dm_view %r0 offset 0 : !half -> !quarter
    %rr00a = tcp.fetch main %rq00 : !quarter -> !qones
    %rr00b = tcp.collect %rr00a : !qones
    %rr00v = tcp.to_vrf %rr00b : !qones -> !qonevrf
    %k003a = tcp.fetch main %ks002 : !qone -> !qones
    %k003b = tcp.collect %k003a : !qones
    %k003c = tcp.vector %k003b [add_f vrf(%rr00v : !qonevrf)] : !qones
    %k003d = tcp.cast %k003c : !qones -> !qonesb
    %y00 = tcp.commit %k003d : !qonesb -> !quarter
    %pq01 = tcp.dm_view %p0 offset 256 : !ph -> !pq
    %pd01 = tcp.dma %pq01 : !pq -> !ddm
    %dd01a = tcp.fetch main %pd01 : !ddm -> !df
    %dd01b = tcp.switch broadcast1 %dd01a : !df -> !ds
    %dd01c = tcp.collect %dd01b : !ds
    %da01 = tcp.contract %dd01c, %dwt pack 2 : !ds, !dwtrf -> !dacc
    %dp01 = tcp.commit %da01 : !dacc -> !dpart
    %dps01 = tcp.dma %dp01 : !dpart -> !dparts
    %e010 = tcp.dm_view %dps01 offset 0 : !dparts -> !qone
    %e011 = tcp.dm_view %dps01 offset 256 : !dparts -> !qone
    %e012 = tcp.dm_view %dps01 offset 512 : !dparts -> !qone
    %f011a = tcp.fetch main %e011 : !qone -> !qones
    %f011b = tcp.collect %f011a : !qones
    %f011v = tcp.to_vrf %f011b : !qones -> !qonevrf
    %k011a = tcp.fetch main %e010 : !qone -> !qones
    %k011b = tcp.collect %k011a : !qones
    %k011c = tcp.vector %k011b [add_f vrf(%f011v : !qonevrf)] : !qones
    %ks011 = tcp.commit %k011c : !qones -> !qone
    %f012a = tcp.fetch main %e012 : !qone -> !qones
    %f012b = tcp.collect %f012a : !qones
    %f012v = tcp.to_vrf %f012b : !qones -> !qonevrf
    %k012a = tcp.fetch main %ks011 : !qone -> !qones
    %k012b = tcp.collect %k012a : !qones
    %k012c = tcp.vector %k012b [add_f vrf(%f012v : !qonevrf)] : !qones
    %ks012 = tcp.commit %k012c : !qones -> !qone
    %rq01 = tcp.dm_view %r0 offset 256 : !half -> !quarter
    %rr01a = tcp.fetch main %rq01 : !quarter -> !qones
    %rr01b = tcp.collect %rr01a : !qones
    %rr01v = tcp.to_vrf %rr01b : !qones -> !qonevrf
    %k013a = tcp.fetch main %ks012 : !qone -> !qones
    %k013b = tcp.collect %k013a : !qones
    %k013c = tcp.vector %k013b [add_f vrf(%rr01v : !qonevrf)] : !qones
    %k013d = tcp.cast %k013c : !qones -> !qonesb
    %y01 = tcp.commit %k013d : !qonesb -> !quarter
    %pq10 = tcp.dm_view %p1 offset 0 : !ph -> !pq
    %pd10 = tcp.dma %pq10 : !pq -> !ddm
    %dd10a = tcp.fetch main %pd10 : !ddm -> !df
    %dd10b = tcp.switch broadcast1 %dd10a : !df -> !ds
    %dd10c = tcp.collect %dd10b : !ds
    %da10 = tcp.contract %dd10c, %dwt pack 2 : !ds, !dwtrf -> !dacc
    %dp10 = tcp.commit %da10 : !dacc -> !dpart
    %dps10 = tcp.dma %dp10 : !dpart -> !dparts
    %e100 = tcp.dm_view %dps10 offset 0 : !dparts -> !qone
    %e101 = tcp.dm_view %dps10 offset 256 : !dparts -> !qone
    %e102 = tcp.dm_view %dps10 offset 512 : !dparts -> !qone
    %f101a = tcp.fetch main %e101 : !qone -> !qones
    %f101b = tcp.collect %f101a : !qones
    %f101v = tcp.to_vrf %f101b : !qones -> !qonevrf
    %k101a = tcp.fetch main %e100 : !qone -> !qones
    %k101b = tcp.collect %k101a : !qones
    %k101c = tcp.vector %k101b [add_f vrf(%f101v : !qonevrf)] : !qones
    %ks101 = tcp.commit %k101c : !qones -> !qone
    %f102a = tcp.fetch main %e102 : !qone -> !qones
    %f102b = tcp.collect %f102a : !qones
    %f102v = tcp.to_vrf %f102b : !qones -> !qonevrf
    %k102a = tcp.fetch main %ks101 : !qone -> !qones
    %k102b = tcp.collect %k102a : !qones
    %k102c = tcp.vector %k102b [add_f vrf(%f102v : !qonevrf)] : !qones
    %ks102 = tcp.commit %k102c : !qones -> !qone
    %rq10 = tcp.dm_view %r1 offset 0 : !half -> !quarter
    %rr10a = tcp.fetch main %rq10 : !quarter -> !qones
    %rr10b = tcp.collect %rr10a : !qones
    %rr10v = tcp.to_vrf %rr10b : !qones -> !qonevrf
    %k103a = tcp.fetch main %ks102 : !qone -> !qones
    %k103b = tcp.collect %k103a : !qones
    %k103c = tcp.vector %k103b [add_f vrf(%rr10v : !qonevrf)] : !qones
    %k103d = tcp.cast %k103c : !qones -> !qonesb
    %y10 = tcp.commit %k103d : !qonesb -> !quarter
    %pq11 = tcp.dm_view %p1 offset 256 : !ph -> !pq
    %pd11 = tcp.dma %pq11 : !pq -> !ddm
    %dd11a = tcp.fetch main %pd11 : !ddm -> !df
    %dd11b = tcp.switch broadcast1 %dd11a : !df -> !ds
    %dd11c = tcp.collect %dd11b : !ds
    %da11 = tcp.contract %dd11c, %dwt pack 2 : !ds, !dwtrf -> !dacc
    %dp11 = tcp.commit %da11 : !dacc -> !dpart
    %dps11 = tcp.dma %dp11 : !dpart -> !dparts
    %e110 = tcp.dm_view %dps11 offset 0 : !dparts -> !qone
    %e111 = tcp.dm_view %dps11 offset 256 : !dparts -> !qone
    %e112 = tcp.dm_view %dps11 offset 512 : !dparts -> !qone
    %f111a = tcp.fetch main %e111 : !qone -> !qones
    %f111b = tcp.collect %f111a : !qones
    %f111v = tcp.to_vrf %f111b : !qones -> !qonevrf
    %k111a = tcp.fetch main %e110 : !qone -> !qones
    %k111b = tcp.collect %k111a : !qones
    %k111c = tcp.vector %k111b [add_f vrf(%f111v : !qonevrf)] : !qones
    %ks111 = tcp.commit %k111c : !qones -> !qone
    %f112a = tcp.fetch main %e112 : !qone -> !qones
    %f112b = tcp.collect %f112a : !qones
    %f112v = tcp.to_vrf %f112b : !qones -> !qonevrf
    %k112a = tcp.fetch main %ks111 : !qone -> !qones
    %k112b = tcp.collect %k112a : !qones
    %k112c = tcp.vector %k112b [add_f vrf(%f112v : !qonevrf)] : !qones
    %ks112 = tcp.commit %k112c : !qones -> !qone
    %rq11 = tcp.dm_view %r1 offset 256 : !half -> !quarter
    %rr11a = tcp.fetch main %rq11 : !quarter -> !qones
    %rr11b = tcp.collect %rr11a : !qones
    %rr11v = tcp.to_vrf %rr11b : !qones -> !qonevrf
    %k113a = tcp.fetch main %ks112 : !qone -> !qones
    %k113b = tcp.collect %k113a : !qones
    %k113c = tcp.vector %k113b [add_f vrf(%rr11v : !qonevrf)] : !qones
    %k113d = tcp.cast %k113c : !qones -> !qonesb
    %y11 = tcp.commit %k113d : !qonesb -> !quarter
    %yq = tcp.dm_join %y00, %y01, %y10, %y11 : !quarter, !quarter, !quarter, !quarter -> !yq
    %yv = tcp.view %y offset 0 : !x -> !yv
    tcp.dma %yq into %yv : !yq -> !yv
    return
  }
}
