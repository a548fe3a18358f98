// Two 2 MB weight streams from HBM into cluster 0 (w1, then w2 once w1's first engine frees)
// and a 512 KB DM-to-DM copy (c: each slice's 2 KB to another slice) of a pass's result (s,
// over the input a), ready long before w1 ends; c is stored. b (32 KB) is copied to both
// clusters: a stream of two 32 KB pieces, each under 64 KB.
!w = !tcp.hbm<bf16, "W">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "W / 4096 # 256", elem = "W % 4096">
!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 1024 # 256", elem = "A % 1024">
!as = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 1024 # 256", time = "A % 1024 / 16", packet = "A % 16">
!b = !tcp.hbm<bf16, "B">
!bdm = !tcp.dm<bf16, cluster = "CR", slice = "B / 64", elem = "B % 64">
!ct = !tcp.dm<bf16, cluster = "1 # 2", slice = "[A / 1024 % 2, A / 2048]", elem = "A % 1024">
module attributes {tcp.axes = {W = 1048576, A = 262144, B = 16384, CR = 2}} {
  func.func @copies(%w1: !w {tcp.arg = "in", tcp.name = "w1"},
                    %w2: !w {tcp.arg = "in", tcp.name = "w2"},
                    %a: !a {tcp.arg = "in", tcp.name = "a"},
                    %b: !b {tcp.arg = "in", tcp.name = "b"},
                    %out: !a {tcp.arg = "out", tcp.name = "c"}) {
    %w1d = tcp.dma %w1 : !w -> !wdm
    %w2d = tcp.dma %w2 : !w -> !wdm
    %ad = tcp.dma %a : !a -> !adm
    %bd = tcp.dma %b : !b -> !bdm
    %s1 = tcp.fetch main %ad : !adm -> !as
    %s2 = tcp.collect %s1 : !as
    %s = tcp.commit %s2 : !as -> !adm
    %c = tcp.dma %s : !adm -> !ct
    tcp.dma %c into %out : !ct -> !a
    return
  }
}
