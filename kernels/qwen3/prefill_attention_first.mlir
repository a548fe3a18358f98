// Qwen3-0.6B multi-token `prefill_attention_first` stage: causal attention of a block of
// T = 512 queries at positions 0..511 of a KV-cache chunk over the chunk's keys (the same
// positions), every one of the 16 q heads. For query t and key s of one head:
//   s[t, s] = bf16((q . k + mask) / sqrt(128)),  mask = 0 for s <= t, -2^100 for s > t
//   m[t]    = max(max_s s[t, s], m_in[t])         (masked keys are far below any real score)
//   alpha   = exp(m_in[t] - m[t])
//   p[t, s] = bf16(exp(s[t, s] - m[t]))           (0 for the masked keys)
//   l[t]    = sum_s p[t, s] + l_in[t] alpha       (the P . 1 contraction)
//   a[t]    = bf16((p[t] . V + o_in[t] alpha) / l[t])
// (m_in, l_in, o_in) is the online-softmax state of the block's earlier chunks
// (prefill_attention); for a block in the first chunk the host passes m_in = -2^100, l_in = 0,
// o_in = 0, so alpha = 0 and the carried terms are exact zeros.
//
// Signature (each slice's part contiguous in HBM):
//   q            [N, G, T, D] bf16 (head 2 N + G), layout
//                [TB / 4, N, G, TB % 4, TT, D / 8, TQ, D % 8] (T = [TB, TT, TQ] =
//                [T / 64, T % 64 / 16, T % 16]; each cluster's tokens of prefill_projection
//                apart)
//   k_cache, v_cache [S, N, D] bf16: the chunk (the decode stages' layout; S = [SB, SI])
//   tile_mask    f32 [TB, SB, TQ]: 0 where the key's 64-position tile is before the query's,
//                -2^100 where it is the same or after
//   diag_mask    f32 [TT, SI, TQ]: within a 64-position tile, 0 where the key is at or
//                before the query, -2^100 after
//   max_in, sum_in f32 [N, G, T] (layout [N, G, TB, TT, TQ]), out_in f32 [N, G, T, D] (layout
//                [N, G, TB, TT, D % 64, D / 64, TQ]): the carried state
//   attn         bf16 a [N, G, T, D], layout [N, G, D / 16, T, D % 16] (the multi-token
//                decoder's slices each read 16 values of d for many tokens)
// The masks depend only on positions relative to the chunk, so one pair serves every block.
//
// Placement (docs/prefill.md): the queries stay in the TRF, 16 of one head per slice (8 lanes,
// two time-broadcast rows): slice [N % 4, T / 64, G, T % 64 / 16] of cluster N / 4, so a kv
// head's 64 slices are one ring. The keys reach them through the Switch Engine: slice
// (S / 64, D / 16) of a ring holds 64 keys x 16 values and the broadcast streams every key's
// 128 values in D order, one flit a cycle (4,096 contraction cycles); the keys come from HBM as
// whole rows (256-byte pieces, a fifth of the DMA time of 32-byte ones) and the Switch Engine's
// inter_transpose lays them out so (512 cycles). Scores come out with the keys in time and the
// queries in the lanes, so the softmax's max is an intra-slice reduce.
// The causal mask in two parts, both added in the contraction's chain from the VRF:
//  - the main contraction masks whole 64-key tiles at or after the query's tile (tile_mask,
//    16 values per slice);
//  - the diagonal tile is contracted again, from the same key DM: the 8 slices of a query tile
//    hold exactly that tile's keys, so a broadcast over that 8-slice ring streams them
//    (512 cycles), and diag_mask (4 KB, one of 4 patterns) removes the later keys.
// p is transposed (4 keys a packet) into the TRF next to the queries; V, transposed on each
// slice to [D % 64, S % 16], is broadcast around the same rings (main: 64 slices, diagonal: 8)
// and contracted against p: o's two parts are added from the VRF, then divided by l and
// transposed so that each query's 16-value pieces of d are contiguous. l is p . 1, the ones made from a view of
// p (x 0 + 1).
// The carried state folds in beside the diagonal tile: o_in alpha through the VRF into the
// diagonal part's chain, l_in alpha added to l.
// Rounding points: s, p and a are bf16; the contraction sums, m, l, o (the sum of its parts)
// and o / l are f32.
!qh = !tcp.hbm<bf16, "[TB / 4, N, G, TB % 4, TT, D / 8, TQ, D % 8]">
!kv = !tcp.hbm<bf16, "[SB, SI, N, D]">
!tmh = !tcp.hbm<f32, "[TB, SB, TQ]">
!dmh = !tcp.hbm<f32, "[TT, SI, TQ]">
!ah = !tcp.hbm<bf16, "[N, G, D / 16, TB, TT, TQ, D % 16]">
!sth = !tcp.hbm<f32, "[N, G, TB, TT, TQ]">
!osh = !tcp.hbm<f32, "[N, G, TB, TT, D % 64, D / 64, TQ]">

