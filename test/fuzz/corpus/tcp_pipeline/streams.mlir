// Two 1 MB weight streams into cluster 0 (256 slices x 4 KB) behind a small load that holds the
// cluster's spare engine (engine 3) at the start; a pass reads the small load.
!w = !tcp.hbm<bf16, "A">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 2048", elem = "A % 2048">
!x = !tcp.hbm<bf16, "B">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "B / 32", elem = "B % 32">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "B / 32", time = "B / 16 % 2", packet = "B % 16">
module attributes {tcp.axes = {A = 524288, B = 8192}} {
  func.func @stagger(%x: !x {tcp.arg = "in", tcp.name = "x"},
                     %a: !w {tcp.arg = "in", tcp.name = "a"},
                     %b: !w {tcp.arg = "in", tcp.name = "b"},
                     %out: !x {tcp.arg = "out", tcp.name = "out"}) {
    %xd = tcp.dma %x : !x -> !xdm
    %ad = tcp.dma %a : !w -> !wdm
    %bd = tcp.dma %b : !w -> !wdm
    %f = tcp.fetch main %xd : !xdm -> !s
    %c = tcp.collect %f : !s
    %y = tcp.commit %c : !s -> !xdm
    tcp.dma %y into %out : !xdm -> !x
    return
  }
}
