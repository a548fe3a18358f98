// Qwen3-0.6B `decoder` stage: the rest of a layer after attention.
//   a  = x / sum (per head; x is the unnormalised attention output)
//   r  = rx + W_o a                          (written to rx_hbm)
//   h  = RMSNorm(r) (post_rms_weight, eps 1e-6)
//   rx = r + W_down(silu(W_gate h) * W_up h) (written to rx_hbm)
//
// Placement: o-proj and down on the same 128 slices of each cluster (4 rows each, one per TRF
// lane: short TRF loads, and r is where down's residual add reads it), gate/up on 64 slices of
// each cluster (24 rows: 8 lanes x 3); the first half of the rows in cluster 0, so the
// weights stream into both clusters' DM. a = x / sum and h = RMSNorm(r) are computed on one
// slice of each cluster (x, sum and the norm weight come from HBM once per cluster, replica
// axis K2; r is gathered there from both clusters), and p is gathered onto one slice of each
// cluster; each is then spread over a ring of the slices
// that contract with it (a: one ring of 128 per cluster, h: one of 64, p: two of 64) and
// broadcast within the ring by the Switch Engine as the contraction streams it, in the order
// of the contracted axis. Rounding points: a, r, h, p and the result are bf16; accumulations
// and the element-wise math are f32.
!nghbm = !tcp.hbm<bf16, "[N, G, D]">
!sumhbm = !tcp.hbm<f32, "[N, G]">
!vec = !tcp.hbm<bf16, "H">
!ow = !tcp.hbm<bf16, "[H, Q]">
!lw = !tcp.hbm<bf16, "[L, H]">
!dw = !tcp.hbm<bf16, "[H, L]">

// a = x / sum on one slice of each cluster (x and sum come from HBM once per cluster, replica
// axis K2), then spread over the 128-slice ring of the o-proj slices (slice Q / 16 holds packet
// Q / 16) and broadcast within it by the Switch Engine as the contraction streams it, in the
// order of Q.
!xcopy = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "[N, G, D]">
!xs = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "[D / 8, N, G]", packet = "D % 8">
!xb = !tcp.stream<bf16, cluster = "K2", slice = "1 # 256", time = "[D / 8, N, G]", packet = "D % 8">
!sdm = !tcp.dm<f32, cluster = "K2", slice = "1 # 256", elem = "[N, G]">
!ss = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "N", packet = "G">
!svrf = !tcp.vrf<f32, cluster = "K2", slice = "1 # 256", elem = "[N, G]">
!aone = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "Q">
!aring = !tcp.dm<bf16, cluster = "K2", slice = "[1 # 2, Q / 16]", elem = "Q % 16">
!af = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 2, Q / 16]", time = "1", packet = "Q % 16">
!as = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 2, X128]", time = "Q / 16", packet = "Q % 16">

// o-proj and the first residual on the down slices H / 4: 128 per cluster, one row per TRF
// lane (4 lanes), so r is already where down's residual add reads it.
!owdm = !tcp.dm<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", elem = "[H % 4, Q]">
!owload = !tcp.stream<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "[H % 4, Q / 16]", packet = "Q % 16">
!owtrf = !tcp.trf<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", lane = "H % 4", elem = "Q">
!oacc = !tcp.stream<f32, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "1", packet = "H % 4 # 8">
!ores = !tcp.stream<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "1", packet = "H % 4 # 8">
!rone = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "H">

// RMSNorm on r's slice of each cluster, then h spread over the 64-slice ring of the gate/up
// slices (slice H / 16 holds packet H / 16) and broadcast by the Switch Engine in each
// contraction.
!hs = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "H / 8", packet = "H % 8">
!qs = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "1", packet = "1 # 2">
!qdm = !tcp.dm<f32, cluster = "K2", slice = "1 # 256", elem = "1 # 2">
!qvrf = !tcp.vrf<f32, cluster = "K2", slice = "1 # 256", elem = "1 # 2">
!hw4 = !tcp.stream<f32, cluster = "K2", slice = "1 # 256", time = "H / 4", packet = "H % 4">
!hwvrf = !tcp.vrf<f32, cluster = "K2", slice = "1 # 256", elem = "H">
!hfdm = !tcp.dm<f32, cluster = "K2", slice = "1 # 256", elem = "H">
!hring = !tcp.dm<bf16, cluster = "K2", slice = "[1 # 4, H / 16]", elem = "H % 16">
!hf = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 4, H / 16]", time = "1", packet = "H % 16">
!hn = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 4, X64]", time = "H / 16", packet = "H % 16">

