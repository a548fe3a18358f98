// Two GEMVs into cluster 0 (256 slices, one row per TRF lane): w's stream, its pass and the
// small store of y; then v, the cluster's last weight stream, its pass and the store of z. y is
// ready to store (about 8,170 cycles) while v still streams; the store is shorter than the work
// after v (v's pass and z's store), so it does not hold v's spare engine.
!x = !tcp.hbm<bf16, "J">
!w = !tcp.hbm<bf16, "[I, J]">
!y = !tcp.hbm<bf16, "I">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "R", elem = "J">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 8", elem = "[I % 8, J]">
!ydm = !tcp.dm<bf16, cluster = "1 # 2", slice = "I / 8", elem = "I % 8">
!wload = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 8", time = "[I % 8, J / 4]", packet = "J % 4">
!wtrf = !tcp.trf<bf16, cluster = "1 # 2", slice = "I / 8", lane = "I % 8", elem = "J">
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "R", time = "J / 16", packet = "J % 16">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "I / 8", time = "1", packet = "I % 8">
!out = !tcp.stream<bf16, cluster = "1 # 2", slice = "I / 8", time = "1", packet = "I % 8">

module attributes {tcp.axes = {I = 2048, J = 1024, R = 256}} {
  func.func @tail_stores(%x: !x {tcp.arg = "in", tcp.name = "x"},
                 %w: !w {tcp.arg = "in", tcp.name = "w"},
                 %v: !w {tcp.arg = "in", tcp.name = "v"},
                 %y: !y {tcp.arg = "out", tcp.name = "y"},
                 %z: !y {tcp.arg = "out", tcp.name = "z"}) {
    %xd = tcp.dma %x : !x -> !xdm
    %wd = tcp.dma %w : !w -> !wdm
    %ws = tcp.fetch sub %wd : !wdm -> !wload
    %wc = tcp.collect %ws : !wload
    %wt = tcp.to_trf %wc : !wload -> !wtrf
    %xs = tcp.fetch main %xd : !xdm -> !xs
    %xc = tcp.collect %xs : !xs
    %a = tcp.contract %xc, %wt pack 2 : !xs, !wtrf -> !acc
    %b = tcp.cast %a : !acc -> !out
    %yd = tcp.commit %b : !out -> !ydm
    tcp.dma %yd into %y : !ydm -> !y
    %vd = tcp.dma %v : !w -> !wdm
    %vs = tcp.fetch sub %vd : !wdm -> !wload
    %vc = tcp.collect %vs : !wload
    %vt = tcp.to_trf %vc : !wload -> !wtrf
    %xs2 = tcp.fetch main %xd : !xdm -> !xs
    %xc2 = tcp.collect %xs2 : !xs
    %a2 = tcp.contract %xc2, %vt pack 2 : !xs, !wtrf -> !acc
    %b2 = tcp.cast %a2 : !acc -> !out
    %zd = tcp.commit %b2 : !out -> !ydm
    tcp.dma %zd into %z : !ydm -> !y
    return
  }
}
