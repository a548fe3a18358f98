// gemm: y[t, i] = bf16(sum_j f32(x[t, j]) * f32(w[i, j])) for T = 8 tokens, I = 256 rows of
// J = 256: the multi-token (prefill) shape of gemv.mlir.
//
// 16 slices of cluster 0 each own 16 rows of w (8 KB): HBM -> DM, then DM -> TRF on the sub
// context, 8 lanes = I % 8, each lane holding two rows (I / 8 % 2). x is replicated to the same
// 16 slices and streamed on the main context token by token, 32 bf16 per packet (pack 2). The
// TRF factor I / 8 % 2 is missing from the stream, so the Contraction Engine broadcasts each
// packet in time over it: every packet meets 2 x 8 rows, two contraction iterations per packet
// of two flits, which keeps the MACs busy every cycle (docs/hardware.md section 2.3,
// time-broadcast). The time reducer sums over J / 32 into 2 slots; the token axis T is kept,
// so each slice emits T x 2 flits of 8 results, committed as [T, I % 16] and stored to y by rows.
!x = !tcp.hbm<bf16, "[T, J]">
!w = !tcp.hbm<bf16, "[I, J]">
!y = !tcp.hbm<bf16, "[T, I]">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "[T, J]">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 16 # 256", elem = "[I % 16, J]">
!ydm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 16 # 256", elem = "[T, I % 16]">
!wload = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 16 # 256", time = "[I % 8, I / 8 % 2, J / 4]", packet = "J % 4">
!wtrf = !tcp.trf<bf16, cluster = "1 # 2", slice = "I / 16 # 256", lane = "I % 8", elem = "[I / 8 % 2, J]">
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "R # 256", time = "[T, J / 16]", packet = "J % 16">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "I / 16 # 256", time = "[T, I / 8 % 2]", packet = "I % 8">
!out = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 16 # 256", time = "[T, I / 8 % 2]", packet = "I % 8">
module attributes {tcp.axes = {T = 8, I = 256, J = 256, R = 16}} {
  func.func @gemm(%x: !x {tcp.arg = "in", tcp.name = "x"},
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
