// rmsnorm: y = bf16(f32(x) * f32(w) / sqrt(mean(f32(x)^2) + 1e-6)) over H = 1024.
//
// x and w spread over the 256 slices of cluster 0, 4 values each. Passes:
//   1. x^2 summed per slice (intra-slice tree) and across the 256 slices (inter-slice
//      reducer): every slice gets the sum (axis R replaces H / 4 in the slice mapping).
//   2. rms = sqrt(sum * (1/1024) + 1e-6) with one fma and the FPU's sqrt.
//   3-4. rms and w into the Vector Register File (sub context).
//   5. x * w (VRF operand), 6. / rms (VRF operand, broadcast), cast to bf16, commit.
// Each Vector Engine invocation reads at most one VRF tensor, hence passes 5 and 6.
!v = !tcp.hbm<bf16, "H">
!vdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">
!xs = !tcp.stream<f32, cluster = "1 # 2", slice = "H / 4", time = "1", packet = "H % 4">
!ys = !tcp.stream<bf16, cluster = "1 # 2", slice = "H / 4", time = "1", packet = "H % 4">
!xfdm = !tcp.dm<f32, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">
!wvrf = !tcp.vrf<f32, cluster = "1 # 2", slice = "H / 4", elem = "H % 4">
!ss = !tcp.stream<f32, cluster = "1 # 2", slice = "R", time = "1", packet = "1 # 2">
!sdm = !tcp.dm<f32, cluster = "1 # 2", slice = "R", elem = "1 # 2">
!svrf = !tcp.vrf<f32, cluster = "1 # 2", slice = "R", elem = "1 # 2">

module attributes {tcp.axes = {H = 1024, R = 256}} {
  func.func @rmsnorm(%x: !v {tcp.arg = "in", tcp.name = "x"},
                     %w: !v {tcp.arg = "in", tcp.name = "w"},
                     %y: !v {tcp.arg = "out", tcp.name = "y"}) {
    %xd = tcp.dma %x : !v -> !vdm
    %wd = tcp.dma %w : !v -> !vdm

    // 1. sum of squares on every slice.
    %x1 = tcp.fetch main %xd : !vdm -> !xs
    %c1 = tcp.collect %x1 : !xs
    %q = tcp.vector %c1 [stash, mul_f stash, reduce_add_f, inter_add_f] : !xs -> !ss
    %sum = tcp.commit %q : !ss -> !sdm

    // 2. rms = sqrt(sum / 1024 + eps).
    %s2 = tcp.fetch main %sum : !sdm -> !ss
    %c2 = tcp.collect %s2 : !ss
    %r = tcp.vector %c2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !ss
    %rms = tcp.commit %r : !ss -> !sdm

    // 3-4. operands into the VRF.
    %s3 = tcp.fetch sub %rms : !sdm -> !ss
    %c3 = tcp.collect %s3 : !ss
    %rv = tcp.to_vrf %c3 : !ss -> !svrf
    %s4 = tcp.fetch sub %wd : !vdm -> !xs
    %c4 = tcp.collect %s4 : !xs
    %wv = tcp.to_vrf %c4 : !xs -> !wvrf

    // 5. x * w.
    %s5 = tcp.fetch main %xd : !vdm -> !xs
    %c5 = tcp.collect %s5 : !xs
    %p = tcp.vector %c5 [mul_f vrf(%wv : !wvrf)] : !xs
    %xw = tcp.commit %p : !xs -> !xfdm

    // 6. / rms, to bf16.
    %s6 = tcp.fetch main %xw : !xfdm -> !xs
    %c6 = tcp.collect %s6 : !xs
    %n = tcp.vector %c6 [div_f vrf(%rv : !svrf)] : !xs
    %b = tcp.cast %n : !xs -> !ys
    %yd = tcp.commit %b : !ys -> !vdm
    tcp.dma %yd into %y : !vdm -> !v
    return
  }
}
