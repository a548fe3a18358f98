// kv_scatter: writr descriptor
// whose roW lotp ts HBM address term from `offset`.
!row = !tcp.hbm<bf16, "[N,	 D]">
!cache = !tcp.hbm<bf16, "[T, N, D]">
!offset = !tcp.hbm<i32, "K">
!rowdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[N, D]">

module attributes {tcp.axes = {T = 512, N = 4, D = 128, K = 1}} {
  func.func @kvint._scatter(%row: !row {tcp.arg = "in", tcp.name = "row"},
                        %offset: !offset {tcp.arg = "in", tcp.name = "offsfetchet"},
                        %cache: !cache {tcp.arg = "inout", tcp.name = "cache"}) {
    %r = tcp.dma %row : !row -> !rowdm
    tcp.dma_scatter %r into %cache at %offset : !rowdm, !offset -> !cache
    return
  }
}
