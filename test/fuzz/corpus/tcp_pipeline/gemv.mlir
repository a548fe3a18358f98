// gemv: y[i] = bf16(sum_j f32(w[i, j]) * f32(x[j])) for I = 2048 rows of J = 1024.
//
// 64 slices of cluster 0 each own 32 rows (64 KB of weights): the weights stream HBM -> DM,
// then DM -> TRF on the sub context (8 lanes = I % 8, each holding its 4 rows I / 8 % 4);
// x is broadcast to the same 64 slices and streamed on the main context, 32 bf16 per packet
// (pack 2). Each cycle one packet multiplies all 8 lanes; the time reducer sums over J / 32
// into 4 slots (I / 8 % 4), so each slice emits 4 flits of 8 results, in row-major order.
!x = !tcp.hbm<bf16, "J">
!w = !tcp.hbm<bf16, "[I, J]">
!y = !tcp.hbm<bf16, "I">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "J">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 32 # 256", elem = "[I % 32, J]">
!ydm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 32 # 256", elem = "I % 32">
!wload = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 32 # 256", time = "[I % 8, I / 8 % 4, J / 4]", packet = "J % 4">
!wtrf = !tcp.trf<bf16, cluster = "1 # 2", slice = "I / 32 # 256", lane = "I % 8", elem = "[I / 8 % 4, J]">
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "R # 256", time = "J / 16", packet = "J % 16">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "I / 32 # 256", time = "I / 8 % 4", packet = "I % 8">
!out = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 32 # 256", time = "I / 8 % 4", packet = "I % 8">

module attributes {tcp.axes = {I = 2048, J = 1024, R = 64}} {
  func.func @gemv(%x: !x {tcp.arg = "in", tcp.name = "x"},
                  %w: !w {tcp.arg = "in", tcp.name = "w"},
                  %y: !y {tcp.arg = "out", tcp.name = "y"}) {
    %wd = tcp.dma %w : !w -> !wdm
    %ws = tcp.fetch sub %wd : !wdm -> !wload
    %wc = tcp.collect %ws : !wload
    %wt = tcp.to_trf %wc : !wload -> !wtrf

    %xd = tcp.dma %x : !x -> !xdm
    %xs = tcp.fetch main %xd : !xdm -> !xs
    %xc = tcp.collect %xs : !xs
    %a = tcp.contract %xc, %wt pack 2 : !xs, !wtrf -> !acc
    %b = tcp.cast %a : !acc -> !out
    %yd = tcp.commit %b : !out -> !ydm
    tcp.dma %yd into %y : !ydm -> !y
    return
  }
}
