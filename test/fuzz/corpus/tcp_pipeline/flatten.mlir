// y = x flattened: the DM copy of x [B, C] is reinterpreted as [K] (no data moves) and
// written back with K's row-major layout.
!x = !tcp.hbm<bf16, "[B, C]">
!y = !tcp.hbm<bf16, "K">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "[B, C]">
!kdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "K">
module attributes {tcp.axes = {B = 4, C = 64, K = 256, R = 4}} {
  func.func @flatten(%x: !x {tcp.arg = "in", tcp.name = "x"},
                     %y: !y {tcp.arg = "out", tcp.name = "y"}) {
    %d = tcp.dma %x : !x -> !xdm
    %k = tcp.reinterpret %d : !xdm -> !kdm
    tcp.dma %k into %y : !kdm -> !y
    return
  }
}
