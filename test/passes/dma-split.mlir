// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// DMAs of at least 64 KB (tcp::kDmaSplitBytes) are cut into chunks on the DMA engines of the
// clusters their DM side spans, four per cluster; smaller ones stay on one engine.

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
    // 64 KB into 256 slices of cluster 0: four chunks of 64 slices, engines 0..3, one tag each.
    // CHECK: tcp.dma %arg0 {{.*}}engines = array<i64: 0, 1, 2, 3>{{.*}}tags = array<i64: 0, 1, 2, 3>
    %x = tcp.dma %a : !big -> !bigdm
    // 128 KB over both clusters: four chunks per cluster, engines 0..3 and 4..7.
    // CHECK: tcp.dma %arg1 {{.*}}engines = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>
    %y = tcp.dma %b : !both -> !bothdm
    // At the limit: 65,536 bytes split.
    // CHECK: tcp.dma %arg2 {{.*}}engines = array<i64: 0, 1, 2, 3>
    %z = tcp.dma %l : !limit -> !limitdm
    // One row of 256 bytes under it (65,280 bytes): one engine.
    // CHECK: tcp.dma %arg3 {{.*}}engines = array<i64: 0>,
    %w = tcp.dma %u : !under -> !underdm
    return
  }
}
