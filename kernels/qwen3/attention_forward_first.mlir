// Qwen3-0.6B `attention_forward_first` stage: the first 512-key chunk of online softmax.
//   s   = bf16((q . k) / sqrt(128))           scores [N, G, T]
//   m   = max_t s                             (the mask does not enter the max)
//   e   = min(exp(s - m), mask)               mask in {0, 1}
//   l   = sum_t e + 6.25e-8
//   o   = bf16(e) . V                          (unnormalised; the decoder divides by l)
// Outputs: max_hbm = m, sum_hbm = l (f32 [N, G]), out_hbm = o (bf16 [N, G, D]).
//
// Placement: 256 slices [N, T / 16], kv heads 0..3 on 128 slices of cluster 0 and 4..7 on 128
// of cluster 1, so K and V stream into both clusters' DM. Each slice holds 16 keys of one kv
// head (both q heads of its group stream against them), so V's transposition and TRF load are
// short. q comes from HBM once per 16-slice ring (slice s of a ring holds packet s of its kv
// head's [G, D / 16]) and reaches every slice through the Switch Engine as the scores
// contraction streams it. V goes first: it is transposed by the Transpose Engine and loaded
// into the TRF on main while K streams in. Once K lands main runs the softmax chain; the
// passes that only move data (m into the VRF, m's copy for its store, the mask into the VRF)
// run on sub. Reductions over T run within a slice, then across the 32 slices of a head with
// the inter-slice reducer (fresh axis X32), in the order the oracle sums: P . V's tree over a
// slice's 16 keys and then over adjacent slices is the tree over each 32-key block and then
// over the blocks. The sum l runs in key order over each 32-key block: the block's two slices
// exchange their keys (Broadcast01), each sums the 32 in order, and the inter-slice tree over
// the head's 32 slices adds every block's sum twice, exactly 2 l (halved by the fma with 0.5
// that adds the 6.25e-8).
!q = !tcp.hbm<bf16, "[N, G, D]">
!kv = !tcp.hbm<bf16, "[T, N, D]">
!mask = !tcp.hbm<f32, "T">
!ng = !tcp.hbm<f32, "[N, G]">

!qdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, R2, G, D / 16]", elem = "D % 16">
!qf = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, R2, G, D / 16]", time = "1", packet = "D % 16">
!qs = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, R2, X16]", time = "[G, D / 16]", packet = "D % 16">
!kvdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", elem = "[T % 16, D]">
!kload = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[T % 8, T / 8 % 2, D / 16]", packet = "D % 16">
!ktrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", lane = "T % 8", elem = "[T / 8 % 2, D]">
!sacc = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[G, T / 8 % 2]", packet = "T % 8">
!sres = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[G, T / 8 % 2]", packet = "T % 8">
!sdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", elem = "[G, T % 16]">
!edm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", elem = "[G, T % 16]">
// The sum over T in key order: each 32-key block's two slices exchange their keys
// (Broadcast01, fresh axis X2), so both stream the block's 32 keys in order.
!byt = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 32, T / 16 % 2]", time = "T % 16", packet = "G">
!byt2 = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 32, X2]", time = "[T / 16 % 2, T % 16]", packet = "G">
!lsum = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X16, Y2]", time = "1", packet = "G">
!lsumdm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X16, Y2]", elem = "G">
!lred = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X16, Y2]", time = "1", packet = "G # 8">
!lreddm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X16, Y2]", elem = "G # 8">
!red = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", time = "1", packet = "G # 8">
!reddm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", elem = "G # 8">
!redvrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", elem = "G # 8">
// m packed for its store (8 bytes: sub's commit access).
!m8 = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", time = "1", packet = "G">
!m8dm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", elem = "G">
// The max over T in any order (max is exact): keys in the packet, one slot per q head.
!redg = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", time = "G", packet = "1 # 2">
!redgdm = !tcp.dm<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", elem = "[G, 1 # 2]">
// Element-wise passes: keys in the packet.
!gt = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[G, T / 8 % 2]", packet = "T % 8">
!tg = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[T / 8 % 2, G]", packet = "T % 8">
!maskdm = !tcp.dm<f32, cluster = "C2", slice = "[1 # 2, RN4, T / 16]", elem = "T % 16">
!maskload = !tcp.stream<f32, cluster = "C2", slice = "[1 # 2, RN4, T / 16]", time = "T / 2 % 8", packet = "T % 2">
!maskvrf = !tcp.vrf<f32, cluster = "C2", slice = "[1 # 2, RN4, T / 16]", elem = "T % 16">
!ebdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", elem = "[G, T % 16]">
// V transposed to [D, T % 16] per slice (4 x 16 matrices), then one TRF lane per D % 8.
!vrows = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[T / 4 % 4, D / 16, T % 4, D / 8 % 2]", packet = "D % 8">
!vcols = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[T / 4 % 4, D / 16, D / 8 % 2, D % 8]", packet = "T % 4">
!vtdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", elem = "[D, T % 16]">
!vload = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[D % 8, D / 8]", packet = "T % 16">
!vtrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", lane = "D % 8", elem = "[D / 8, T % 16]">
!ps = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "G", packet = "T % 16">
!oacc = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, T / 16]", time = "[G, D / 8]", packet = "D % 8">
!osum = !tcp.stream<f32, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", time = "[G, D / 8]", packet = "D % 8">
!ores = !tcp.stream<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", time = "[G, D / 8]", packet = "D % 8">
!odm = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 2, N % 4, X32]", elem = "[G, D]">

