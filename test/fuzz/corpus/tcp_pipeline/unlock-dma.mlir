// Two passes over y once it has arrived: a long one (l, 2,048 flits on each of 4 slices) and a
// short one (s, the first 512 values of each slice) whose result a slow DM-to-DM DMA (8-byte
// pieces: pairs of them swapped) copies; both results are stored. l has the longer path.
!y = !tcp.hbm<bf16, "Y">
!ydm = !tcp.dm<bf16, cluster = "1 # 2", slice = "Y / 32768 # 256", elem = "Y % 32768">
!ys = !tcp.stream<bf16, cluster = "1 # 2", slice = "Y / 32768 # 256", time = "Y % 32768 / 16", packet = "Y % 16">
!z = !tcp.hbm<bf16, "Z">
!zdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "Z / 512 # 256", elem = "Z % 512">
!zt = !tcp.dm<bf16, cluster = "1 # 2", slice = "Z / 512 # 256", elem = "[Z % 8 / 4, Z % 512 / 8, Z % 4]">
!zs = !tcp.stream<bf16, cluster = "1 # 2", slice = "Z / 512 # 256", time = "Z % 512 / 16", packet = "Z % 16">
module attributes {tcp.axes = {Y = 131072, Z = 2048}} {
  func.func @unlock_dma(%y: !y {tcp.arg = "in", tcp.name = "y"},
                        %ly: !y {tcp.arg = "out", tcp.name = "l"},
                        %sz: !z {tcp.arg = "out", tcp.name = "s"}) {
    %yd = tcp.dma %y : !y -> !ydm
    %zd = tcp.dm_view %yd offset 0 : !ydm -> !zdm
    %l1 = tcp.fetch main %yd : !ydm -> !ys
    %l2 = tcp.collect %l1 : !ys
    %l = tcp.commit %l2 : !ys -> !ydm
    %s1 = tcp.fetch main %zd : !zdm -> !zs
    %s2 = tcp.collect %s1 : !zs
    %s = tcp.commit %s2 : !zs -> !zdm
    %st = tcp.dma %s : !zdm -> !zt
    tcp.dma %l into %ly : !ydm -> !y
    tcp.dma %st into %sz : !zt -> !z
    return
  }
}
