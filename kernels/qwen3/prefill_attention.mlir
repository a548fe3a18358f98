// Qwen3-0.6B multi-token `prefill_attention` stage: a block of T = 512 queries against one
// earlier, full 512-key chunk of the cache (no mask), folding it into each query's
// online-softmax state (read and written), for every one of the 16 q heads:
//   s[t, s] = bf16((q . k) / sqrt(128))
//   m'      = max(m, max_s s[t, s])
//   alpha   = exp(m - m')
//   p[t, s] = bf16(exp(s[t, s] - m'))
//   l'      = l alpha + sum_s p[t, s]           (the P . 1 contraction)
//   o'      = p[t] . V + o alpha
// Before a block's first chunk the host sets m = -2^100, l = 0, o = 0 (alpha is then 0);
// prefill_attention_first folds the block's own chunk (causal) into the state and divides.
//
// Signature: q, k_cache, v_cache as prefill_attention_first's (the chunk's rows); the state
// max_hbm, sum_hbm f32 [N, G, T] (layout [N, G, TB, TT, TQ]) and out_hbm f32 [N, G, T, D]
// (layout [N, G, TB, TT, D % 64, D / 64, TQ]), each slice's part contiguous.
//
// Placement and passes: prefill_attention_first's without the mask and the diagonal tile (the
// queries in the TRF, the keys and V broadcast around each kv head's 64-slice ring).
// Rounding points: s and p are bf16; everything else is f32.
!qh = !tcp.hbm<bf16, "[TB / 4, N, G, TB % 4, TT, D / 8, TQ, D % 8]">
!kv = !tcp.hbm<bf16, "[SB, SI, N, D]">
!qdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D / 8, TQ / 8, TQ % 8, D % 8]">
!qload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[TQ % 8, TQ / 8, D / 16, D % 16 / 8]", packet = "D % 8">
!qtrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", lane = "TQ % 8", elem = "[TQ / 8, D]">
// They arrive as whole rows (8 keys x 128 values on slice (SB, SI / 8): 256-byte pieces), and
// the Switch Engine's inter_transpose swaps SI / 8 with D / 16 (a ring of 8, 512 cycles).
!krow = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, SI / 8]", elem = "[SI % 8, D]">
!krf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, SI / 8]", time = "[SI % 8, D / 16]", packet = "D % 16">
!krt = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", time = "[SI % 8, SI / 8]", packet = "D % 16">
!kdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", elem = "[SI, D % 16]">
!kf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", time = "SI", packet = "D % 16">
!ks = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, X64]", time = "[SI, SB, D / 16]", packet = "D % 16">
!sacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, SB, TQ / 8]", packet = "TQ % 8">
!sres = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, SB, TQ / 8]", packet = "TQ % 8">
!sdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SI, SB, TQ / 8, TQ % 8]">
!qrow = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "TQ / 8", packet = "TQ % 8">
!qrowdm = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ / 8, TQ % 8]">
!qrowvrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ / 8, TQ % 8]">
!ein = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!einb = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!eout = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, TQ / 8, TQ % 8]", packet = "SI % 4">
!pdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ % 8, TQ / 8, SB, SI]">
!pload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[TQ % 8, TQ / 8, SB, SI / 16]", packet = "SI % 16">
!ptrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", lane = "TQ % 8", elem = "[TQ / 8, SB, SI]">
!pview = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SB, SI]">
!onein = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 8]", packet = "SI % 8">
!onedm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SB, SI]">
!ones = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 16]", packet = "SI % 16">
!lacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "TQ / 8", packet = "TQ % 8">
!vdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", elem = "[SI % 16, D % 64]">
!vrows = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "[SI % 16 / 4, D % 64 / 16, SI % 4, D % 16 / 8]", packet = "D % 8">
!vcols = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "[SI % 16 / 4, D % 64 / 16, D % 16 / 8, D % 8]", packet = "SI % 4">
!vtdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", elem = "[D % 64, SI % 16]">
!vf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "D % 64", packet = "SI % 16">
!vs = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, X64]", time = "[D % 64, SB, D / 64, SI / 16]", packet = "SI % 16">
!oacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D % 64, D / 64, TQ / 8]", packet = "TQ % 8">
!odm = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">
!oload = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D % 64, D / 64, TQ / 8]", packet = "TQ % 8">
!ovrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">
!sth = !tcp.hbm<f32, "[N, G, TB, TT, TQ]">
!oh = !tcp.hbm<f32, "[N, G, TB, TT, D % 64, D / 64, TQ]">
!ostate = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">