// The queries: 16 of one head per slice, into the TRF.
!qdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D / 8, TQ / 8, TQ % 8, D % 8]">
!qload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[TQ % 8, TQ / 8, D / 16, D % 16 / 8]", packet = "D % 8">
!qtrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", lane = "TQ % 8", elem = "[TQ / 8, D]">

// The keys: slice (SB, D / 16) of a kv head's ring holds 64 keys x 16 values.
// They arrive as whole rows (8 keys x 128 values on slice (SB, SI / 8): 256-byte pieces), and
// the Switch Engine's inter_transpose swaps SI / 8 with D / 16 (a ring of 8, 512 cycles).
!krow = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, SI / 8]", elem = "[SI % 8, D]">
!krf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, SI / 8]", time = "[SI % 8, D / 16]", packet = "D % 16">
!krt = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", time = "[SI % 8, SI / 8]", packet = "D % 16">
!kdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", elem = "[SI, D % 16]">
!kf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 16]", time = "SI", packet = "D % 16">
!ks = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, X64]", time = "[SI, SB, D / 16]", packet = "D % 16">
// The same bytes seen from a query tile: its 8 slices hold the keys of its own 64-key tile.
!kddm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, D / 16]", elem = "[SI, D % 16]">
!kdf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, D / 16]", time = "SI", packet = "D % 16">
!kds = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, X8]", time = "[SI, D / 16]", packet = "D % 16">

// The masks, from HBM once per slice that uses them (fresh replica axes), into the VRF.
!tmdm = !tcp.dm<f32, cluster = "C2", slice = "[R4, TB, R2, R4B]", elem = "[SB, TQ]">
!tmload = !tcp.stream<f32, cluster = "C2", slice = "[R4, TB, R2, R4B]", time = "[SB, TQ / 8, TQ % 8 / 2]", packet = "TQ % 2">
!tmvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R4, TB, R2, R4B]", elem = "[SB, TQ]">
!dmdm = !tcp.dm<f32, cluster = "C2", slice = "[R4, R8, R2, TT]", elem = "[SI, TQ]">
!dmload = !tcp.stream<f32, cluster = "C2", slice = "[R4, R8, R2, TT]", time = "[SI, TQ / 8, TQ % 8 / 2]", packet = "TQ % 2">
!dmvrf = !tcp.vrf<f32, cluster = "C2", slice = "[R4, R8, R2, TT]", elem = "[SI, TQ]">

// Scores: keys in time, queries in the lanes.
!sacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, SB, TQ / 8]", packet = "TQ % 8">
!sres = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, SB, TQ / 8]", packet = "TQ % 8">
!sdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SI, SB, TQ / 8, TQ % 8]">
!dacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, TQ / 8]", packet = "TQ % 8">
!dres = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI, TQ / 8]", packet = "TQ % 8">
!ddm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SI, TQ]">

// m: the max over each part (one slot per time-broadcast row), then the larger of the two.
!qrow = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "TQ / 8", packet = "TQ % 8">
!qrowdm = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ / 8, TQ % 8]">
!qrowvrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ / 8, TQ % 8]">