module attributes {tcp.axes = {N = 8, G = 2, D = 128, T = 512, R2 = 2, X2 = 2, Y2 = 2, X16 = 16, X32 = 32, RN4 = 4, C2 = 2}} {
  func.func @attention_forward_first(%q: !q {tcp.arg = "in", tcp.name = "q"},
                                     %k: !kv {tcp.arg = "in", tcp.name = "k"},
                                     %v: !kv {tcp.arg = "in", tcp.name = "v"},
                                     %mask: !mask {tcp.arg = "in", tcp.name = "mask"},
                                     %max_hbm: !ng {tcp.arg = "out", tcp.name = "max_hbm"},
                                     %sum_hbm: !ng {tcp.arg = "out", tcp.name = "sum_hbm"},
                                     %out_hbm: !q {tcp.arg = "out", tcp.name = "out_hbm"}) {
    // V first: its transpose and TRF load run on main while K loads.
    %vd = tcp.dma %v : !kv -> !kvdm
    %vr = tcp.fetch main %vd : !kvdm -> !vrows
    %vrc = tcp.collect %vr : !vrows
    %vc = tcp.transpose %vrc : !vrows -> !vcols
    %vtd = tcp.commit %vc : !vcols -> !vtdm
    %vl = tcp.fetch main %vtd : !vtdm -> !vload
    %vlc = tcp.collect %vl : !vload
    %vt = tcp.to_trf %vlc : !vload -> !vtrf

    // s = bf16(q . k / sqrt(128)).
    %kd = tcp.dma %k : !kv -> !kvdm
    %kl = tcp.fetch main %kd : !kvdm -> !kload
    %klc = tcp.collect %kl : !kload
    %kt = tcp.to_trf %klc : !kload -> !ktrf
    %qd = tcp.dma %q : !q -> !qdm
    %qf = tcp.fetch main %qd : !qdm -> !qf
    %qsw = tcp.switch broadcast1 %qf : !qf -> !qs
    %qc = tcp.collect %qsw : !qs
    %sa = tcp.contract %qc, %kt pack 2 : !qs, !ktrf -> !sacc
    %ss = tcp.vector %sa [div_f 11.313708] : !sacc
    %sb = tcp.cast %ss : !sacc -> !sres
    %sd = tcp.commit %sb : !sres -> !sdm

    // m = max over the chunk, on every slice of the head.
    %m1 = tcp.fetch main %sd : !sdm -> !tg
    %mc = tcp.collect %m1 : !tg
    %mr = tcp.vector %mc [reduce_max_f, inter_max_f] : !tg -> !redg
    %md = tcp.commit %mr : !redg -> !redgdm
    %m2 = tcp.fetch sub %md : !redgdm -> !red
    %m2c = tcp.collect %m2 : !red
    %mv = tcp.to_vrf %m2c : !red -> !redvrf

    // e = min(exp(s - m), mask).
    %e1 = tcp.fetch main %sd : !sdm -> !tg
    %e1c = tcp.collect %e1 : !tg
    %ex = tcp.vector %e1c [sub_f vrf(%mv : !redvrf), exp_f] : !tg
    %exd = tcp.commit %ex : !tg -> !edm
    %mkd = tcp.dma %mask : !mask -> !maskdm
    %mkl = tcp.fetch sub %mkd : !maskdm -> !maskload
    %mklc = tcp.collect %mkl : !maskload
    %mkv = tcp.to_vrf %mklc : !maskload -> !maskvrf
    %e2 = tcp.fetch main %exd : !edm -> !gt
    %e2c = tcp.collect %e2 : !gt
    %em = tcp.vector %e2c [min_f vrf(%mkv : !maskvrf)] : !gt
    %ed = tcp.commit %em : !gt -> !edm
    %e3 = tcp.fetch main %ed : !edm -> !gt
    %e3c = tcp.collect %e3 : !gt
    %ebd = tcp.commit %e3c {cast} : !gt -> !ebdm

    // l = sum over the chunk + 6.25e-8: each block's sum in key order on both its slices,
    // whose 32 values per head then sum to 2 l exactly (the fma's 0.5 undoes it).
    %l1 = tcp.fetch main %ed : !edm -> !byt
    %l1s = tcp.switch broadcast01 %l1 : !byt -> !byt2
    %l1c = tcp.collect %l1s : !byt2
    %lr = tcp.vector %l1c [reduce_add_f, inter_add_f] : !byt2 -> !lsum
    %lrd = tcp.commit %lr : !lsum -> !lsumdm
    %l2 = tcp.fetch main %lrd : !lsumdm -> !lred
    %l2c = tcp.collect %l2 : !lred
    %le = tcp.vector %l2c [fma_f 5.0e-01 + 6.25e-08] : !lred
    %ld = tcp.commit %le : !lred -> !lreddm

    // o = bf16(e) . V, summed over the 32 slices of the head.
    %pf = tcp.fetch main %ebd : !ebdm -> !ps
    %pc = tcp.collect %pf : !ps
    %oa = tcp.contract %pc, %vt pack 1 : !ps, !vtrf -> !oacc
    %os = tcp.vector %oa [inter_add_f] : !oacc -> !osum
    %ob = tcp.cast %os : !osum -> !ores
    %od = tcp.commit %ob : !ores -> !odm

    %ms = tcp.fetch sub %md : !redgdm -> !m8
    %msc = tcp.collect %ms : !m8
    %mdd = tcp.commit %msc : !m8 -> !m8dm
    tcp.dma %mdd into %max_hbm : !m8dm -> !ng
    tcp.dma %ld into %sum_hbm : !lreddm -> !ng
    tcp.dma %od into %out_hbm : !odm -> !q
    return
  }
}
