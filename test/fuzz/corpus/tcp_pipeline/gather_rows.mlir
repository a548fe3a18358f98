// y[k] = table[offsets[k] / 2048]: two rows of a 16-row table gathered by byte offset.
!table = !tcp.hbm<bf16, "[V, H]">
!rows = !tcp.hbm<bf16, "[K, H]">
!offsets = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[K, H]">
module attributes {tcp.axes = {V = 16, H = 1024, K = 2}} {
  func.func @gather_rows(%table: !table {tcp.arg = "in", tcp.name = "table"},
                         %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"},
                         %y: !rows {tcp.arg = "out", tcp.name = "y"}) {
    %g = tcp.dma_gather %table at %offsets : !table, !offsets -> !dm
    tcp.dma %g into %y : !dm -> !rows
    return
  }
}