// p = bf16(exp(s - m)), transposed on the way: 4 keys a packet, the lanes into time.
!ein = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!einb = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!eout = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 4, TQ / 8, TQ % 8]", packet = "SI % 4">
!pdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ % 8, TQ / 8, SB, SI]">
!pload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[TQ % 8, TQ / 8, SB, SI / 16]", packet = "SI % 16">
!ptrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", lane = "TQ % 8", elem = "[TQ / 8, SB, SI]">
!dein = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!deinb = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI / 4, SI % 4, TQ / 8]", packet = "TQ % 8">
!deout = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SI / 4, TQ / 8, TQ % 8]", packet = "SI % 4">
!pddm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[TQ % 8, TQ / 8, SI]">
!pdload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[TQ % 8, TQ / 8, SI / 16]", packet = "SI % 16">
!pdtrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", lane = "TQ % 8", elem = "[TQ / 8, SI]">

// l = p . 1: the ones from a view of p's first 512 values (p x 0 + 1; p is finite).
!pview = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SB, SI]">
!onein = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 8]", packet = "SI % 8">
!onedm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[SB, SI]">
!ones = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[SB, SI / 16]", packet = "SI % 16">
!onesd = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "SI / 16", packet = "SI % 16">
!lacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "TQ / 8", packet = "TQ % 8">

// V: slice (SB, D / 64, SI / 16) of a ring holds 16 keys x 64 values, transposed in
// place to [D % 64, SI % 16]; the main ring streams all 512 keys for each d, the diagonal ring
// (8 slices, the query tile's) the 64 keys of that tile.
!vdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", elem = "[SI % 16, D % 64]">
!vrows = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "[SI % 16 / 4, D % 64 / 16, SI % 4, D % 16 / 8]", packet = "D % 8">
!vcols = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "[SI % 16 / 4, D % 64 / 16, D % 16 / 8, D % 8]", packet = "SI % 4">
!vtdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", elem = "[D % 64, SI % 16]">
!vf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, SB, D / 64, SI / 16]", time = "D % 64", packet = "SI % 16">
!vs = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, X64]", time = "[D % 64, SB, D / 64, SI / 16]", packet = "SI % 16">
!vtddm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, D / 64, SI / 16]", elem = "[D % 64, SI % 16]">
!vdf = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, D / 64, SI / 16]", time = "D % 64", packet = "SI % 16">
!vds = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, X8]", time = "[D % 64, D / 64, SI / 16]", packet = "SI % 16">

// o: the two parts (d in time, queries in the lanes), the diagonal's through the VRF.
!oacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D % 64, D / 64, TQ / 8]", packet = "TQ % 8">
!odm = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">
!oload = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D % 64, D / 64, TQ / 8]", packet = "TQ % 8">
!ovrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">
!ostate = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D % 64, D / 64, TQ / 8, TQ % 8]">
// a = bf16(o / l), transposed on the way (4 values of d a packet) into [D / 16, T % 16, D % 16].
!ain = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D / 64, D % 64 / 4, D % 4, TQ / 8]", packet = "TQ % 8">
!ainb = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D / 64, D % 64 / 4, D % 4, TQ / 8]", packet = "TQ % 8">
!aout = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", time = "[D / 64, D % 64 / 4, TQ / 8, TQ % 8]", packet = "D % 4">
!adm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, TB, G, TT]", elem = "[D / 16, TQ / 8, TQ % 8, D % 16]">

