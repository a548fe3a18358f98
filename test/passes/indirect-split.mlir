// RUN: rngd-opt %s --split-input-file --tcp-allocate-memory --tcp-schedule --verify-diagnostics | FileCheck %s
// A gather or scatter whose DM side spans both clusters runs as one descriptor per cluster
// (an engine reaches only its own cluster's DM), cut at a loop inside the row loop: each
// reads the offsets and moves its cluster's share of every row.

!row = !tcp.hbm<bf16, "[N, D]">
!cache = !tcp.hbm<bf16, "[T, N, D]">
!offset = !tcp.hbm<i32, "K">
!split = !tcp.dm<bf16, cluster = "N / 4", slice = "N % 4 # 256", elem = "D">
!one = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[N, D]">

module attributes {tcp.axes = {T = 512, N = 8, D = 128, K = 1}} {
  func.func @scatter(%row: !row {tcp.arg = "in", tcp.name = "row"},
                     %offset: !offset {tcp.arg = "in", tcp.name = "offset"},
                     %cache: !cache {tcp.arg = "inout", tcp.name = "cache"}) {
    %r = tcp.dma %row : !row -> !split
    // Heads 0..3 from a cluster 0 engine, 4..7 from a cluster 1 engine: 4 packets of 256 bytes
    // each, 504 cycles apiece, after the load (505).
    // CHECK: tcp.dma_scatter {{.*}}engines = [{{[0-3]}}, {{[4-7]}}]{{.*}}part_starts = [505, 506]{{.*}}part_ends = [1009, 1010]
    tcp.dma_scatter %r into %cache at %offset : !split, !offset -> !cache
    // One cluster: one descriptor.
    %o = tcp.dma %row : !row -> !one
    // CHECK: tcp.dma_scatter {{.*}}engines = [{{[0-9]}}]
    tcp.dma_scatter %o into %cache at %offset : !one, !offset -> !cache
    return
  }
}

// -----

!rows = !tcp.hbm<bf16, "[T, D]">
!offsets = !tcp.hbm<i32, "T">
!table = !tcp.hbm<bf16, "[W, D]">
!apart = !tcp.dm<bf16, cluster = "T", slice = "1 # 256", elem = "D">

module attributes {tcp.axes = {T = 2, D = 128, W = 64}} {
  func.func @rows_apart(%r: !rows {tcp.arg = "in", tcp.name = "r"},
                        %at: !offsets {tcp.arg = "in", tcp.name = "at"},
                        %t: !table {tcp.arg = "inout", tcp.name = "t"}) {
    %d = tcp.dma %r : !rows -> !apart
    // The rows themselves lie in different clusters: no loop inside the row loop separates them.
    // expected-error @+1 {{DMA engines: the DM side spans both clusters and no loop inside the row loop separates them; an engine reaches only its own cluster's DM}}
    tcp.dma_scatter %d into %t at %at : !apart, !offsets -> !table
    return
  }
}
