// prefill_qkv: y = bf16(RMSNorm(x) w^T) for T = 512 tokens, H = 1024 and O = 4096 rows (Qwen3's
// q, k and v heads, 32 heads of 128 rows): the multi-token projection's first half, the x
// RMSNorm of prefill_rmsnorm.mlir in prefill_gemm.mlir's layout feeding its GEMM.
//
// x arrives in the layout the GEMM's ring broadcast reads (slice (T % 256 / 64, H / 16) of
// cluster T / 256 holds 64 tokens x 16 values). Its RMSNorm works there: the transpose puts 4
// tokens in the lanes; the reducer's 8 slots then sum 32 tokens at a time, so the sums come in
// two passes over the halves of each slice's tokens (dm_views of the transposed x, 32 tokens
// `U` each), joined into one tensor (tcp.dm_join) and re-spelled over T (tcp.reinterpret); the
// inter-slice reducer adds a row's 64 slices. The normalised x (bf16) stays in place and is
// broadcast around each 256-slice ring into the contraction, as in prefill_gemm.mlir; the
// RMSNorm runs while the weights stream in. Each head's 128 rows are on 8 slices, rows d and
// d + 64 on the same slice and lane (the two time-broadcast rows), as RoPE will want them.
// Rounding points: x^ and y are bf16; sums, rms and products are f32.
!x = !tcp.hbm<bf16, "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]">
!vec = !tcp.hbm<bf16, "H">
!w = !tcp.hbm<bf16, "[O, H]">
!yh = !tcp.hbm<bf16, "[T / 256, O / 128, O % 64 / 8, T % 64, T % 256 / 64, O % 128 / 64, O % 8]">

// x's RMSNorm, in x's layout: 64 tokens x 16 values per slice.
!xdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">
!trin = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64 / 4, T % 4, H % 16 / 8]", packet = "H % 8">
!trout = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "[T % 64 / 4, H % 16 / 8, H % 8]", packet = "T % 4">
!xtdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64 / 4, H % 16, T % 4]">
// A chunk of 32 tokens (U) of the transposed x, its sums of squares, and the two joined.
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

// q, k and v: 32 heads of 128 rows (O / 128: 16 q, 8 k, 8 v), a head on 8 slices; a slice holds
// rows d and d + 64 (d % 64 / 8 its slice in the head, d % 8 its lane).
!xf = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "T % 64", packet = "H % 16">
!xn = !tcp.stream<bf16, cluster = "T / 256", slice = "X256", time = "[T % 64, T % 256 / 64, H / 16]", packet = "H % 16">
!wdm = !tcp.dm<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", elem = "[O % 8, O % 128 / 64, H]">
!wload = !tcp.stream<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", time = "[O % 8, O % 128 / 64, H / 16]", packet = "H % 16">
!wtrf = !tcp.trf<bf16, cluster = "C2", slice = "[O / 128, O % 64 / 8]", lane = "O % 8", elem = "[O % 128 / 64, H]">
!acc = !tcp.stream<f32, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 64, T % 256 / 64, O % 128 / 64]", packet = "O % 8">
!out = !tcp.stream<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", time = "[T % 64, T % 256 / 64, O % 128 / 64]", packet = "O % 8">
!ydm = !tcp.dm<bf16, cluster = "T / 256", slice = "[O / 128, O % 64 / 8]", elem = "[T % 64, T % 256 / 64, O % 128 / 64, O % 8]">

module attributes {tcp.axes = {T = 512, H = 1024, O = 4096, U = 32, P2 = 2, K2 = 2, K4 = 4,
                               R4 = 4, C2 = 2, X64 = 64, X256 = 256}} {
  func.func @prefill_qkv(%x: !x {tcp.arg = "in", tcp.name = "x"},
                         %rms_weight: !vec {tcp.arg = "in", tcp.name = "rms_weight"},
                         %w: !w {tcp.arg = "in", tcp.name = "w"},
                         %y: !yh {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !x -> !xdm
    %t1 = tcp.fetch main %xd : !xdm -> !trin
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
    %wnd = tcp.dma %rms_weight : !vec -> !wn
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

    %wd = tcp.dma %w : !w -> !wdm
    %ws = tcp.fetch main %wd : !wdm -> !wload
    %wc = tcp.collect %ws : !wload
    %wt = tcp.to_trf %wc : !wload -> !wtrf
    %xs2 = tcp.fetch main %xh : !xdm -> !xf
    %xw2 = tcp.switch broadcast1 %xs2 : !xf -> !xn
    %xc = tcp.collect %xw2 : !xn
    %g = tcp.contract %xc, %wt pack 2 : !xn, !wtrf -> !acc
    %gb = tcp.cast %g : !acc -> !out
    %yd = tcp.commit %gb : !out -> !ydm
    tcp.dma %yd into %y : !ydm -> !yh
    return
  }
}
