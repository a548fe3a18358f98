// A 4 MB weight stream (a, into the TRF of cluster 0's 256 slices) and a 64 KB stream (x,
// 16 KB on each of 4 slices) that five passes then work through, one after another; the last
// result is stored. x's chain is the longer path once it has to wait for a.
!w = !tcp.hbm<bf16, "A">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 8192", elem = "A % 8192">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 8192", time = "A % 8192 / 16", packet = "A % 16">
!wtrf = !tcp.trf<bf16, cluster = "1 # 2", slice = "A / 8192", lane = "A % 8192 / 1024", elem = "A % 1024">
!x = !tcp.hbm<bf16, "B">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "B / 8192 # 256", elem = "B % 8192">
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "B / 8192 # 256", time = "B % 8192 / 16", packet = "B % 16">
module attributes {tcp.axes = {A = 2097152, B = 32768}} {
  func.func @short_stream(%a: !w {tcp.arg = "in", tcp.name = "a"},
                          %x: !x {tcp.arg = "in", tcp.name = "x"},
                          %out: !x {tcp.arg = "out", tcp.name = "out"}) {
    %ad = tcp.dma %a : !w -> !wdm
    %xd = tcp.dma %x : !x -> !xdm
    %a1 = tcp.fetch main %ad : !wdm -> !ws
    %a2 = tcp.collect %a1 : !ws
    %at = tcp.to_trf %a2 : !ws -> !wtrf
    %c11 = tcp.fetch main %xd : !xdm -> !xs
    %c12 = tcp.collect %c11 : !xs
    %c1 = tcp.commit %c12 : !xs -> !xdm
    %c21 = tcp.fetch main %c1 : !xdm -> !xs
    %c22 = tcp.collect %c21 : !xs
    %c2 = tcp.commit %c22 : !xs -> !xdm
    %c31 = tcp.fetch main %c2 : !xdm -> !xs
    %c32 = tcp.collect %c31 : !xs
    %c3 = tcp.commit %c32 : !xs -> !xdm
    %c41 = tcp.fetch main %c3 : !xdm -> !xs
    %c42 = tcp.collect %c41 : !xs
    %c4 = tcp.commit %c42 : !xs -> !xdm
    %c51 = tcp.fetch main %c4 : !xdm -> !xs
    %c52 = tcp.collect %c51 : !xs
    %c5 = tcp.commit %c52 : !xs -> !xdm
    tcp.dma %c5 into %out : !xdm -> !x
    return
  }
}
