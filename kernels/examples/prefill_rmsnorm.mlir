// prefill_rmsnorm: y[t, h] = bf16(x[t, h] w[h] / sqrt(mean_h x[t, h]^2 + 1e-6)) for T = 512 tokens
// of H = 1024: the multi-token stages' RMSNorm, on all 512 slices.
//
// x is in the prefill activation layout (docs/prefill.md): cluster T / 256, slice
// (T % 256 / 32, H / 32) holds 32 tokens x 32 values, 2 KB contiguous in HBM. A token's sum of
// squares needs the tokens in the lanes (the intra-slice reducer keeps at most 8 time slots):
// the Transpose Engine turns each 4 tokens x 8 values into 8 flits of 4 tokens; the reducer
// then sums each slice's 32 values of h in order into 8 slots of 4 tokens (32 tokens at once)
// and the inter-slice reducer adds the 32 slices of a token's row by a pairwise tree. The rms
// (fma then sqrt) goes to the VRF, as does w; x w is computed in the order [T, H] (w repeats per
// token) and divided by the rms in the order [H, T] (the rms repeats per packet of h), because a
// VRF operand must follow the innermost time factors of the stream.
// Rounding points: the squares and sums are f32, y is bf16.
!x = !tcp.hbm<bf16, "[T / 256, T % 256 / 32, H / 32, T % 32, H % 32]">
!w = !tcp.hbm<bf16, "H">
!xdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", elem = "[T % 32, H % 32]">
!trin = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", time = "[T % 32 / 4, T % 4, H % 32 / 8]", packet = "H % 8">
!trout = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", time = "[T % 32 / 4, H % 32 / 8, H % 8]", packet = "T % 4">
!xtdm = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", elem = "[T % 32 / 4, H % 32, T % 4]">
!sqin = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", time = "[H % 32, T % 32 / 4]", packet = "T % 4">
!ss = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", time = "T % 32 / 4", packet = "T % 4">
!ssdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", elem = "[T % 32 / 4, T % 4]">
!rsub = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", time = "T % 32 / 2", packet = "T % 2">
!rvrf = !tcp.vrf<f32, cluster = "T / 256", slice = "[T % 256 / 32, X32]", elem = "T % 32">
!wdm = !tcp.dm<bf16, cluster = "C2", slice = "[R8, H / 32]", elem = "H % 32">
!wsub = !tcp.stream<f32, cluster = "C2", slice = "[R8, H / 32]", time = "H % 32 / 2", packet = "H % 2">
!wvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R8, H / 32]", elem = "H % 32">
!xs = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", time = "[T % 32, H % 32 / 8]", packet = "H % 8">
!xwdm = !tcp.dm<f32, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", elem = "[T % 32, H % 32]">
!xws = !tcp.stream<f32, cluster = "T / 256", slice = "[T % 256 / 32, H / 32]", time = "[H % 32 / 8, T % 32]", packet = "H % 8">
module attributes {tcp.axes = {T = 512, H = 1024, X32 = 32, R8 = 8, C2 = 2}} {
  func.func @prefill_rmsnorm(%x: !x {tcp.arg = "in", tcp.name = "x"},
                             %w: !w {tcp.arg = "in", tcp.name = "w"},
                             %y: !x {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !x -> !xdm
    %t1 = tcp.fetch main %xd : !xdm -> !trin
    %t2 = tcp.collect %t1 : !trin
    %t3 = tcp.transpose %t2 : !trin -> !trout
    %xt = tcp.commit %t3 : !trout -> !xtdm
    %s1 = tcp.fetch main %xt : !xtdm -> !sqin
    %s2 = tcp.collect %s1 : !sqin
    %s3 = tcp.vector %s2 [stash, mul_f stash, reduce_add_f, inter_add_f] : !sqin -> !ss
    %ssd = tcp.commit %s3 : !ss -> !ssdm
    %r1 = tcp.fetch main %ssd : !ssdm -> !ss
    %r2 = tcp.collect %r1 : !ss
    %r3 = tcp.vector %r2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !ss
    %rd = tcp.commit %r3 : !ss -> !ssdm
    %v1 = tcp.fetch sub %rd : !ssdm -> !rsub
    %v2 = tcp.collect %v1 : !rsub
    %rv = tcp.to_vrf %v2 : !rsub -> !rvrf
    %wd = tcp.dma %w : !w -> !wdm
    %w1 = tcp.fetch sub %wd : !wdm -> !wsub
    %w2 = tcp.collect %w1 : !wsub
    %wv = tcp.to_vrf %w2 : !wsub -> !wvrf
    %m1 = tcp.fetch main %xd : !xdm -> !xs
    %m2 = tcp.collect %m1 : !xs
    %m3 = tcp.vector %m2 [mul_f vrf(%wv : !wvrf)] : !xs
    %xw = tcp.commit %m3 : !xs -> !xwdm
    %d1 = tcp.fetch main %xw : !xwdm -> !xws
    %d2 = tcp.collect %d1 : !xws
    %d3 = tcp.vector %d2 [div_f vrf(%rv : !rvrf)] : !xws
    %yd = tcp.commit %d3 {cast} : !xws -> !xdm
    tcp.dma %yd into %y : !xdm -> !x
    return
  }
}
