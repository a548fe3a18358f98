// Heads 16..23 of 32 (one head per 8-slice ring, on the ring's first slice) copied out of DM
// through a view on other slices than its source's (tcp.dm_view ... slices 128), in both
// clusters (cluster c holds token c's heads).
!x = !tcp.hbm<bf16, "[C, G, D]">
!all = !tcp.dm<bf16, cluster = "C", slice = "[G, 1 # 8]", elem = "D">
!k = !tcp.dm<bf16, cluster = "C", slice = "[1 # 4, N, 1 # 8]", elem = "D">
!y = !tcp.hbm<bf16, "[C, N, D]">
module attributes {tcp.axes = {C = 2, G = 32, N = 8, D = 128}} {
  func.func @dm_view_slices(%x: !x {tcp.arg = "in", tcp.name = "x"},
                            %y: !y {tcp.arg = "out", tcp.name = "y"}) {
    %a = tcp.dma %x : !x -> !all
    %k = tcp.dm_view %a offset 0 slices 128 : !all -> !k
    tcp.dma %k into %y : !k -> !y
    return
  }
}
