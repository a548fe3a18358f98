// prefill_gemm: y[t, o] = bf16(sum_h f32(x[t, h]) * f32(w[o, h])) for T = 512 tokens, O = 4096
// rows and H = 1024: the shape of the multi-token projection (q, k and v rows of Qwen3-0.6B
// together), at the Contraction Engine's full rate.
//
// Weight-stationary, tokens split over the clusters: every slice of both clusters holds 16
// rows of w in its TRF (8 lanes = O % 8, two rows per lane, O / 8 % 2), so each cluster's 256
// slices hold all 4096 rows (w is read from HBM once per cluster; the two copies stream over
// each cluster's engines). Cluster c takes tokens [256 c, 256 c + 256). x arrives in a layout
// made for the Switch Engine: slice (T % 256 / 64, H / 16) of a cluster holds 64 tokens x 16
// values of h, 2 KB contiguous in HBM; the switch broadcasts the whole 256-slice ring, so every
// slice receives its cluster's tokens in the order [T % 64, T % 256 / 64, H / 16], one packet a
// cycle. The contraction packs two flits per packet (32 h) and broadcasts each packet in time
// over the two rows of every lane: per slice 256 tokens x 32 packets x 2 = 16,384 iterations,
// 8 x 32 = 256 MACs each, which is the compute roofline (512 x 4096 x 1024 MACs at 131,072 a
// cycle). The result leaves as 8 KB per slice, contiguous in y's layout.
!x = !tcp.hbm<bf16, "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]">
!w = !tcp.hbm<bf16, "[O, H]">
!y = !tcp.hbm<bf16, "[T / 256, O / 16, T % 64, T % 256 / 64, O % 16]">
!xring = !tcp.dm<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", elem = "[T % 64, H % 16]">
!xf = !tcp.stream<bf16, cluster = "T / 256", slice = "[T % 256 / 64, H / 16]", time = "T % 64", packet = "H % 16">
!xn = !tcp.stream<bf16, cluster = "T / 256", slice = "X256", time = "[T % 64, T % 256 / 64, H / 16]", packet = "H % 16">
!wdm = !tcp.dm<bf16, cluster = "C2", slice = "O / 16", elem = "[O % 16, H]">
!wload = !tcp.stream<bf16, cluster = "C2", slice = "O / 16", time = "[O % 8, O / 8 % 2, H / 16]", packet = "H % 16">
!wtrf = !tcp.trf<bf16, cluster = "C2", slice = "O / 16", lane = "O % 8", elem = "[O / 8 % 2, H]">
!acc = !tcp.stream<f32, cluster = "T / 256", slice = "O / 16", time = "[T % 64, T % 256 / 64, O / 8 % 2]", packet = "O % 8">
!out = !tcp.stream<bf16, cluster = "T / 256", slice = "O / 16", time = "[T % 64, T % 256 / 64, O / 8 % 2]", packet = "O % 8">
!ydm = !tcp.dm<bf16, cluster = "T / 256", slice = "O / 16", elem = "[T % 64, T % 256 / 64, O % 16]">
module attributes {tcp.axes = {T = 512, H = 1024, O = 4096, X256 = 256, C2 = 2}} {
  func.func @prefill_gemm(%x: !x {tcp.arg = "in", tcp.name = "x"},
                 %w: !w {tcp.arg = "in", tcp.name = "w"},
                 %y: !y {tcp.arg = "out", tcp.name = "y"}) {
    %wd = tcp.dma %w : !w -> !wdm
    %ws = tcp.fetch main %wd : !wdm -> !wload
    %wc = tcp.collect %ws : !wload
    %wt = tcp.to_trf %wc : !wload -> !wtrf
    %xd = tcp.dma %x : !x -> !xring
    %xs = tcp.fetch main %xd : !xring -> !xf
    %xw = tcp.switch broadcast1 %xs : !xf -> !xn
    %xc = tcp.collect %xw : !xn
    %a = tcp.contract %xc, %wt pack 2 : !xn, !wtrf -> !acc
    %b = tcp.cast %a : !acc -> !out
    %yd = tcp.commit %b : !out -> !ydm
    tcp.dma %yd into %y : !ydm -> !y
    return
  }
}