module attributes {tcp.axes = {N = 8, G = 2, D = 128, TB = 8, TT = 4, TQ = 16, SB = 8, SI = 64, X64 = 64, X8 = 8,
                               C2 = 2, R4 = 4, R2 = 2, R4B = 4, R8 = 8}} {
  func.func @prefill_attention_first(%q: !qh {tcp.arg = "in", tcp.name = "q"},
                         %k: !kv {tcp.arg = "in", tcp.name = "k_cache"},
                         %v: !kv {tcp.arg = "in", tcp.name = "v_cache"},
                         %tile_mask: !tmh {tcp.arg = "in", tcp.name = "tile_mask"},
                         %diag_mask: !dmh {tcp.arg = "in", tcp.name = "diag_mask"},
                         %max_in: !sth {tcp.arg = "in", tcp.name = "max_in"},
                         %sum_in: !sth {tcp.arg = "in", tcp.name = "sum_in"},
                         %out_in: !osh {tcp.arg = "in", tcp.name = "out_in"},
                         %attn: !ah {tcp.arg = "out", tcp.name = "attn"}) {
    // The queries into the TRF; the masks into the VRF.
    %qd = tcp.dma %q : !qh -> !qdm
    %q1 = tcp.fetch main %qd : !qdm -> !qload
    %q2 = tcp.collect %q1 : !qload
    %qt = tcp.to_trf %q2 : !qload -> !qtrf
    %tmd = tcp.dma %tile_mask : !tmh -> !tmdm
    %tm1 = tcp.fetch sub %tmd : !tmdm -> !tmload
    %tm2 = tcp.collect %tm1 : !tmload
    %tmv = tcp.to_vrf %tm2 : !tmload -> !tmvrf
    %dmd = tcp.dma %diag_mask : !dmh -> !dmdm
    %dm1 = tcp.fetch sub %dmd : !dmdm -> !dmload
    %dm2 = tcp.collect %dm1 : !dmload
    %dmv = tcp.to_vrf %dm2 : !dmload -> !dmvrf

    // Scores: every key against the tile mask, the diagonal tile's keys against its own.
    %kr = tcp.dma %k : !kv -> !krow
    %kr1 = tcp.fetch main %kr : !krow -> !krf
    %kr2 = tcp.switch inter_transpose %kr1 : !krf -> !krt
    %kr3 = tcp.collect %kr2 : !krt
    %kd = tcp.commit %kr3 : !krt -> !kdm
    %k1 = tcp.fetch main %kd : !kdm -> !kf
    %k2 = tcp.switch broadcast1 %k1 : !kf -> !ks
    %k3 = tcp.collect %k2 : !ks
    %sa = tcp.contract %k3, %qt pack 2 : !ks, !qtrf -> !sacc
    %sv = tcp.vector %sa [add_f vrf(%tmv : !tmvrf), div_f 11.313708] : !sacc
    %sb = tcp.cast %sv : !sacc -> !sres
    %sd = tcp.commit %sb : !sres -> !sdm
    %kdd = tcp.reinterpret %kd : !kdm -> !kddm
    %d1 = tcp.fetch main %kdd : !kddm -> !kdf
    %d2 = tcp.switch broadcast1 %d1 : !kdf -> !kds
    %d3 = tcp.collect %d2 : !kds
    %da = tcp.contract %d3, %qt pack 2 : !kds, !qtrf -> !dacc
    %dv = tcp.vector %da [add_f vrf(%dmv : !dmvrf), div_f 11.313708] : !dacc
    %db = tcp.cast %dv : !dacc -> !dres
    %dd = tcp.commit %db : !dres -> !ddm

    // m = max(max of the main part, max of the diagonal).
    %m1 = tcp.fetch main %sd : !sdm -> !sacc
    %m2 = tcp.collect %m1 : !sacc
    %m3 = tcp.vector %m2 [reduce_max_f] : !sacc -> !qrow
    %mm = tcp.commit %m3 : !qrow -> !qrowdm
    %n1 = tcp.fetch main %dd : !ddm -> !dacc
    %n2 = tcp.collect %n1 : !dacc
    %n3 = tcp.vector %n2 [reduce_max_f] : !dacc -> !qrow
    %md = tcp.commit %n3 : !qrow -> !qrowdm
    %n4 = tcp.fetch sub %md : !qrowdm -> !qrow
    %n5 = tcp.collect %n4 : !qrow
    %mdv = tcp.to_vrf %n5 : !qrow -> !qrowvrf
    %x1 = tcp.fetch main %mm : !qrowdm -> !qrow
    %x2 = tcp.collect %x1 : !qrow
    %x3 = tcp.vector %x2 [max_f vrf(%mdv : !qrowvrf)] : !qrow
    %mb = tcp.commit %x3 : !qrow -> !qrowdm
    %mi = tcp.dma %max_in : !sth -> !qrowdm
    %mi1 = tcp.fetch sub %mi : !qrowdm -> !qrow
    %mi2 = tcp.collect %mi1 : !qrow
    %miv = tcp.to_vrf %mi2 : !qrow -> !qrowvrf
    %x6 = tcp.fetch main %mb : !qrowdm -> !qrow
    %x7 = tcp.collect %x6 : !qrow
    %x8 = tcp.vector %x7 [max_f vrf(%miv : !qrowvrf)] : !qrow
    %m = tcp.commit %x8 : !qrow -> !qrowdm
    %x4 = tcp.fetch sub %m : !qrowdm -> !qrow
    %x5 = tcp.collect %x4 : !qrow
    %mv = tcp.to_vrf %x5 : !qrow -> !qrowvrf
    // alpha = exp(m_in - m): the carried state's weight (0 for a block's first chunk).
    %c1 = tcp.fetch main %mi : !qrowdm -> !qrow
    %c2 = tcp.collect %c1 : !qrow
    %c3 = tcp.vector %c2 [sub_f vrf(%mv : !qrowvrf), exp_f] : !qrow
    %al = tcp.commit %c3 : !qrow -> !qrowdm
    %c4 = tcp.fetch sub %al : !qrowdm -> !qrow
    %c5 = tcp.collect %c4 : !qrow
    %alv = tcp.to_vrf %c5 : !qrow -> !qrowvrf

    // p = bf16(exp(s - m)), transposed into the TRF.
    %e1 = tcp.fetch main %sd : !sdm -> !ein
    %e2 = tcp.collect %e1 : !ein
    %e3 = tcp.vector %e2 [sub_f vrf(%mv : !qrowvrf), exp_f] : !ein
    %e4 = tcp.cast %e3 : !ein -> !einb
    %e5 = tcp.transpose %e4 : !einb -> !eout
    %pd = tcp.commit %e5 : !eout -> !pdm
    %p1 = tcp.fetch main %pd : !pdm -> !pload
    %p2 = tcp.collect %p1 : !pload
    %pt = tcp.to_trf %p2 : !pload -> !ptrf
    %f1 = tcp.fetch main %dd : !ddm -> !dein
    %f2 = tcp.collect %f1 : !dein
    %f3 = tcp.vector %f2 [sub_f vrf(%mv : !qrowvrf), exp_f] : !dein
    %f4 = tcp.cast %f3 : !dein -> !deinb
    %f5 = tcp.transpose %f4 : !deinb -> !deout
    %pdd = tcp.commit %f5 : !deout -> !pddm
    %g1 = tcp.fetch main %pdd : !pddm -> !pdload
    %g2 = tcp.collect %g1 : !pdload
    %pdt = tcp.to_trf %g2 : !pdload -> !pdtrf

    // l = p . 1 over both parts.
    %pv = tcp.dm_view %pd offset 0 : !pdm -> !pview
    %o1 = tcp.fetch main %pv : !pview -> !onein
    %o2 = tcp.collect %o1 : !onein
    %o3 = tcp.vector %o2 [fma_f 0.0 + 1.0] : !onein
    %one = tcp.commit %o3 {cast} : !onein -> !onedm
    %l1 = tcp.fetch main %one : !onedm -> !ones
    %l2 = tcp.collect %l1 : !ones
    %la = tcp.contract %l2, %pt pack 2 : !ones, !ptrf -> !lacc
    %lm = tcp.commit %la : !lacc -> !qrowdm
    %l3 = tcp.fetch main %one : !onedm -> !onesd
    %l4 = tcp.collect %l3 : !onesd
    %lb = tcp.contract %l4, %pdt pack 2 : !onesd, !pdtrf -> !lacc
    %ld = tcp.commit %lb : !lacc -> !qrowdm
    %l5 = tcp.fetch sub %ld : !qrowdm -> !qrow
    %l6 = tcp.collect %l5 : !qrow
    %ldv = tcp.to_vrf %l6 : !qrow -> !qrowvrf
    %l7 = tcp.fetch main %lm : !qrowdm -> !qrow
    %l8 = tcp.collect %l7 : !qrow
    %l9 = tcp.vector %l8 [add_f vrf(%ldv : !qrowvrf)] : !qrow
    %lp = tcp.commit %l9 : !qrow -> !qrowdm
    %li = tcp.dma %sum_in : !sth -> !qrowdm
    %li1 = tcp.fetch main %li : !qrowdm -> !qrow
    %li2 = tcp.collect %li1 : !qrow
    %li3 = tcp.vector %li2 [mul_f vrf(%alv : !qrowvrf)] : !qrow
    %lia = tcp.commit %li3 : !qrow -> !qrowdm
    %li4 = tcp.fetch sub %lia : !qrowdm -> !qrow
    %li5 = tcp.collect %li4 : !qrow
    %liv = tcp.to_vrf %li5 : !qrow -> !qrowvrf
    %li6 = tcp.fetch main %lp : !qrowdm -> !qrow
    %li7 = tcp.collect %li6 : !qrow
    %li8 = tcp.vector %li7 [add_f vrf(%liv : !qrowvrf)] : !qrow
    %l = tcp.commit %li8 : !qrow -> !qrowdm

    // o = p . V: the diagonal tile's part into the VRF, then every key's part plus it.
    %vd = tcp.dma %v : !kv -> !vdm
    %v1 = tcp.fetch main %vd : !vdm -> !vrows
    %v2 = tcp.collect %v1 : !vrows
    %v3 = tcp.transpose %v2 : !vrows -> !vcols
    %vt = tcp.commit %v3 : !vcols -> !vtdm
    %vtd = tcp.reinterpret %vt : !vtdm -> !vtddm
    %w1 = tcp.fetch main %vtd : !vtddm -> !vdf
    %w2 = tcp.switch broadcast1 %w1 : !vdf -> !vds
    %w3 = tcp.collect %w2 : !vds
    %oi = tcp.dma %out_in : !osh -> !ostate
    %oi1 = tcp.fetch main %oi : !ostate -> !oload
    %oi2 = tcp.collect %oi1 : !oload
    %oi3 = tcp.vector %oi2 [mul_f vrf(%alv : !qrowvrf)] : !oload
    %oia = tcp.commit %oi3 : !oload -> !odm
    %oi4 = tcp.fetch main %oia : !odm -> !oload
    %oi5 = tcp.collect %oi4 : !oload
    %oiv = tcp.to_vrf %oi5 : !oload -> !ovrf
    %oa = tcp.contract %w3, %pdt pack 2 : !vds, !pdtrf -> !oacc
    %oa2 = tcp.vector %oa [add_f vrf(%oiv : !ovrf)] : !oacc
    %od = tcp.commit %oa2 : !oacc -> !odm
    %y1 = tcp.fetch main %od : !odm -> !oload
    %y2 = tcp.collect %y1 : !oload
    %odv = tcp.to_vrf %y2 : !oload -> !ovrf
    %u1 = tcp.fetch main %vt : !vtdm -> !vf
    %u2 = tcp.switch broadcast1 %u1 : !vf -> !vs
    %u3 = tcp.collect %u2 : !vs
    %ob = tcp.contract %u3, %pt pack 2 : !vs, !ptrf -> !oacc
    %os = tcp.vector %ob [add_f vrf(%odv : !ovrf)] : !oacc
    %o = tcp.commit %os : !oacc -> !odm

    // a = bf16(o / l), 16 values of d contiguous per query.
    %z1 = tcp.fetch sub %l : !qrowdm -> !qrow
    %z2 = tcp.collect %z1 : !qrow
    %lv = tcp.to_vrf %z2 : !qrow -> !qrowvrf
    %a1 = tcp.fetch main %o : !odm -> !ain
    %a2 = tcp.collect %a1 : !ain
    %a3 = tcp.vector %a2 [div_f vrf(%lv : !qrowvrf)] : !ain
    %a4 = tcp.cast %a3 : !ain -> !ainb
    %a5 = tcp.transpose %a4 : !ainb -> !aout
    %a = tcp.commit %a5 : !aout -> !adm
    tcp.dma %a into %attn : !adm -> !ah
    return
  }
}