// gate and up on slices L / 24: 64 per cluster.
!lwdm = !tcp.dm<bf16, cluster = "L / 1536", slice = "L / 24 % 64 # 256", elem = "[L % 24, H]">
!lwload = !tcp.stream<bf16, cluster = "L / 1536", slice = "L / 24 % 64 # 256", time = "[L % 8, L / 8 % 3, H / 16]", packet = "H % 16">
!lwtrf = !tcp.trf<bf16, cluster = "L / 1536", slice = "L / 24 % 64 # 256", lane = "L % 8", elem = "[L / 8 % 3, H]">
!lacc = !tcp.stream<f32, cluster = "L / 1536", slice = "L / 24 % 64 # 256", time = "L / 8 % 3", packet = "L % 8">
!lres = !tcp.stream<bf16, cluster = "L / 1536", slice = "L / 24 % 64 # 256", time = "L / 8 % 3", packet = "L % 8">
!lfdm = !tcp.dm<f32, cluster = "L / 1536", slice = "L / 24 % 64 # 256", elem = "L % 24">
!ldm = !tcp.dm<bf16, cluster = "L / 1536", slice = "L / 24 % 64 # 256", elem = "L % 24">
!uload = !tcp.stream<f32, cluster = "L / 1536", slice = "L / 24 % 64 # 256", time = "L / 2 % 12", packet = "L % 2">
!uvrf = !tcp.vrf<f32, cluster = "L / 1536", slice = "L / 24 % 64 # 256", elem = "L % 24">

// down and the second residual on slices H / 4: 128 per cluster (4 rows each, one per TRF
// lane: a short TRF load after the last weight byte). Its weights stream in two halves, the
// even rows (H = 2 E) and then the odd ones, each loaded into two of the four lanes, so only
// the odd half's TRF load (388 cycles, not 772) follows the last byte; tcp.trf_join reads the
// two as the 4-lane tensor the contraction takes. p reaches them through the Switch
// Engine: gathered so that each 64-slice ring of a cluster holds all of p spread over its
// slices (slice L / 16 % 64 holds packets L / 16, L / 16 + 64, L / 16 + 128), then broadcast
// within the ring as the contraction streams it, in the order of L.
!dwh = !tcp.hbm<bf16, "[E, 1 # 2, L]">
!dwdm = !tcp.dm<bf16, cluster = "E / 256", slice = "E / 2 % 128 # 256", elem = "[E % 2, L]">
!dwload = !tcp.stream<bf16, cluster = "E / 256", slice = "E / 2 % 128 # 256", time = "[E % 2, L / 16]", packet = "L % 16">
!dwhtrf = !tcp.trf<bf16, cluster = "E / 256", slice = "E / 2 % 128 # 256", lane = "E % 2", elem = "L">
!dwtrf = !tcp.trf<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", lane = "H % 4", elem = "L">
!pone = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "L">
!pring = !tcp.dm<bf16, cluster = "K2", slice = "[1 # 2, R2, L / 16 % 64]", elem = "[L / 1024, L % 16]">
!pf = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 2, R2, L / 16 % 64]", time = "L / 1024", packet = "L % 16">
!ps = !tcp.stream<bf16, cluster = "K2", slice = "[1 # 2, R2, X64]", time = "[L / 1024, L / 16 % 64]", packet = "L % 16">
!dacc = !tcp.stream<f32, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "1", packet = "H % 4 # 8">
!dres = !tcp.stream<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "1", packet = "H % 4 # 8">
!r4 = !tcp.dm<bf16, cluster = "H / 512", slice = "H / 4 % 128 # 256", elem = "H % 4">
!r4s = !tcp.stream<f32, cluster = "H / 512", slice = "H / 4 % 128 # 256", time = "1", packet = "H % 4">
!r4v = !tcp.vrf<f32, cluster = "H / 512", slice = "H / 4 % 128 # 256", elem = "H % 4">