module attributes {tcp.axes = {N = 8, G = 2, D = 128, TB = 8, TT = 4, TQ = 16, SB = 8, SI = 64,
                               X64 = 64}} {
  func.func @prefill_attention(%q: !qh {tcp.arg = "in", tcp.name = "q"},
                               %k: !kv {tcp.arg = "in", tcp.name = "k_cache"},
                               %v: !kv {tcp.arg = "in", tcp.name = "v_cache"},
                               %max_hbm: !sth {tcp.arg = "inout", tcp.name = "max_hbm"},
                               %sum_hbm: !sth {tcp.arg = "inout", tcp.name = "sum_hbm"},
                               %out_hbm: !oh {tcp.arg = "inout", tcp.name = "out_hbm"}) {
    %qd = tcp.dma %q : !qh -> !qdm
    %q1 = tcp.fetch main %qd : !qdm -> !qload
    %q2 = tcp.collect %q1 : !qload
    %qt = tcp.to_trf %q2 : !qload -> !qtrf

    // s = bf16(q . k / sqrt(128)).
    %kr = tcp.dma %k : !kv -> !krow
    %kr1 = tcp.fetch main %kr : !krow -> !krf
    %kr2 = tcp.switch inter_transpose %kr1 : !krf -> !krt
    %kr3 = tcp.collect %kr2 : !krt
    %kd = tcp.commit %kr3 : !krt -> !kdm
    %k1 = tcp.fetch main %kd : !kdm -> !kf
    %k2 = tcp.switch broadcast1 %k1 : !kf -> !ks
    %k3 = tcp.collect %k2 : !ks
    %sa = tcp.contract %k3, %qt pack 2 : !ks, !qtrf -> !sacc
    %sv = tcp.vector %sa [div_f 11.313708] : !sacc
    %sb = tcp.cast %sv : !sacc -> !sres
    %sd = tcp.commit %sb : !sres -> !sdm

    // m' = max(m, max_s s); alpha = exp(m - m').
    %m1 = tcp.fetch main %sd : !sdm -> !sacc
    %m2 = tcp.collect %m1 : !sacc
    %m3 = tcp.vector %m2 [reduce_max_f] : !sacc -> !qrow
    %mc = tcp.commit %m3 : !qrow -> !qrowdm
    %mo = tcp.dma %max_hbm : !sth -> !qrowdm
    %n1 = tcp.fetch sub %mo : !qrowdm -> !qrow
    %n2 = tcp.collect %n1 : !qrow
    %mov = tcp.to_vrf %n2 : !qrow -> !qrowvrf
    %x1 = tcp.fetch main %mc : !qrowdm -> !qrow
    %x2 = tcp.collect %x1 : !qrow
    %x3 = tcp.vector %x2 [max_f vrf(%mov : !qrowvrf)] : !qrow
    %m = tcp.commit %x3 : !qrow -> !qrowdm
    %x4 = tcp.fetch sub %m : !qrowdm -> !qrow
    %x5 = tcp.collect %x4 : !qrow
    %mv = tcp.to_vrf %x5 : !qrow -> !qrowvrf
    %a1 = tcp.fetch main %mo : !qrowdm -> !qrow
    %a2 = tcp.collect %a1 : !qrow
    %a3 = tcp.vector %a2 [sub_f vrf(%mv : !qrowvrf), exp_f] : !qrow
    %al = tcp.commit %a3 : !qrow -> !qrowdm
    %a4 = tcp.fetch sub %al : !qrowdm -> !qrow
    %a5 = tcp.collect %a4 : !qrow
    %alv = tcp.to_vrf %a5 : !qrow -> !qrowvrf

    // p = bf16(exp(s - m')), transposed into the TRF.
    %e1 = tcp.fetch main %sd : !sdm -> !ein
    %e2 = tcp.collect %e1 : !ein
    %e3 = tcp.vector %e2 [sub_f vrf(%mv : !qrowvrf), exp_f] : !ein
    %e4 = tcp.cast %e3 : !ein -> !einb
    %e5 = tcp.transpose %e4 : !einb -> !eout
    %pd = tcp.commit %e5 : !eout -> !pdm
    %p1 = tcp.fetch main %pd : !pdm -> !pload
    %p2 = tcp.collect %p1 : !pload
    %pt = tcp.to_trf %p2 : !pload -> !ptrf

    // l' = l alpha + p . 1.
    %pv = tcp.dm_view %pd offset 0 : !pdm -> !pview
    %o1 = tcp.fetch main %pv : !pview -> !onein
    %o2 = tcp.collect %o1 : !onein
    %o3 = tcp.vector %o2 [fma_f 0.0 + 1.0] : !onein
    %one = tcp.commit %o3 {cast} : !onein -> !onedm
    %l1 = tcp.fetch main %one : !onedm -> !ones
    %l2 = tcp.collect %l1 : !ones
    %la = tcp.contract %l2, %pt pack 2 : !ones, !ptrf -> !lacc
    %lc = tcp.commit %la : !lacc -> !qrowdm
    %l3 = tcp.fetch sub %lc : !qrowdm -> !qrow
    %l4 = tcp.collect %l3 : !qrow
    %lcv = tcp.to_vrf %l4 : !qrow -> !qrowvrf
    %lo = tcp.dma %sum_hbm : !sth -> !qrowdm
    %l5 = tcp.fetch main %lo : !qrowdm -> !qrow
    %l6 = tcp.collect %l5 : !qrow
    %l7 = tcp.vector %l6 [mul_f vrf(%alv : !qrowvrf)] : !qrow
    %ls = tcp.commit %l7 : !qrow -> !qrowdm
    %l8 = tcp.fetch main %ls : !qrowdm -> !qrow
    %l9 = tcp.collect %l8 : !qrow
    %l10 = tcp.vector %l9 [add_f vrf(%lcv : !qrowvrf)] : !qrow
    %l = tcp.commit %l10 : !qrow -> !qrowdm

    // o' = p . V + o alpha: o alpha into the VRF, added in the contraction's chain.
    %od = tcp.dma %out_hbm : !oh -> !ostate
    %y1 = tcp.fetch main %od : !ostate -> !oload
    %y2 = tcp.collect %y1 : !oload
    %y3 = tcp.vector %y2 [mul_f vrf(%alv : !qrowvrf)] : !oload
    %oa = tcp.commit %y3 : !oload -> !odm
    %y4 = tcp.fetch main %oa : !odm -> !oload
    %y5 = tcp.collect %y4 : !oload
    %oav = tcp.to_vrf %y5 : !oload -> !ovrf
    %vd = tcp.dma %v : !kv -> !vdm
    %v1 = tcp.fetch main %vd : !vdm -> !vrows
    %v2 = tcp.collect %v1 : !vrows
    %v3 = tcp.transpose %v2 : !vrows -> !vcols
    %vt = tcp.commit %v3 : !vcols -> !vtdm
    %u1 = tcp.fetch main %vt : !vtdm -> !vf
    %u2 = tcp.switch broadcast1 %u1 : !vf -> !vs
    %u3 = tcp.collect %u2 : !vs
    %ob = tcp.contract %u3, %pt pack 2 : !vs, !ptrf -> !oacc
    %os = tcp.vector %ob [add_f vrf(%oav : !ovrf)] : !oacc
    %o = tcp.commit %os : !oacc -> !ostate

    tcp.dma %m into %max_hbm : !qrowdm -> !sth
    tcp.dma %l into %sum_hbm : !qrowdm -> !sth
    tcp.dma %o into %out_hbm : !ostate -> !oh
    return
  }
}
