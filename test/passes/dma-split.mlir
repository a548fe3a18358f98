// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// DMAs of at least 64 KB (tcp::kDmaSplitBytes) stream over the first three DMA engines of each
// cluster their DM side spans; smaller ones run on the cluster's fourth engine. tcp-schedule
// sizes the chunks (`chunks`, iterations of the split loop) so that a stream's parts end
// together: an engine that frees earlier takes more.

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
!both = !tcp.hbm<bf16, "[C, B]">
!bothdm = !tcp.dm<bf16, cluster = "C", slice = "B / 128", elem = "B % 128">
!limit = !tcp.hbm<bf16, "L">
!limitdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "L / 128", elem = "L % 128">
!under = !tcp.hbm<bf16, "U">
!underdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "U / 128 # 256", elem = "U % 128">

module attributes {tcp.axes = {A = 32768, C = 2, B = 32768, L = 32768, U = 32640}} {
  func.func @split(%a: !big {tcp.arg = "in", tcp.name = "a"},
                   %b: !both {tcp.arg = "in", tcp.name = "b"},
                   %l: !limit {tcp.arg = "in", tcp.name = "l"},
                   %u: !under {tcp.arg = "in", tcp.name = "u"}) {
    // 64 KB into 256 slices of cluster 0: three chunks (86, 85 and 85 slices; all engines
    // free alike, the odd slice to the first), engines 0..2, one tag each.
    // CHECK: tcp.dma %arg0 {{.*}}chunks = array<i64: 86, 85, 85>{{.*}}engines = array<i64: 0, 1, 2>{{.*}}tags = array<i64: {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}>,
    %x = tcp.dma %a : !big -> !bigdm
    // 128 KB over both clusters: one piece per cluster, three chunks each: engines 0..2, 4..6.
    // CHECK: tcp.dma %arg1 {{.*}}engines = array<i64: 0, 1, 2, 4, 5, 6>
    %y = tcp.dma %b : !both -> !bothdm
    // At the limit: 65,536 bytes split. Engine 1 carried one slice less of %a and %b, so it
    // frees first (1,188 vs 1,189) and takes the odd slice.
    // CHECK: tcp.dma %arg2 {{.*}}chunks = array<i64: 85, 86, 85>{{.*}}engines = array<i64: 0, 1, 2>{{.*}}part_ends = array<i64: 1774, 1774, 1774>
    %z = tcp.dma %l : !limit -> !limitdm
    // One row of 256 bytes under it (65,280 bytes): cluster 0's fourth engine.
    // CHECK: tcp.dma %arg3
    // CHECK-NOT: chunks
    // CHECK-SAME: engines = array<i64: 3>,
    %w = tcp.dma %u : !under -> !underdm
    return
  }
}
