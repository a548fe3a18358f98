// y = 2 x, computed a third of each slice's row at a time: three passes each double one
// window of x and commit it as one part of a joined tensor; the whole is stored in one DMA.
!x = !tcp.hbm<bf16, "[S, T]">
!src = !tcp.dm<bf16, cluster = "S / 256", slice = "S % 256", elem = "T">
!part = !tcp.dm<bf16, cluster = "S / 256", slice = "S % 256", elem = "U">
!ps = !tcp.stream<f32, cluster = "S / 256", slice = "S % 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<bf16, cluster = "S / 256", slice = "S % 256", elem = "[P, U]">
!y = !tcp.hbm<bf16, "[S, P, U]">
module attributes {tcp.axes = {S = 512, T = 96, P = 3, U = 32}} {
  func.func @dm_join(%x: !x {tcp.arg = "in", tcp.name = "x"},
                     %y: !y {tcp.arg = "out", tcp.name = "y"}) {
    %a = tcp.dma %x : !x -> !src
    %v0 = tcp.dm_view %a offset 0 : !src -> !part
    %v1 = tcp.dm_view %a offset 32 : !src -> !part
    %v2 = tcp.dm_view %a offset 64 : !src -> !part
    %f0 = tcp.fetch main %v0 : !part -> !ps
    %c0 = tcp.collect %f0 : !ps
    %d0 = tcp.vector %c0 [mul_f 2.0] : !ps
    %p0 = tcp.commit %d0 {cast} : !ps -> !part
    %f1 = tcp.fetch main %v1 : !part -> !ps
    %c1 = tcp.collect %f1 : !ps
    %d1 = tcp.vector %c1 [mul_f 2.0] : !ps
    %p1 = tcp.commit %d1 {cast} : !ps -> !part
    %f2 = tcp.fetch main %v2 : !part -> !ps
    %c2 = tcp.collect %f2 : !ps
    %d2 = tcp.vector %c2 [mul_f 2.0] : !ps
    %p2 = tcp.commit %d2 {cast} : !ps -> !part
    %w = tcp.dm_join %p0, %p1, %p2 : !part, !part, !part -> !whole
    tcp.dma %w into %y : !whole -> !y
    return
  }
}
