// transpose: each of 256 slices transposes a 4 x 8 bf16 matrix with the Transpose Engine:
// out[s, c, r] = in[s, r, c].
!in = !tcp.hbm<bf16, "[S, R, C]">
!out = !tcp.hbm<bf16, "[S, C, R]">
!ind = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[R, C]">
!rows = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "R", packet = "C">
!cols = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "C", packet = "R">
!outd = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[C, R]">

module attributes {tcp.axes = {S = 256, R = 4, C = 8}} {
  func.func @transpose(%x: !in {tcp.arg = "in", tcp.name = "x"},
                       %y: !out {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !in -> !ind
    %f = tcp.fetch main %xd : !ind -> !rows
    %c = tcp.collect %f : !rows
    %t = tcp.transpose %c : !rows -> !cols
    %yd = tcp.commit %t : !cols -> !outd
    tcp.dma %yd into %y : !outd -> !out
    return
  }
}
