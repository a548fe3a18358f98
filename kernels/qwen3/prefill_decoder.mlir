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
// each cluster, used by all 256 of its tokens while it sits in the TRF.
// 1. o_proj: 1024 rows x 2048 is 16 rows x 512 per slice, so K is split in 4 blocks (KS):
//    slice (KS, H / 16) holds rows H / 16 (8 lanes, two time-broadcast rows) x block KS, and
//    the 64 slices of a block are a ring that broadcasts a's block (128 tokens x 16 values per
//    slice, 8,192 cycles). The partial sums (f32) are added across the blocks by a DMA that
//    gathers the 4 partials of 64 tokens x 16 rows onto slice (T % 256 / 64, H / 16) (the
//    inter-slice reducer adds only innermost slices; the ring needs the blocks outermost),
//    then ((p0 + p1) + p2) + p3 + x through the VRF.
// 2. RMSNorm of r in x's layout, as prefill_projection normalises x.
// 3. gate/up: 3072 pairs, 16 per slice on 192 slices (each lane holds the gate and up rows of
//    two pairs: four time-broadcast rows, 64 KB of TRF), h broadcast around the 256-slice
//    ring (32,768 cycles); silu(g) u per 64 tokens with u from the VRF.
// 4. down: 1024 rows x 3072 is 16 rows x 1024 per slice on 192 slices (K in 3 blocks); a DMA
//    lays p out for the ring of each block (128 tokens x 32 values per slice), contracted in
//    the order [L % 32 / 16, L % 1024 / 32, L % 16] (16,384 cycles); the partials are added
//    like o_proj's, plus r.
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

// The partial sums of a block (KS) gathered per 64 tokens and added with the residual.
!part = !tcp.dm<f32, cluster = "T / 256", slice = "[KS, H / 16]", elem = "[T % 256 / 64, T % 64, H % 16]">
!parts = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[KS, T % 64, H % 16]">
!one = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">
!ones = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64, H % 16 / 8]", packet = "H % 8">
!onesb = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64, H % 16 / 8]", packet = "H % 8">
!onevrf = !tcp.vrf<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">

// h = RMSNorm(r), in r's layout (the projection's x RMSNorm): 64 tokens x 16 values per slice.
!xdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">
!trin = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64 / 4, T % 4, H % 16 / 8]", packet = "H % 8">
!trout = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64 / 4, H % 16 / 8, H % 8]", packet = "T % 4">
!xtdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64 / 4, H % 16, T % 4]">
// A chunk of 32 tokens (U) of the transposed r, its sums of squares, and the two joined.
!xtc = !tcp.dm<bf16, cluster = "K2", slice = "[K4, H / 16]", elem = "[U / 4, H % 16, U % 4]">
!sqin = !tcp.stream<f32, cluster = "K2", slice = "[K4, H / 16]", time = "[H % 16, U / 4]", packet = "U % 4">
!ssc = !tcp.stream<f32, cluster = "K2", slice = "[K4, X64]", time = "U / 4", packet = "U % 4">
!sscdm = !tcp.dm<f32, cluster = "K2", slice = "[K4, X64]", elem = "[U / 4, U % 4]">
!ssj = !tcp.dm<f32, cluster = "K2", slice = "[K4, X64]", elem = "[P2, U / 4, U % 4]">
!ssdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 64, X64]", elem = "T % 64">
!sss = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 64, X64]", time = "T % 64 / 8", packet = "T % 8">
!rsub = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 64, X64]", time = "T % 64 / 2", packet = "T % 2">
!rvrf = !tcp.vrf<f32, cluster = "T / 256", slice = "[T % 256 / 64, X64]", elem = "T % 64">
!wn = !tcp.dm<bf16, cluster = "C2", slice = "[R4, H / 16]", elem = "H % 16">
!wnsub = !tcp.stream<f32, cluster = "C2", slice = "[R4, H / 16]", time = "H % 16 / 2", packet = "H % 2">
!wnvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R4, H / 16]", elem = "H % 16">
!xs = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64, H % 16 / 8]", packet = "H % 8">
!xwdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">
!xws = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[H % 16 / 8, T % 64]", packet = "H % 8">

