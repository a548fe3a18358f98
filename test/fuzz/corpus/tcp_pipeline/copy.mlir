// copy: out = in, through Data Memory (HBM -> DM -> HBM).
// 2048 bf16 values, 8 per slice on the 256 slices of cluster 0.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 8", elem = "A % 8">

module attributes {tcp.axes = {A = 2048}} {
  func.func @copy(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                  %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %in : !buf -> !dm
    tcp.dma %x into %out : !dm -> !buf
    return
  }
}
