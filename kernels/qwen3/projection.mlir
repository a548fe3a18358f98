// Qwen3-0.6B `projection` stage: x^ = RMSNorm(x); q, k, v = x^ W^T; per-head RMSNorm of q and
// k; RoPE on q and k (out = x cos + swap(x) sin, the host's sin has its first half negated);
// the new k and v rows scattered into the caches at byte offset kv_offset; q written to q_out.
//
// RMSNorm of x runs on one slice of cluster 0; x^ is spread over the four 64-slice rings of
// each cluster and reaches every slice through the Switch Engine. Projections run one row per
// TRF lane, so the weights stream into both clusters' DM and each slice's TRF load is short;
// the weights go to the TRF on main in 32-byte packets. q, k and v use all 256 slices of each
// cluster (q: 4 lanes, heads 0..7 in cluster 0; k and v: 2 lanes, kv heads 0..3 in cluster 0).
// Each q and k head is then gathered by the Switch Engine, no DMA: the partial rows of the
// head's slices are broadcast around the ring of those slices (32 for a q head, 64 for a k
// head) and committed on one slice per q head and two per k head, so the k heads sit on the q
// heads' slices (slice 32 x head) and share their cos and sin tables (replicated on both
// clusters, C2). v's slices are gathered the same way, four onto one (the scatter into the
// cache moves packets of a multiple of 8 bytes: 16 bytes of bf16 per slice, 64 packets per
// cluster), and v goes into the cache from there (one scatter descriptor per cluster).
// Rounding points: x^, the normalised q/k, the RoPE results and v are bf16.
!vec = !tcp.hbm<bf16, "H">
!qw = !tcp.hbm<bf16, "[Q, H]">
!kvw = !tcp.hbm<bf16, "[P, H]">
!qwv = !tcp.hbm<bf16, "[NH, D, H]">
!kvwv = !tcp.hbm<bf16, "[N, D, H]">
!dvec = !tcp.hbm<bf16, "D">
!off = !tcp.hbm<i32, "K">
!cache = !tcp.hbm<bf16, "[T, N, D]">
!qout = !tcp.hbm<bf16, "[N, G, D]">
!qoutv = !tcp.hbm<bf16, "[NH, D]">

// RMSNorm of x on one slice of cluster 0 (x and its norm weight come from HBM once). x^ is then
// spread over the four 64-slice rings of both clusters (replica axes K2, R4; slice H / 16 % 64
// of a ring holds packet H / 16) and broadcast within the ring by the Switch Engine as each
// contraction streams it, in the order of H.
!xone1 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "H">
!xs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "H / 8", packet = "H % 8">
!xone = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "1 # 2">
!xonedm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "1 # 2">
!xonevrf = !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "1 # 2">
!xw4 = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "H / 4", packet = "H % 4">
!xwvrf = !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "H">
!xfdm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "H">
!xring = !tcp.dm<bf16, cluster = "K2", slice = "[R4, H / 16]", elem = "H % 16">
!xf = !tcp.stream<bf16, cluster = "K2", slice = "[R4, H / 16]", time = "1", packet = "H % 16">
!xn = !tcp.stream<bf16, cluster = "K2", slice = "[R4, X64]", time = "H / 16", packet = "H % 16">

// q projection: 256 slices per cluster [NH % 8, D / 4], one row per TRF lane (4 lanes).
!qwdm = !tcp.dm<bf16, cluster = "NH / 8", slice = "[NH % 8, D / 4]", elem = "[D % 4, H]">
!qwload = !tcp.stream<bf16, cluster = "NH / 8", slice = "[NH % 8, D / 4]", time = "[D % 4, H / 16]", packet = "H % 16">
!qwtrf = !tcp.trf<bf16, cluster = "NH / 8", slice = "[NH % 8, D / 4]", lane = "D % 4", elem = "H">
!qacc = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, D / 4]", time = "1", packet = "D % 4 # 8">
!qpart = !tcp.dm<f32, cluster = "NH / 8", slice = "[NH % 8, D / 4]", elem = "D % 4">

// k and v projections: 256 slices per cluster [N % 4, D / 2], one row per TRF lane (2 lanes).
!kvwdm = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, D / 2]", elem = "[D % 2, H]">
!kvwload = !tcp.stream<bf16, cluster = "N / 4", slice = "[N % 4, D / 2]", time = "[D % 2, H / 16]", packet = "H % 16">
!kvwtrf = !tcp.trf<bf16, cluster = "N / 4", slice = "[N % 4, D / 2]", lane = "D % 2", elem = "H">
!kvacc = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, D / 2]", time = "1", packet = "D % 2 # 8">
!kvpart = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, D / 2]", elem = "D % 2">

