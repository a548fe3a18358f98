// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// A cluster's fourth (spare) engine carries the small DMAs; tcp-schedule lends it to a weight
// stream while no small DMA could need it. When another stream into the cluster follows, the
// spare's part ends one start-up (500 cycles) after the others, so that it still streams while
// they start their next parts; the last stream's parts end together. A part on the spare ends
// before the earliest start of any small DMA not yet issued (from its predecessors' projected
// ends and own cycles).

!w = !tcp.hbm<bf16, "A">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 2048", elem = "A % 2048">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 2048", time = "A / 16 % 128", packet = "A % 16">
module attributes {tcp.axes = {A = 524288}} {
  // Two 1 MB weights into cluster 0 (256 slices, 4 KB each; chunks are slices).
  // CHECK-LABEL: func.func @stagger
  func.func @stagger(%a: !w {tcp.arg = "in", tcp.name = "a"},
                     %b: !w {tcp.arg = "in", tcp.name = "b"}) {
    // Followed by %b: the spare takes more (88 slices) and ends 513 cycles after the others.
    // CHECK: tcp.dma %arg0 {{.*}}chunks = array<i64: 56, 56, 56, 88>{{.*}}engines = array<i64: 0, 1, 2, 3>{{.*}}part_ends = array<i64: 1396, 1397, 1398, 1911>
    %x = tcp.dma %a : !w -> !wdm
    // The last stream: the spare starts later (it frees at 1,911) and all four end together.
    // CHECK: tcp.dma %arg1 {{.*}}chunks = array<i64: 72, 72, 72, 40>{{.*}}engines = array<i64: 0, 1, 2, 3>{{.*}}part_ends = array<i64: 3048, 3049, 3050, 3051>
    %y = tcp.dma %b : !w -> !wdm
    return
  }

  // CHECK-LABEL: func.func @reserved
  func.func @reserved(%a: !w {tcp.arg = "in", tcp.name = "a"},
                      %b: !w {tcp.arg = "in", tcp.name = "b"},
                      %out: !w {tcp.arg = "out", tcp.name = "out"}) {
    // CHECK: tcp.dma %arg0 {{.*}}chunks = array<i64: 56, 56, 56, 88>
    %x = tcp.dma %a : !w -> !wdm
    %f = tcp.fetch main %x : !wdm -> !s
    %c = tcp.collect %f : !s
    %z = tcp.commit %c : !s -> !wdm
    // The store of %z (a small DMA) could start once the pass after %x ends, before the spare
    // (free at 1,911) could start streaming %b's data at 2,411: %b leaves the spare alone.
    // CHECK: tcp.dma %arg1 {{.*}}chunks = array<i64: 86, 85, 85, 0>{{.*}}engines = array<i64: 0, 1, 2>,
    %y = tcp.dma %b : !w -> !wdm
    tcp.dma %z into %out : !wdm -> !w
    return
  }
}
