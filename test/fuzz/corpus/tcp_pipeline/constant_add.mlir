// constant_add: out = in + 1 over 8192 bf16 values.
// Each of the 256 slices of cluster 0 holds 32 values and streams them as 4 packets of 8:
// fetch (bf16 -> f32 cast) -> collect -> vector (f32 add) -> cast (f32 -> bf16) -> commit.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">

module attributes {tcp.axes = {A = 8192}} {
  func.func @constant_add(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                          %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %b = tcp.cast %v : !f32s -> !bf16s
    %y = tcp.commit %b : !bf16s -> !dm
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}