// v's partial rows broadcast around each group of four slices (fresh axis X4) and committed on
// the first of them (f32: 8 bytes a time step; on sub, whose configuration then loads while
// main contracts), then cast to bf16 on that slice.
!vpf = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, D / 8, D / 2 % 4]", time = "1", packet = "D % 2">
!vpb = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, D / 8, X4]", time = "D / 2 % 4", packet = "D % 2">
!vgath = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, D / 8, 1 # 4]", elem = "D % 8">
!vps = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, D / 8, 1 # 4]", time = "1", packet = "D % 8">
!vpart = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, D / 8, 1 # 4]", elem = "D % 8">

// q's partial rows broadcast around each head's 32-slice ring (fresh axis X32), then one head
// per slice (slice 32 x head), heads 0..7 in cluster 0 (NH), and the tables on the same slices
// of both clusters (C2, RQ), shared with k.
!qpf = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, D / 4]", time = "1", packet = "D % 4">
!qpb = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, X32]", time = "D / 4", packet = "D % 4">
!qhf = !tcp.dm<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "D">
!qhb = !tcp.dm<bf16, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "D">
!qhs = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", time = "D / 8", packet = "D % 8">
!qone = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", time = "1", packet = "1 # 2">
!qonedm = !tcp.dm<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "1 # 2">
!qonevrf = !tcp.vrf<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "1 # 2">
!qhvrf = !tcp.vrf<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "D">
!qtwice = !tcp.stream<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", time = "[C2, D / 4]", packet = "D % 4">
!qtwicevrf = !tcp.vrf<f32, cluster = "NH / 8", slice = "[NH % 8, 1 # 32]", elem = "[C2, D]">
!qrep = !tcp.dm<bf16, cluster = "C2", slice = "[RQ, 1 # 32]", elem = "D">
!qrepf = !tcp.dm<f32, cluster = "C2", slice = "[RQ, 1 # 32]", elem = "D">
!qrep4 = !tcp.stream<f32, cluster = "C2", slice = "[RQ, 1 # 32]", time = "D / 4", packet = "D % 4">
!qreps = !tcp.stream<f32, cluster = "C2", slice = "[RQ, 1 # 32]", time = "D / 8", packet = "D % 8">
!qrepvrf = !tcp.vrf<f32, cluster = "C2", slice = "[RQ, 1 # 32]", elem = "D">

// k's partial rows broadcast around each head's 64-slice ring (fresh axis X64), then each kv
// head on two of the q heads' slices (R2: slices 64 x head and 64 x head + 32), kv heads 0..3
// in cluster 0 (N), so k's passes read q's tables.
!kpf = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, D / 2]", time = "1", packet = "D % 2">
!kpb = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, X64]", time = "D / 2", packet = "D % 2">
!khf = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "D">
!khb = !tcp.dm<bf16, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "D">
!khs = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", time = "D / 8", packet = "D % 8">
!kone = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", time = "1", packet = "1 # 2">
!konedm = !tcp.dm<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "1 # 2">
!konevrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "1 # 2">
!khvrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "D">
!ktwice = !tcp.stream<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", time = "[C2, D / 4]", packet = "D % 4">
!ktwicevrf = !tcp.vrf<f32, cluster = "N / 4", slice = "[N % 4, R2, 1 # 32]", elem = "[C2, D]">

