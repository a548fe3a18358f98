// broadcast: every slice of a 4-slice ring gathers the ring's values through the Switch
// Engine (broadcast1), then the kernel writes them back: out = in over A = 1024 f32.
//
// in: slice s of cluster 0 holds A[4s .. 4s + 3]. After the switch, each slice of ring
// A / 16 holds all 16 values of its ring (the fresh axis X numbers the ring's copies).
!v = !tcp.hbm<f32, "A">
!in = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4">
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "1", packet = "A % 4">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, X]", time = "A / 4 % 4", packet = "A % 4">
!out = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, X]", elem = "A % 16">

module attributes {tcp.axes = {A = 1024, X = 4}} {
  func.func @broadcast(%x: !v {tcp.arg = "in", tcp.name = "x"},
                       %y: !v {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !v -> !in
    %f = tcp.fetch main %xd : !in -> !fs
    %b = tcp.switch broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    %g = tcp.commit %c : !bs -> !out
    tcp.dma %g into %y : !out -> !v
    return
  }
}