// gate/up: slice L / 16 (192 of 256) holds pairs L % 16: lane L % 8, rows [L % 16 / 8, GU]
// (GU: 0 gate, 1 up). h is broadcast around the 256-slice ring as in prefill_projection.
!xf = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "T % 64", packet = "H % 16">
!xn = !tcp.stream<bf16, cluster = "T / 256", slice = "X256", time = "[T % 64, T % 256 / 64, H / 16]", packet = "H % 16">
!guh = !tcp.dm<bf16, cluster = "C2", slice = "L / 16 # 256", elem = "[L % 16, H]">
!gudm = !tcp.dm<bf16, cluster = "C2", slice = "L / 16 # 256", elem = "[GU, L % 16, H]">
!guload = !tcp.stream<bf16, cluster = "C2", slice = "L / 16 # 256", time = "[L % 8, L % 16 / 8, GU, H / 16]", packet = "H % 16">
!gutrf = !tcp.trf<bf16, cluster = "C2", slice = "L / 16 # 256", lane = "L % 8", elem = "[L % 16 / 8, GU, H]">
!guacc = !tcp.stream<f32, cluster = "T / 256", slice = "L / 16 # 256", time = "[T % 64, T % 256 / 64, L % 16 / 8, GU]", packet = "L % 8">
!gures = !tcp.dm<f32, cluster = "T / 256", slice = "L / 16 # 256", elem = "[T % 256 / 64, T % 64, L % 16 / 8, GU, L % 8]">
// silu(g) u for 64 tokens (U64) at a time: g and u through views 8 cells apart.
!gview = !tcp.dm<f32, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN # 16]">
!gs = !tcp.stream<f32, cluster = "K2", slice = "LS # 256", time = "[U64, J2]", packet = "LN">
!gsb = !tcp.stream<bf16, cluster = "K2", slice = "LS # 256", time = "[U64, J2]", packet = "LN">
!uvrf = !tcp.vrf<f32, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN]">
!pc = !tcp.dm<bf16, cluster = "K2", slice = "LS # 256", elem = "[U64, J2, LN]">
!pj = !tcp.dm<bf16, cluster = "K2", slice = "LS # 256", elem = "[P4, U64, J2, LN]">
!pdm = !tcp.dm<bf16, cluster = "T / 256", slice = "L / 16 # 256", elem = "[T % 256 / 64, T % 64, L % 16]">

// down: slice (L / 1024, H / 16) (192 of 256) holds 16 rows x block L / 1024; p laid out for
// the block's ring: slice (T % 256 / 128, L % 1024 / 32) of it holds 128 tokens x 32 values.
!ddm = !tcp.dm<bf16, cluster = "T / 256", slice = "[L / 1024 # 4, T % 256 / 128, L % 1024 / 32]", elem = "[L % 32 / 16, T % 128, L % 16]">
!df = !tcp.stream<bf16, cluster = "T / 256", slice = "[L / 1024 # 4, T % 256 / 128, L % 1024 / 32]", time = "[T % 128, L % 32 / 16]", packet = "L % 16">
!ds = !tcp.stream<bf16, cluster = "T / 256", slice = "[L / 1024 # 4, X64]", time = "[T % 128, L % 32 / 16, T % 256 / 128, L % 1024 / 32]", packet = "L % 16">
!dwdm = !tcp.dm<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", elem = "[H % 16, L % 1024]">
!dwload = !tcp.stream<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", time = "[H % 8, H % 16 / 8, L % 32 / 16, L % 1024 / 32]", packet = "L % 16">
!dwtrf = !tcp.trf<bf16, cluster = "C2", slice = "[L / 1024 # 4, H / 16]", lane = "H % 8", elem = "[H % 16 / 8, L % 32 / 16, L % 1024 / 32, L % 16]">
!dacc = !tcp.stream<f32, cluster = "T / 256", slice = "[KS3 # 4, H / 16]", time = "[T % 128, T % 256 / 128, H % 16 / 8]", packet = "H % 8">
!dpart = !tcp.dm<f32, cluster = "T / 256", slice = "[KS3 # 4, H / 16]", elem = "[T % 256 / 64, T % 64, H % 16]">
!dparts = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[KS3, T % 64, H % 16]">

