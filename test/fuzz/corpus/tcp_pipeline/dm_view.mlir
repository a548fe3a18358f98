// The second half of each slice's rows of x, read through DM views: by a Tensor Unit pass
// (fetched, doubled, committed) into y, and copied by DMA into z. Each slice holds 4 rows of
// 8 bf16 (rows 2 and 3 are its second half) and the strided view `[R, C # 16]` at offset 8
// takes the second 8 elements of each of 2 rows of 16.
!x = !tcp.hbm<bf16, "[S, B, C]">
!h = !tcp.hbm<bf16, "[S, BH, C]">
!xd = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[B, C]">
!hd = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[BH, C]">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "S", time = "BH", packet = "C">
!hb = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "BH", packet = "C">
!xr = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[R, W]">
!sd = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[R, C # 16]">
!s = !tcp.hbm<bf16, "[S, R, C]">

module attributes {tcp.axes = {S = 256, B = 4, BH = 2, C = 8, R = 2, W = 16}} {
  func.func @dm_view(%xin: !x {tcp.arg = "in", tcp.name = "x"},
                     %y: !h {tcp.arg = "out", tcp.name = "y"},
                     %z: !h {tcp.arg = "out", tcp.name = "z"},
                     %w: !s {tcp.arg = "out", tcp.name = "w"}) {
    %xd = tcp.dma %xin : !x -> !xd
    %hi = tcp.dm_view %xd offset 16 : !xd -> !hd
    %f = tcp.fetch main %hi : !hd -> !hs
    %c = tcp.collect %f : !hs
    %v = tcp.vector %c [mul_f 2.0] : !hs
    %b = tcp.cast %v : !hs -> !hb
    %yd = tcp.commit %b : !hb -> !hd
    tcp.dma %yd into %y : !hd -> !h
    tcp.dma %hi into %z : !hd -> !h
    %xr = tcp.reinterpret %xd : !xd -> !xr
    %odd = tcp.dm_view %xr offset 8 : !xr -> !sd
    tcp.dma %odd into %w : !sd -> !s
    return
  }
}
