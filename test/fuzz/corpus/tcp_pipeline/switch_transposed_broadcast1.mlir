// out = in through a transposed_broadcast1 switch: slice0 = A / 4 % 2 moves to time.
!v = !tcp.hbm<f32, "A">
!in = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 8 % 2, A / 4 % 2]", elem = "A % 4">
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 8 % 2, A / 4 % 2]", time = "A / 2 % 2", packet = "A % 2">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, X, A / 8 % 2]", time = "[A / 2 % 2, A / 4 % 2]", packet = "A % 2">
!out = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, X, A / 8 % 2]", elem = "[A / 2 % 2, A / 4 % 2, A % 2]">
module attributes {tcp.axes = {A = 1024, X = 2}} {
  func.func @switch_transposed_broadcast1(%x: !v {tcp.arg = "in", tcp.name = "x"}, %y: !v {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !v -> !in
    %f = tcp.fetch main %xd : !in -> !fs
    %b = tcp.switch transposed_broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    %g = tcp.commit %c : !bs -> !out
    tcp.dma %g into %y : !out -> !v
    return
  }
}
