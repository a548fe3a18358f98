// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule=leave-engine=never | FileCheck %s
// DMAs of at least 64 KB (tcp::kDmaSplitBytes) stream over the first three DMA engines of each
// cluster their DM side spans; smaller ones run on the cluster's fourth (spare) engine, which
// tcp-schedule also lends a stream when no small DMA could need it (test/passes/dma-spare.mlir).
// tcp-schedule sizes the chunks (`chunks`, iterations of the split loop, one per engine of the
// cluster) so that a stream's parts end together: an engine that frees earlier takes more.

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
!both = !tcp.hbm<bf16, "[C, B]">
!bothdm = !tcp.dm<bf16, cluster = "C", slice = "B / 128", elem = "B % 128">
!limit = !tcp.hbm<bf16, "L">
!limitdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "L / 128", elem = "L % 128">
!heads = !tcp.hbm<bf16, "[N, B]">
!headsdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "[B / 512, N]", elem = "B % 512">
!kv = !tcp.hbm<bf16, "[T, N, D]">
!kvdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "[1 # 4, N, T / 32]", elem = "[T % 32, D]">
!under = !tcp.hbm<bf16, "U">
!underdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "U / 128 # 256", elem = "U % 128">

module attributes {tcp.axes = {A = 32768, C = 2, B = 32768, L = 32768, U = 32640, N = 4,
                               T = 512, D = 128}} {
  func.func @split(%a: !big {tcp.arg = "in", tcp.name = "a"},
                   %b: !both {tcp.arg = "in", tcp.name = "b"},
                   %l: !limit {tcp.arg = "in", tcp.name = "l"},
                   %u: !under {tcp.arg = "in", tcp.name = "u"}) {
    // 64 KB into 256 slices of cluster 0: three chunks (86, 85 and 85 slices; all engines
    // free alike, the odd slice to the first), engines 0..2, one tag each. The spare is busy
    // with %w (issued first, until 778) and gets none.
    // CHECK: tcp.dma %arg0 {{.*}}engines = [0, 1, 2]{{.*}}tags = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]{{.*}}chunks = [86, 85, 85, 0]
    %x = tcp.dma %a : !big -> !bigdm
    // 128 KB over both clusters: one piece per cluster. Cluster 0's on engines 0..2; cluster
    // 1's spare is idle, so its piece runs on all four of its engines, ending together (the
    // piece is too small for the spare to stream on past the others).
    // CHECK: tcp.dma %arg1 {{.*}}engines = [0, 1, 2, 4, 5, 6, 7]{{.*}}chunks = [86, 85, 85, 0, 64, 64, 64, 64]{{.*}}part_ends = [1196, 1195, 1196, 594, 595, 596, 597]
    %y = tcp.dma %b : !both -> !bothdm
    // At the limit: 65,536 bytes split. Engines 0..2 free at 1,196 and could start their data
    // at 1,696; the spare, free at 778, moves all 256 slices by 1,534.
    // CHECK: tcp.dma %arg2 {{.*}}engines = [3]{{.*}}chunks = [0, 0, 0, 256]{{.*}}part_ends = [1534]
    %z = tcp.dma %l : !limit -> !limitdm
    // One row of 256 bytes under it (65,280 bytes): cluster 0's fourth engine.
    // CHECK: tcp.dma %arg3
    // CHECK-NOT: chunks
    // CHECK-SAME: engines = [3]
    %w = tcp.dma %u : !under -> !underdm
    return
  }

  // CHECK-LABEL: func.func @inner_cut
  func.func @inner_cut(%h: !heads {tcp.arg = "in", tcp.name = "h"}) {
    // 256 KB whose outermost loop is N (4 iterations: row n of HBM to every fourth slice), too
    // few to balance: the cut falls on the next loop (64 slices per N), 16 on each engine (the
    // spare is idle), each part moving its slices of every N.
    // CHECK: tcp.dma %arg0 {{.*}}chunks = [16, 16, 16, 16]
    %v = tcp.dma %h : !heads -> !headsdm
    return
  }

  // CHECK-LABEL: func.func @even_cut
  func.func @even_cut(%w: !kv {tcp.arg = "in", tcp.name = "w"},
                      %u: !under {tcp.arg = "in", tcp.name = "u"}) {
    // 512 keys of 4 heads, 32 keys per slice (attention's V): loops [4 heads, 16 slices, 32
    // keys]. Of the loops of 16 or more, three engines share 32 most evenly (11/11/10 keys, 3 %
    // over a third; 16 slices would give 6/5/5, 12.5 % over): each part moves its keys of every
    // slice. The spare carries %u.
    // CHECK: tcp.dma %arg0 {{.*}}engines = [0, 1, 2]{{.*}}chunks = [11, 11, 10, 0]
    %x = tcp.dma %w : !kv -> !kvdm
    %s = tcp.dma %u : !under -> !underdm
    return
  }
}
