// constant_add with the f32 -> bf16 conversion in the commit adapter instead of the Cast
// Engine: same numerics, the Vector Engine is free after the add.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">

module attributes {tcp.axes = {A = 8192}} {
  func.func @constant_add(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                          %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %y = tcp.commit %v {cast} : !f32s -> !dm
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}
