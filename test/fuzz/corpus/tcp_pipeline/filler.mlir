// A chain of three main passes (A, B, C) on x and a sub pass F on x that could fill the queue
// while B waits for A; each result is stored.
!v = !tcp.hbm<bf16, "H">
!vdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "H / 4", time = "1", packet = "H % 4">
module attributes {tcp.axes = {H = 1024}} {
  func.func @filler(%x: !v {tcp.arg = "in", tcp.name = "x"},
                    %c: !v {tcp.arg = "out", tcp.name = "c"},
                    %f: !v {tcp.arg = "out", tcp.name = "f"}) {
    %xd = tcp.dma %x : !v -> !vdm
    %a1 = tcp.fetch main %xd : !vdm -> !xs
    %a2 = tcp.collect %a1 : !xs
    %ad = tcp.commit %a2 : !xs -> !vdm
    %f1 = tcp.fetch sub %xd : !vdm -> !xs
    %f2 = tcp.collect %f1 : !xs
    %fd = tcp.commit %f2 : !xs -> !vdm
    %b1 = tcp.fetch main %ad : !vdm -> !xs
    %b2 = tcp.collect %b1 : !xs
    %bd = tcp.commit %b2 : !xs -> !vdm
    %c1 = tcp.fetch main %bd : !vdm -> !xs
    %c2 = tcp.collect %c1 : !xs
    %cd = tcp.commit %c2 : !xs -> !vdm
    tcp.dma %cd into %c : !vdm -> !v
    tcp.dma %fd into %f : !vdm -> !v
    return
  }
}
