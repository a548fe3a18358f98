// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// DMAs of at least 64 KB (tcp::kDmaSplitBytes) stream over the first three DMA engines of each
// cluster their DM side spans; smaller ones run on the cluster's fourth engine.

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
    // 64 KB into 256 slices of cluster 0: three chunks (85, 85 and 86 slices), engines 0..2, one
    // tag each.
    // CHECK: tcp.dma %arg0 {{.*}}engines = array<i64: 0, 1, 2>{{.*}}tags = array<i64: {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}>,
    %x = tcp.dma %a : !big -> !bigdm
    // 128 KB over both clusters: one piece per cluster, three chunks each: engines 0..2, 4..6.
    // CHECK: tcp.dma %arg1 {{.*}}engines = array<i64: 0, 1, 2, 4, 5, 6>
    %y = tcp.dma %b : !both -> !bothdm
    // At the limit: 65,536 bytes split.
    // CHECK: tcp.dma %arg2 {{.*}}engines = array<i64: 0, 1, 2>
    %z = tcp.dma %l : !limit -> !limitdm
    // One row of 256 bytes under it (65,280 bytes): cluster 0's fourth engine.
    // CHECK: tcp.dma %arg3 {{.*}}engines = array<i64: 3>,
    %w = tcp.dma %u : !under -> !underdm
    return
  }
}
