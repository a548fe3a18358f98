// Qwen3-0.6B `token_lookup` stage: the device-side token lookup (the alternative to
// `embedding`, whose input row the host selects and uploads). The host writes only the token's
// byte offset in the table, token * 2048 (i32, like projection's kv_offset); one DMA gather
// reads that row of the resident embedding table into DM and a DMA writes it to the residual
// stream `out`. The table has Wp = 155,648 rows (19 x 8192), the LM head's padded shape, so a
// tied model binds the LM head's buffer itself (rows past W = 151,936 are zero).
!table = !tcp.hbm<bf16, "[W, H]">
!row = !tcp.hbm<bf16, "[K, H]">
!offset = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[K, H]">

module attributes {tcp.axes = {W = 155648, H = 1024, K = 1}} {
  func.func @token_lookup(%table: !table {tcp.arg = "in", tcp.name = "table"},
                          %offset: !offset {tcp.arg = "in", tcp.name = "offset"},
                          %out: !row {tcp.arg = "out", tcp.name = "out"}) {
    %g = tcp.dma_gather %table at %offset : !table, !offset -> !dm
    tcp.dma %g into %out : !dm -> !row
    return
  }
}