module attributes {tcp.axes = {N = 8, G = 2, D = 128, Q = 2048, H = 1024, L = 3072,
                               K2 = 2, R2 = 2, X64 = 64, X128 = 128, E = 512}} {
  func.func @decoder(%x: !nghbm {tcp.arg = "in", tcp.name = "x"},
                     %sum_hbm: !sumhbm {tcp.arg = "in", tcp.name = "sum_hbm"},
                     %rx_hbm: !vec {tcp.arg = "inout", tcp.name = "rx_hbm"},
                     %o_weight: !ow {tcp.arg = "in", tcp.name = "o_weight"},
                     %post_rms_weight: !vec {tcp.arg = "in", tcp.name = "post_rms_weight"},
                     %up_weight: !lw {tcp.arg = "in", tcp.name = "up_weight"},
                     %gate_weight: !lw {tcp.arg = "in", tcp.name = "gate_weight"},
                     %down_weight: !dw {tcp.arg = "in", tcp.name = "down_weight"}) {
    // a = x / sum.
    %xc = tcp.dma %x : !nghbm -> !xcopy
    %sd = tcp.dma %sum_hbm : !sumhbm -> !sdm
    %s0 = tcp.fetch sub %sd : !sdm -> !ss
    %c0 = tcp.collect %s0 : !ss
    %sv = tcp.to_vrf %c0 : !ss -> !svrf
    %s1 = tcp.fetch main %xc : !xcopy -> !xs
    %c1 = tcp.collect %s1 : !xs
    %q1 = tcp.vector %c1 [div_f vrf(%sv : !svrf)] : !xs
    %b1 = tcp.cast %q1 : !xs -> !xb
    %ad = tcp.commit %b1 : !xb -> !xcopy
    %aq = tcp.reinterpret %ad : !xcopy -> !aone
    %ar = tcp.dma %aq : !aone -> !aring

    // r = rx + W_o a.
    %owd = tcp.dma %o_weight : !ow -> !owdm
    %ol = tcp.fetch main %owd : !owdm -> !owload
    %oc = tcp.collect %ol : !owload
    %ot = tcp.to_trf %oc : !owload -> !owtrf
    %rxd = tcp.dma %rx_hbm : !vec -> !r4
    %rxl = tcp.fetch sub %rxd : !r4 -> !r4s
    %rxc = tcp.collect %rxl : !r4s
    %rxv = tcp.to_vrf %rxc : !r4s -> !r4v
    %af = tcp.fetch main %ar : !aring -> !af
    %asw = tcp.switch broadcast1 %af : !af -> !as
    %ac = tcp.collect %asw : !as
    %o = tcp.contract %ac, %ot pack 2 : !as, !owtrf -> !oacc
    %r = tcp.vector %o [add_f vrf(%rxv : !r4v)] : !oacc
    %rb = tcp.cast %r : !oacc -> !ores
    %rd = tcp.commit %rb : !ores -> !r4

    // h = RMSNorm(r) on r gathered onto one slice of each cluster (DM to DM), then spread.
    %hd = tcp.dma %rd : !r4 -> !rone
    %hwd = tcp.dma %post_rms_weight : !vec -> !rone
    %h1 = tcp.fetch main %hd : !rone -> !hs
    %hc1 = tcp.collect %h1 : !hs
    %hq = tcp.vector %hc1 [stash, mul_f stash, reduce_add_f] : !hs -> !qs
    %hsum = tcp.commit %hq : !qs -> !qdm
    %h2 = tcp.fetch main %hsum : !qdm -> !qs
    %hc2 = tcp.collect %h2 : !qs
    %hr = tcp.vector %hc2 [fma_f 9.765625e-04 + 1.0e-06, sqrt_f] : !qs
    %hrms = tcp.commit %hr : !qs -> !qdm
    %h3 = tcp.fetch sub %hrms : !qdm -> !qs
    %hc3 = tcp.collect %h3 : !qs
    %hrv = tcp.to_vrf %hc3 : !qs -> !qvrf
    %h4 = tcp.fetch sub %hwd : !rone -> !hw4
    %hc4 = tcp.collect %h4 : !hw4
    %hwv = tcp.to_vrf %hc4 : !hw4 -> !hwvrf
    %h5 = tcp.fetch main %hd : !rone -> !hs
    %hc5 = tcp.collect %h5 : !hs
    %hp = tcp.vector %hc5 [mul_f vrf(%hwv : !hwvrf)] : !hs
    %hxw = tcp.commit %hp : !hs -> !hfdm
    %h6 = tcp.fetch main %hxw : !hfdm -> !hs
    %hc6 = tcp.collect %h6 : !hs
    %hn = tcp.vector %hc6 [div_f vrf(%hrv : !qvrf)] : !hs
    %hnd = tcp.commit %hn {cast} : !hs -> !rone
    %hr1 = tcp.dma %hnd : !rone -> !hring

    // g = W_gate h, u = W_up h (f32).
    %gwd = tcp.dma %gate_weight : !lw -> !lwdm
    %gl = tcp.fetch main %gwd : !lwdm -> !lwload
    %gc = tcp.collect %gl : !lwload
    %gt = tcp.to_trf %gc : !lwload -> !lwtrf
    %gs = tcp.fetch main %hr1 : !hring -> !hf
    %gsw = tcp.switch broadcast1 %gs : !hf -> !hn
    %gsc = tcp.collect %gsw : !hn
    %g = tcp.contract %gsc, %gt pack 2 : !hn, !lwtrf -> !lacc
    %gd = tcp.commit %g : !lacc -> !lfdm
    %uwd = tcp.dma %up_weight : !lw -> !lwdm
    %ul = tcp.fetch main %uwd : !lwdm -> !lwload
    %uc = tcp.collect %ul : !lwload
    %ut = tcp.to_trf %uc : !lwload -> !lwtrf
    %us = tcp.fetch main %hr1 : !hring -> !hf
    %usw = tcp.switch broadcast1 %us : !hf -> !hn
    %usc = tcp.collect %usw : !hn
    %u = tcp.contract %usc, %ut pack 2 : !hn, !lwtrf -> !lacc
    %ud = tcp.commit %u : !lacc -> !lfdm

    // p = silu(g) * u = g * sigmoid(g) * u, to bf16.
    %uvl = tcp.fetch sub %ud : !lfdm -> !uload
    %uvc = tcp.collect %uvl : !uload
    %uv = tcp.to_vrf %uvc : !uload -> !uvrf
    %sg = tcp.fetch main %gd : !lfdm -> !lacc
    %sgc = tcp.collect %sg : !lacc
    %sp = tcp.vector %sgc [stash, sigmoid_f, mul_f stash, mul_f vrf(%uv : !uvrf)] : !lacc
    %spb = tcp.cast %sp : !lacc -> !lres
    %pd = tcp.commit %spb : !lres -> !ldm
    // p gathered on one slice of each cluster, then spread over every 64-slice ring.
    %p1 = tcp.dma %pd : !ldm -> !pone
    %pr = tcp.dma %p1 : !pone -> !pring

    // rx = r + W_down p, down's even rows, then its odd rows one row in.
    %dwe = tcp.view %down_weight offset 0 : !dw -> !dwh
    %dde = tcp.dma %dwe : !dwh -> !dwdm
    %dle = tcp.fetch main %dde : !dwdm -> !dwload
    %dce = tcp.collect %dle : !dwload
    %dte = tcp.to_trf %dce : !dwload -> !dwhtrf
    %dwo = tcp.view %down_weight offset 3072 : !dw -> !dwh
    %ddo = tcp.dma %dwo : !dwh -> !dwdm
    %dlo = tcp.fetch main %ddo : !dwdm -> !dwload
    %dco = tcp.collect %dlo : !dwload
    %dto = tcp.to_trf %dco : !dwload -> !dwhtrf
    %dt = tcp.trf_join %dte, %dto : !dwhtrf, !dwhtrf -> !dwtrf
    %r4l = tcp.fetch sub %rd : !r4 -> !r4s
    %r4c = tcp.collect %r4l : !r4s
    %r4v = tcp.to_vrf %r4c : !r4s -> !r4v
    %pfe = tcp.fetch main %pr : !pring -> !pf
    %psw = tcp.switch broadcast1 %pfe : !pf -> !ps
    %psc = tcp.collect %psw : !ps
    %dn = tcp.contract %psc, %dt pack 2 : !ps, !dwtrf -> !dacc
    %r2 = tcp.vector %dn [add_f vrf(%r4v : !r4v)] : !dacc
    %r2b = tcp.cast %r2 : !dacc -> !dres
    %r2d = tcp.commit %r2b : !dres -> !r4
    tcp.dma %r2d into %rx_hbm : !r4 -> !vec
    return
  }
}