module attributes {tcp.axes = {T = 512, H = 1024, Q = 2048, L = 3072, X64 = 64, X256 = 256,
                               C2 = 2, KS = 4, U = 32, P2 = 2, K2 = 2, K4 = 4, R4 = 4, GU = 2,
                               LS = 192, U64 = 64, J2 = 2, LN = 8, P4 = 4, KS3 = 3}} {
  func.func @prefill_decoder(%attn: !ah {tcp.arg = "in", tcp.name = "attn"},
                             %x: !x {tcp.arg = "in", tcp.name = "x"},
                             %o_weight: !ow {tcp.arg = "in", tcp.name = "o_weight"},
                             %post_rms_weight: !vec {tcp.arg = "in", tcp.name = "post_rms_weight"},
                             %gate_weight: !lw {tcp.arg = "in", tcp.name = "gate_weight"},
                             %up_weight: !lw {tcp.arg = "in", tcp.name = "up_weight"},
                             %down_weight: !dw {tcp.arg = "in", tcp.name = "down_weight"},
                             %y: !x {tcp.arg = "out", tcp.name = "y"}) {
    // 1. o_proj: partial sums per block of K.
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
    %ops = tcp.dma %op : !part -> !parts
    // r = bf16(((p0 + p1) + p2) + p3 + x).
    %xd = tcp.dma %x : !x -> !xdm
    %o0 = tcp.dm_view %ops offset 0 : !parts -> !one
    %o1 = tcp.dm_view %ops offset 1024 : !parts -> !one
    %o2 = tcp.dm_view %ops offset 2048 : !parts -> !one
    %o3 = tcp.dm_view %ops offset 3072 : !parts -> !one
    %ob1 = tcp.fetch main %o1 : !one -> !ones
    %ob2 = tcp.collect %ob1 : !ones
    %ob3 = tcp.to_vrf %ob2 : !ones -> !onevrf
    %oc1 = tcp.fetch main %o0 : !one -> !ones
    %oc2 = tcp.collect %oc1 : !ones
    %oc3 = tcp.vector %oc2 [add_f vrf(%ob3 : !onevrf)] : !ones
    %os1 = tcp.commit %oc3 : !ones -> !one
    %ob4 = tcp.fetch main %o2 : !one -> !ones
    %ob5 = tcp.collect %ob4 : !ones
    %ob6 = tcp.to_vrf %ob5 : !ones -> !onevrf
    %oc4 = tcp.fetch main %os1 : !one -> !ones
    %oc5 = tcp.collect %oc4 : !ones
    %oc6 = tcp.vector %oc5 [add_f vrf(%ob6 : !onevrf)] : !ones
    %os2 = tcp.commit %oc6 : !ones -> !one
    %ob7 = tcp.fetch main %o3 : !one -> !ones
    %ob8 = tcp.collect %ob7 : !ones
    %ob9 = tcp.to_vrf %ob8 : !ones -> !onevrf
    %oc7 = tcp.fetch main %os2 : !one -> !ones
    %oc8 = tcp.collect %oc7 : !ones
    %oc9 = tcp.vector %oc8 [add_f vrf(%ob9 : !onevrf)] : !ones
    %os3 = tcp.commit %oc9 : !ones -> !one
    %xx1 = tcp.fetch main %xd : !xdm -> !ones
    %xx2 = tcp.collect %xx1 : !ones
    %xx3 = tcp.to_vrf %xx2 : !ones -> !onevrf
    %oc10 = tcp.fetch main %os3 : !one -> !ones
    %oc11 = tcp.collect %oc10 : !ones
    %oc12 = tcp.vector %oc11 [add_f vrf(%xx3 : !onevrf)] : !ones
    %oc13 = tcp.cast %oc12 : !ones -> !onesb
    %r = tcp.commit %oc13 : !onesb -> !xdm

    // 2. h = RMSNorm(r).
    %t1 = tcp.fetch main %r : !xdm -> !trin
    %t2 = tcp.collect %t1 : !trin
    %t3 = tcp.transpose %t2 : !trin -> !trout
    %xt = tcp.commit %t3 : !trout -> !xtdm
    %xt0 = tcp.dm_view %xt offset 0 : !xtdm -> !xtc
    %a1 = tcp.fetch main %xt0 : !xtc -> !sqin
    %a2 = tcp.collect %a1 : !sqin
    %a3 = tcp.vector %a2 [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ssc
    %s0 = tcp.commit %a3 : !ssc -> !sscdm
    %xt1 = tcp.dm_view %xt offset 512 : !xtdm -> !xtc
    %b1 = tcp.fetch main %xt1 : !xtc -> !sqin
    %b2 = tcp.collect %b1 : !sqin
    %b3 = tcp.vector %b2 [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ssc
    %s1 = tcp.commit %b3 : !ssc -> !sscdm
    %sj = tcp.dm_join %s0, %s1 : !sscdm, !sscdm -> !ssj
    %ss = tcp.reinterpret %sj : !ssj -> !ssdm
    %r1 = tcp.fetch main %ss : !ssdm -> !sss
    %r2 = tcp.collect %r1 : !sss
    %r3 = tcp.vector %r2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !sss
    %rd = tcp.commit %r3 : !sss -> !ssdm
    %v1 = tcp.fetch sub %rd : !ssdm -> !rsub
    %v2 = tcp.collect %v1 : !rsub
    %rv = tcp.to_vrf %v2 : !rsub -> !rvrf
    %wnd = tcp.dma %post_rms_weight : !vec -> !wn
    %n1 = tcp.fetch sub %wnd : !wn -> !wnsub
    %n2 = tcp.collect %n1 : !wnsub
    %wnv = tcp.to_vrf %n2 : !wnsub -> !wnvrf
    %m1 = tcp.fetch main %r : !xdm -> !xs
    %m2 = tcp.collect %m1 : !xs
    %m3 = tcp.vector %m2 [mul_f vrf(%wnv : !wnvrf)] : !xs
    %xw = tcp.commit %m3 : !xs -> !xwdm
    %d1 = tcp.fetch main %xw : !xwdm -> !xws
    %d2 = tcp.collect %d1 : !xws
    %d3 = tcp.vector %d2 [div_f vrf(%rv : !rvrf)] : !xws
    %xh = tcp.commit %d3 {cast} : !xws -> !xdm

    // 3. gate/up and p = bf16(silu(g) u), 64 tokens at a time.
    %gd = tcp.dma %gate_weight : !lw -> !guh
    %ud = tcp.dma %up_weight : !lw -> !guh
    %gud = tcp.dm_join %gd, %ud : !guh, !guh -> !gudm
    %gu1 = tcp.fetch main %gud : !gudm -> !guload
    %gu2 = tcp.collect %gu1 : !guload
    %gut = tcp.to_trf %gu2 : !guload -> !gutrf
    %h1 = tcp.fetch main %xh : !xdm -> !xf
    %h2 = tcp.switch broadcast1 %h1 : !xf -> !xn
    %h3 = tcp.collect %h2 : !xn
    %ga = tcp.contract %h3, %gut pack 2 : !xn, !gutrf -> !guacc
    %gr = tcp.commit %ga : !guacc -> !gures
    %g0a = tcp.dm_view %gr offset 0 : !gures -> !gview
    %u0a = tcp.dm_view %gr offset 8 : !gures -> !gview
    %u0b = tcp.fetch main %u0a : !gview -> !gs
    %u0c = tcp.collect %u0b : !gs
    %u0v = tcp.to_vrf %u0c : !gs -> !uvrf
    %g0b = tcp.fetch main %g0a : !gview -> !gs
    %g0c = tcp.collect %g0b : !gs
    %g0d = tcp.vector %g0c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u0v : !uvrf)] : !gs
    %g0e = tcp.cast %g0d : !gs -> !gsb
    %p0 = tcp.commit %g0e : !gsb -> !pc
    %g1a = tcp.dm_view %gr offset 2048 : !gures -> !gview
    %u1a = tcp.dm_view %gr offset 2056 : !gures -> !gview
    %u1b = tcp.fetch main %u1a : !gview -> !gs
    %u1c = tcp.collect %u1b : !gs
    %u1v = tcp.to_vrf %u1c : !gs -> !uvrf
    %g1b = tcp.fetch main %g1a : !gview -> !gs
    %g1c = tcp.collect %g1b : !gs
    %g1d = tcp.vector %g1c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u1v : !uvrf)] : !gs
    %g1e = tcp.cast %g1d : !gs -> !gsb
    %p1 = tcp.commit %g1e : !gsb -> !pc
    %g2a = tcp.dm_view %gr offset 4096 : !gures -> !gview
    %u2a = tcp.dm_view %gr offset 4104 : !gures -> !gview
    %u2b = tcp.fetch main %u2a : !gview -> !gs
    %u2c = tcp.collect %u2b : !gs
    %u2v = tcp.to_vrf %u2c : !gs -> !uvrf
    %g2b = tcp.fetch main %g2a : !gview -> !gs
    %g2c = tcp.collect %g2b : !gs
    %g2d = tcp.vector %g2c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u2v : !uvrf)] : !gs
    %g2e = tcp.cast %g2d : !gs -> !gsb
    %p2 = tcp.commit %g2e : !gsb -> !pc
    %g3a = tcp.dm_view %gr offset 6144 : !gures -> !gview
    %u3a = tcp.dm_view %gr offset 6152 : !gures -> !gview
    %u3b = tcp.fetch main %u3a : !gview -> !gs
    %u3c = tcp.collect %u3b : !gs
    %u3v = tcp.to_vrf %u3c : !gs -> !uvrf
    %g3b = tcp.fetch main %g3a : !gview -> !gs
    %g3c = tcp.collect %g3b : !gs
    %g3d = tcp.vector %g3c [stash, sigmoid_f, mul_f stash, mul_f vrf(%u3v : !uvrf)] : !gs
    %g3e = tcp.cast %g3d : !gs -> !gsb
    %p3 = tcp.commit %g3e : !gsb -> !pc
    %pjn = tcp.dm_join %p0, %p1, %p2, %p3 : !pc, !pc, !pc, !pc -> !pj
    %p = tcp.reinterpret %pjn : !pj -> !pdm

    // 4. down: p laid out for the rings, partial sums per block, y = bf16(sums + r).
    %dwd = tcp.dma %down_weight : !dw -> !dwdm
    %dw1 = tcp.fetch main %dwd : !dwdm -> !dwload
    %dw2 = tcp.collect %dw1 : !dwload
    %dwt = tcp.to_trf %dw2 : !dwload -> !dwtrf
    %pd = tcp.dma %p : !pdm -> !ddm
    %dd1 = tcp.fetch main %pd : !ddm -> !df
    %dd2 = tcp.switch broadcast1 %dd1 : !df -> !ds
    %dd3 = tcp.collect %dd2 : !ds
    %da = tcp.contract %dd3, %dwt pack 2 : !ds, !dwtrf -> !dacc
    %dp = tcp.commit %da : !dacc -> !dpart
    %dps = tcp.dma %dp : !dpart -> !dparts
    %e0 = tcp.dm_view %dps offset 0 : !dparts -> !one
    %e1 = tcp.dm_view %dps offset 1024 : !dparts -> !one
    %e2 = tcp.dm_view %dps offset 2048 : !dparts -> !one
    %f1 = tcp.fetch main %e1 : !one -> !ones
    %f2 = tcp.collect %f1 : !ones
    %f3 = tcp.to_vrf %f2 : !ones -> !onevrf
    %k1 = tcp.fetch main %e0 : !one -> !ones
    %k2 = tcp.collect %k1 : !ones
    %k3 = tcp.vector %k2 [add_f vrf(%f3 : !onevrf)] : !ones
    %t1s = tcp.commit %k3 : !ones -> !one
    %f4 = tcp.fetch main %e2 : !one -> !ones
    %f5 = tcp.collect %f4 : !ones
    %f6 = tcp.to_vrf %f5 : !ones -> !onevrf
    %k4 = tcp.fetch main %t1s : !one -> !ones
    %k5 = tcp.collect %k4 : !ones
    %k6 = tcp.vector %k5 [add_f vrf(%f6 : !onevrf)] : !ones
    %t2s = tcp.commit %k6 : !ones -> !one
    %rr1 = tcp.fetch main %r : !xdm -> !ones
    %rr2 = tcp.collect %rr1 : !ones
    %rr3 = tcp.to_vrf %rr2 : !ones -> !onevrf
    %k10 = tcp.fetch main %t2s : !one -> !ones
    %k11 = tcp.collect %k10 : !ones
    %k12 = tcp.vector %k11 [add_f vrf(%rr3 : !onevrf)] : !ones
    %k13 = tcp.cast %k12 : !ones -> !onesb
    %yd = tcp.commit %k13 : !onesb -> !xdm
    tcp.dma %yd into %y : !xdm -> !x
    return
  }
}
