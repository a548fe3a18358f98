// softmax: y = exp(x - max x) / sum exp(x - max x) over T = 512 f32 values.
//
// x spreads over 64 slices of cluster 0, one 8-value flit each. Passes:
//   1. max: intra-slice tree then the inter-slice reducer over the 64 slices (axis R).
//   2. max into the VRF (sub).  3. e = exp(x - max), kept in DM.
//   4. sum of e (intra + inter).  5. sum into the VRF.  6. y = e / sum.
!v = !tcp.hbm<f32, "T">
!vdm = !tcp.dm<f32, cluster = "1 # 2", slice = "T / 8 # 256", elem = "T % 8">
!xs = !tcp.stream<f32, cluster = "1 # 2", slice = "T / 8 # 256", time = "1", packet = "T % 8">
!ss = !tcp.stream<f32, cluster = "1 # 2", slice = "R # 256", time = "1", packet = "1 # 2">
!sdm = !tcp.dm<f32, cluster = "1 # 2", slice = "R # 256", elem = "1 # 2">
!svrf = !tcp.vrf<f32, cluster = "1 # 2", slice = "R # 256", elem = "1 # 2">

module attributes {tcp.axes = {T = 512, R = 64}} {
  func.func @softmax(%x: !v {tcp.arg = "in", tcp.name = "x"},
                     %y: !v {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !v -> !vdm

    // 1-2. max on every slice, then into the VRF.
    %s1 = tcp.fetch main %xd : !vdm -> !xs
    %c1 = tcp.collect %s1 : !xs
    %m = tcp.vector %c1 [reduce_max_f, inter_max_f] : !xs -> !ss
    %md = tcp.commit %m : !ss -> !sdm
    %s2 = tcp.fetch sub %md : !sdm -> !ss
    %c2 = tcp.collect %s2 : !ss
    %mv = tcp.to_vrf %c2 : !ss -> !svrf

    // 3. e = exp(x - max).
    %s3 = tcp.fetch main %xd : !vdm -> !xs
    %c3 = tcp.collect %s3 : !xs
    %e = tcp.vector %c3 [sub_f vrf(%mv : !svrf), exp_f] : !xs
    %ed = tcp.commit %e : !xs -> !vdm

    // 4-5. sum of e on every slice, then into the VRF.
    %s4 = tcp.fetch main %ed : !vdm -> !xs
    %c4 = tcp.collect %s4 : !xs
    %s = tcp.vector %c4 [reduce_add_f, inter_add_f] : !xs -> !ss
    %sd = tcp.commit %s : !ss -> !sdm
    %s5 = tcp.fetch sub %sd : !sdm -> !ss
    %c5 = tcp.collect %s5 : !ss
    %sv = tcp.to_vrf %c5 : !ss -> !svrf

    // 6. y = e / sum.
    %s6 = tcp.fetch main %ed : !vdm -> !xs
    %c6 = tcp.collect %s6 : !xs
    %q = tcp.vector %c6 [div_f vrf(%sv : !svrf)] : !xs
    %yd = tcp.commit %q : !xs -> !vdm
    tcp.dma %yd into %y : !vdm -> !v
    return
  }
}
