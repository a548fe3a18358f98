// kv_scatter: write one new KV row into a cache at a byte offset chosen at run time, as
// Qwen3's projection stage does: cache[offset / 2048] = row, every other row unchanged.
// The row (N x D bf16 = 2048 bytes) goes HBM -> DM (slice 0) -> HBM by a scatter descriptor
// whose row loop reads its HBM address term from `offset`.
!row = !tcp.hbm<bf16, "[N, D]">
!cache = !tcp.hbm<bf16, "[T, N, D]">
!offset = !tcp.hbm<i32, "K">
!rowdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[N, D]">

module attributes {tcp.axes = {T = 512, N = 8, D = 128, K = 1}} {
  func.func @kv_scatter(%row: !row {tcp.arg = "in", tcp.name = "row"},
                        %offset: !offset {tcp.arg = "in", tcp.name = "offset"},
                        %cache: !cache {tcp.arg = "inout", tcp.name = "cache"}) {
    %r = tcp.dma %row : !row -> !rowdm
    tcp.dma_scatter %r into %cache at %offset : !rowdm, !offset -> !cache
    return
  }
}