module attributes {tcp.axes = {H = 1024, Q = 2048, P = 1024, NH = 16, N = 8, G = 2, D = 128,
                               T = 512, K = 1, RQ = 8, C2 = 2, K2 = 2,
                               R2 = 2, R4 = 4, X4 = 4, X32 = 32, X64 = 64}} {
  func.func @projection(%x: !vec {tcp.arg = "in", tcp.name = "x"},
                        %q_weight: !qw {tcp.arg = "in", tcp.name = "q_weight"},
                        %k_weight: !kvw {tcp.arg = "in", tcp.name = "k_weight"},
                        %v_weight: !kvw {tcp.arg = "in", tcp.name = "v_weight"},
                        %input_rms_weight: !vec {tcp.arg = "in", tcp.name = "input_rms_weight"},
                        %q_rms_weight: !dvec {tcp.arg = "in", tcp.name = "q_rms_weight"},
                        %k_rms_weight: !dvec {tcp.arg = "in", tcp.name = "k_rms_weight"},
                        %kv_offset: !off {tcp.arg = "in", tcp.name = "kv_offset"},
                        %cos: !dvec {tcp.arg = "in", tcp.name = "cos"},
                        %sin: !dvec {tcp.arg = "in", tcp.name = "sin"},
                        %k_cache: !cache {tcp.arg = "inout", tcp.name = "k_cache"},
                        %v_cache: !cache {tcp.arg = "inout", tcp.name = "v_cache"},
                        %q_out: !qout {tcp.arg = "out", tcp.name = "q_out"}) {
    // x^ = RMSNorm(x), then spread over the rings.
    %xd = tcp.dma %x : !vec -> !xone1
    %xwd = tcp.dma %input_rms_weight : !vec -> !xone1
    %x1 = tcp.fetch main %xd : !xone1 -> !xs
    %xc1 = tcp.collect %x1 : !xs
    %xq = tcp.vector %xc1 [stash, mul_f stash, reduce_add_f] : !xs -> !xone
    %xsum = tcp.commit %xq : !xone -> !xonedm
    %x2 = tcp.fetch main %xsum : !xonedm -> !xone
    %xc2 = tcp.collect %x2 : !xone
    %xr = tcp.vector %xc2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !xone
    %xrms = tcp.commit %xr : !xone -> !xonedm
    %x3 = tcp.fetch sub %xrms : !xonedm -> !xone
    %xc3 = tcp.collect %x3 : !xone
    %xrv = tcp.to_vrf %xc3 : !xone -> !xonevrf
    %x4 = tcp.fetch sub %xwd : !xone1 -> !xw4
    %xc4 = tcp.collect %x4 : !xw4
    %xwv = tcp.to_vrf %xc4 : !xw4 -> !xwvrf
    %x5 = tcp.fetch main %xd : !xone1 -> !xs
    %xc5 = tcp.collect %x5 : !xs
    %xp = tcp.vector %xc5 [mul_f vrf(%xwv : !xwvrf)] : !xs
    %xxw = tcp.commit %xp : !xs -> !xfdm
    %x6 = tcp.fetch main %xxw : !xfdm -> !xs
    %xc6 = tcp.collect %x6 : !xs
    %xnv = tcp.vector %xc6 [div_f vrf(%xrv : !xonevrf)] : !xs
    %xh1 = tcp.commit %xnv {cast} : !xs -> !xone1
    %xhat = tcp.dma %xh1 : !xone1 -> !xring

    // q = x^ Wq^T, each head gathered onto one slice by the Switch Engine.
    %qwv = tcp.view %q_weight offset 0 : !qw -> !qwv
    %qwd = tcp.dma %qwv : !qwv -> !qwdm
    %ql = tcp.fetch main %qwd : !qwdm -> !qwload
    %qlc = tcp.collect %ql : !qwload
    %qt = tcp.to_trf %qlc : !qwload -> !qwtrf
    %qs = tcp.fetch main %xhat : !xring -> !xf
    %qxs = tcp.switch broadcast1 %qs : !xf -> !xn
    %qsc = tcp.collect %qxs : !xn
    %qa = tcp.contract %qsc, %qt pack 2 : !xn, !qwtrf -> !qacc
    %qpd = tcp.commit %qa : !qacc -> !qpart
    %qg = tcp.fetch main %qpd : !qpart -> !qpf
    %qgs = tcp.switch broadcast1 %qg : !qpf -> !qpb
    %qgc = tcp.collect %qgs : !qpb
    %qh = tcp.commit %qgc : !qpb -> !qhf

    // k = x^ Wk^T, each head gathered onto two of the q heads' slices.
    %kwv = tcp.view %k_weight offset 0 : !kvw -> !kvwv
    %kwd = tcp.dma %kwv : !kvwv -> !kvwdm
    %kl = tcp.fetch main %kwd : !kvwdm -> !kvwload
    %klc = tcp.collect %kl : !kvwload
    %kt = tcp.to_trf %klc : !kvwload -> !kvwtrf
    %ks = tcp.fetch main %xhat : !xring -> !xf
    %kxs = tcp.switch broadcast1 %ks : !xf -> !xn
    %ksc = tcp.collect %kxs : !xn
    %ka = tcp.contract %ksc, %kt pack 2 : !xn, !kvwtrf -> !kvacc
    %kpd = tcp.commit %ka : !kvacc -> !kvpart
    %kg = tcp.fetch main %kpd : !kvpart -> !kpf
    %kgs = tcp.switch broadcast1 %kg : !kpf -> !kpb
    %kgc = tcp.collect %kgs : !kpb
    %kh = tcp.commit %kgc : !kpb -> !khf

    // Per-head RMSNorm of q (one head per slice).
    %q1 = tcp.fetch main %qh : !qhf -> !qhs
    %qc1 = tcp.collect %q1 : !qhs
    %qq = tcp.vector %qc1 [stash, mul_f stash, reduce_add_f] : !qhs -> !qone
    %qsum = tcp.commit %qq : !qone -> !qonedm
    %q2 = tcp.fetch main %qsum : !qonedm -> !qone
    %qc2 = tcp.collect %q2 : !qone
    %qr = tcp.vector %qc2 [fma_f 7.812500e-03 + 1.0e-06, sqrt_f] : !qone
    %qrms = tcp.commit %qr : !qone -> !qonedm
    %q3 = tcp.fetch sub %qrms : !qonedm -> !qone
    %qc3 = tcp.collect %q3 : !qone
    %qrv = tcp.to_vrf %qc3 : !qone -> !qonevrf
    %qnwd = tcp.dma %q_rms_weight : !dvec -> !qrep
    %q4 = tcp.fetch sub %qnwd : !qrep -> !qrep4
    %qc4 = tcp.collect %q4 : !qrep4
    %qnwv = tcp.to_vrf %qc4 : !qrep4 -> !qrepvrf
    %q5 = tcp.fetch main %qh : !qhf -> !qhs
    %qc5 = tcp.collect %q5 : !qhs
    %qp = tcp.vector %qc5 [mul_f vrf(%qnwv : !qrepvrf)] : !qhs
    %qxw = tcp.commit %qp : !qhs -> !qhf
    %q6 = tcp.fetch main %qxw : !qhf -> !qhs
    %qc6 = tcp.collect %q6 : !qhs
    %qd = tcp.vector %qc6 [div_f vrf(%qrv : !qonevrf)] : !qhs
    %qn = tcp.commit %qd {cast} : !qhs -> !qhb

    // RoPE: out = x cos + swap(x) sin, swap(x) read from x stored twice in the VRF at +64.
    %q7 = tcp.fetch sub %qn : !qhb -> !qtwice
    %qc7 = tcp.collect %q7 : !qtwice
    %qxx = tcp.to_vrf %qc7 : !qtwice -> !qtwicevrf
    %qsw = tcp.vrf_view %qxx offset 64 : !qtwicevrf -> !qhvrf
    %qcd = tcp.dma %cos : !dvec -> !qrep
    %q8 = tcp.fetch sub %qcd : !qrep -> !qrep4
    %qc8 = tcp.collect %q8 : !qrep4
    %qcv = tcp.to_vrf %qc8 : !qrep4 -> !qrepvrf
    %qsd = tcp.dma %sin : !dvec -> !qrep
    %q9 = tcp.fetch main %qsd : !qrep -> !qreps
    %qc9 = tcp.collect %q9 : !qreps
    %qst = tcp.vector %qc9 [mul_f vrf(%qsw : !qhvrf)] : !qreps
    %qtd = tcp.commit %qst : !qreps -> !qrepf
    %q10 = tcp.fetch sub %qtd : !qrepf -> !qrep4
    %qc10 = tcp.collect %q10 : !qrep4
    %qtv = tcp.to_vrf %qc10 : !qrep4 -> !qrepvrf
    %q11 = tcp.fetch main %qn : !qhb -> !qhs
    %qc11 = tcp.collect %q11 : !qhs
    %qxc = tcp.vector %qc11 [mul_f vrf(%qcv : !qrepvrf)] : !qhs
    %qxcd = tcp.commit %qxc : !qhs -> !qhf
    %q12 = tcp.fetch main %qxcd : !qhf -> !qhs
    %qc12 = tcp.collect %q12 : !qhs
    %qo = tcp.vector %qc12 [add_f vrf(%qtv : !qrepvrf)] : !qhs
    %qrope = tcp.commit %qo {cast} : !qhs -> !qhb

    // Per-head RMSNorm of k (each head on two slices).
    %k1 = tcp.fetch main %kh : !khf -> !khs
    %kc1 = tcp.collect %k1 : !khs
    %kq = tcp.vector %kc1 [stash, mul_f stash, reduce_add_f] : !khs -> !kone
    %ksum = tcp.commit %kq : !kone -> !konedm
    // The scalar pass on sub: main is the busy context once k lands (its TRF load, v's).
    %k2 = tcp.fetch sub %ksum : !konedm -> !kone
    %kc2 = tcp.collect %k2 : !kone
    %kr = tcp.vector %kc2 [fma_f 7.812500e-03 + 1.0e-06, sqrt_f] : !kone
    %krms = tcp.commit %kr : !kone -> !konedm
    %k3 = tcp.fetch sub %krms : !konedm -> !kone
    %kc3 = tcp.collect %k3 : !kone
    %krv = tcp.to_vrf %kc3 : !kone -> !konevrf
    %knwd = tcp.dma %k_rms_weight : !dvec -> !qrep
    %k4 = tcp.fetch sub %knwd : !qrep -> !qrep4
    %kc4 = tcp.collect %k4 : !qrep4
    %knwv = tcp.to_vrf %kc4 : !qrep4 -> !qrepvrf
    %k5 = tcp.fetch main %kh : !khf -> !khs
    %kc5 = tcp.collect %k5 : !khs
    %kp = tcp.vector %kc5 [mul_f vrf(%knwv : !qrepvrf)] : !khs
    %kxw = tcp.commit %kp : !khs -> !khf
    %k6 = tcp.fetch main %kxw : !khf -> !khs
    %kc6 = tcp.collect %k6 : !khs
    %kd = tcp.vector %kc6 [div_f vrf(%krv : !konevrf)] : !khs
    %kn = tcp.commit %kd {cast} : !khs -> !khb

    // RoPE as for q, with q's cos in the VRF and q's sin in DM.
    %k7 = tcp.fetch sub %kn : !khb -> !ktwice
    %kc7 = tcp.collect %k7 : !ktwice
    %kxx = tcp.to_vrf %kc7 : !ktwice -> !ktwicevrf
    %ksw = tcp.vrf_view %kxx offset 64 : !ktwicevrf -> !khvrf
    %k9 = tcp.fetch main %qsd : !qrep -> !qreps
    %kc9 = tcp.collect %k9 : !qreps
    %kst = tcp.vector %kc9 [mul_f vrf(%ksw : !khvrf)] : !qreps
    %ktd = tcp.commit %kst : !qreps -> !qrepf
    %k10 = tcp.fetch sub %ktd : !qrepf -> !qrep4
    %kc10 = tcp.collect %k10 : !qrep4
    %ktv = tcp.to_vrf %kc10 : !qrep4 -> !qrepvrf
    %k11 = tcp.fetch main %kn : !khb -> !khs
    %kc11 = tcp.collect %k11 : !khs
    %kxc = tcp.vector %kc11 [mul_f vrf(%qcv : !qrepvrf)] : !khs
    %kxcd = tcp.commit %kxc : !khs -> !khf
    %k12 = tcp.fetch main %kxcd : !khf -> !khs
    %kc12 = tcp.collect %k12 : !khs
    %ko = tcp.vector %kc12 [add_f vrf(%ktv : !qrepvrf)] : !khs
    %krope = tcp.commit %ko {cast} : !khs -> !khb

    // Results: q to q_out, the new k row into the cache.
    %qov = tcp.view %q_out offset 0 : !qout -> !qoutv
    tcp.dma %qrope into %qov : !qhb -> !qoutv
    tcp.dma_scatter %krope into %k_cache at %kv_offset : !khb, !off -> !cache

    // v = x^ Wv^T, each four slices gathered onto one, to bf16, into the cache row.
    %vwv = tcp.view %v_weight offset 0 : !kvw -> !kvwv
    %vwd = tcp.dma %vwv : !kvwv -> !kvwdm
    %vl = tcp.fetch main %vwd : !kvwdm -> !kvwload
    %vlc = tcp.collect %vl : !kvwload
    %vt = tcp.to_trf %vlc : !kvwload -> !kvwtrf
    %vs = tcp.fetch main %xhat : !xring -> !xf
    %vxs = tcp.switch broadcast1 %vs : !xf -> !xn
    %vsc = tcp.collect %vxs : !xn
    %va = tcp.contract %vsc, %vt pack 2 : !xn, !kvwtrf -> !kvacc
    %vpp = tcp.commit %va : !kvacc -> !kvpart
    %vg = tcp.fetch sub %vpp : !kvpart -> !vpf
    %vgs = tcp.switch broadcast1 %vg : !vpf -> !vpb
    %vgc = tcp.collect %vgs : !vpb
    %vp2 = tcp.commit %vgc : !vpb -> !vgath
    %vc = tcp.fetch main %vp2 : !vgath -> !vps
    %vcc = tcp.collect %vc : !vps
    %vpd = tcp.commit %vcc {cast} : !vps -> !vpart
    tcp.dma_scatter %vpd into %v_cache at %kv_offset : !vpart, !off -> !cache
    return
  }
}

