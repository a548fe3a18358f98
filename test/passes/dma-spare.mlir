// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule=leave-engine=never | FileCheck %s
// A cluster's fourth (spare) engine carries the small DMAs; tcp-schedule lends it to a weight
// stream while no small DMA could need it. When it takes part and another stream into the
// cluster follows, the parts end one start-up (500 cycles) apart, engine by engine, so that the
// engines start their next parts one at a time while the other three stream; the last
// stream's parts end together. A part on the spare ends before the earliest start of any small
// DMA not yet issued (from its predecessors' projected ends and own cycles).

!w = !tcp.hbm<bf16, "A">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 2048", elem = "A % 2048">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 2048", time = "A / 16 % 128", packet = "A % 16">
module attributes {tcp.axes = {A = 524288}} {
  // Two 1 MB weights into cluster 0 (256 slices, 4 KB each; chunks are slices).
  // CHECK-LABEL: func.func @stagger
  func.func @stagger(%a: !w {tcp.arg = "in", tcp.name = "a"},
                     %b: !w {tcp.arg = "in", tcp.name = "b"}) {
    // Followed by %b: the four parts end ~500 cycles apart (17, 48, 80 and 111 slices).
    // CHECK: tcp.dma %arg0 {{.*}}engines = [0, 1, 2, 3]{{.*}}chunks = [17, 48, 80, 111]{{.*}}part_ends = [772, 1269, 1782, 2279]
    %x = tcp.dma %a : !w -> !wdm
    // The last stream: each engine starts when it frees (the first at 772, the spare at 2,279)
    // and all four end together, the earliest taking the most.
    // CHECK: tcp.dma %arg1 {{.*}}engines = [0, 1, 2, 3]{{.*}}chunks = [111, 80, 48, 17]{{.*}}part_ends = [3048, 3049, 3050, 3051]
    %y = tcp.dma %b : !w -> !wdm
    return
  }

  // CHECK-LABEL: func.func @reserved
  func.func @reserved(%a: !w {tcp.arg = "in", tcp.name = "a"},
                      %b: !w {tcp.arg = "in", tcp.name = "b"},
                      %out: !w {tcp.arg = "out", tcp.name = "out"}) {
    // Staggered too, but the spare's part ends at 2,039, before the store of %z could start.
    // CHECK: tcp.dma %arg0 {{.*}}chunks = [22, 53, 85, 96]{{.*}}part_ends = [852, 1349, 1862, 2039]
    %x = tcp.dma %a : !w -> !wdm
    %f = tcp.fetch main %x : !wdm -> !s
    %c = tcp.collect %f : !s
    %z = tcp.commit %c : !s -> !wdm
    // The store of %z (a small DMA) could start once the pass after %x ends, before the spare
    // (free at 2,039) could start streaming %b's data at 2,539: %b leaves the spare alone, its
    // other parts sized by when their engines free (852, 1,349, 1,862).
    // CHECK: tcp.dma %arg1 {{.*}}engines = [0, 1, 2]{{.*}}chunks = [117, 86, 53, 0]
    %y = tcp.dma %b : !w -> !wdm
    tcp.dma %z into %out : !wdm -> !w
    return
  }
}
