// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// A chain of dependent commands: each waits for the one it reads; cycles come from the target
// model (DMA: 500 + one cycle per 256-byte request; a pass: its slowest stage + fill). The
// pass loads all words of its four blocks (the registers hold nothing yet): 14, 11, 1, 14.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">

// CHECK: module attributes {{{.*}}tcp.makespan = 1338 : i64}
module attributes {tcp.axes = {A = 8192}} {
  func.func @constant_add(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                          %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    // 256 packets of 64 bytes, one request each: 500 + 256.
    // CHECK: tcp.dma {{.*}}tcp.schedule = {context = "tdma", end = 756 : i64, engines = array<i64: 3>, order = 0 : i64, part_after = array<i64: -1>, part_ends = array<i64: 756>, part_starts = array<i64: 0>, start = 0 : i64, tags = array<i64: 0>, waits = [], why = "start"}
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %b = tcp.cast %v : !f32s -> !bf16s
    // No pass runs on main yet, so its four config loads (1 + one cycle per register word:
    // 15 + 12 + 2 + 15, queue cycles 1 to 45) go before the wait, which holds the queue until
    // 756. The pass streams 4 flits; the Way4 add takes 8 cycles, plus fill 4, fetch-cast
    // latency 2 and one ALU 1: 15 cycles.
    // CHECK: tcp.commit {{.*}}tcp.schedule = {after = 0 : i64, context = "main", early_loads = ["fetch", "vector", "cast", "commit"], end = 771 : i64, engines = array<i64>, load_masks = array<i64: 16383, 2047, 1, 16383>, order = 1 : i64, start = 756 : i64, waits = ["tag 0"], why = "waits"}
    %y = tcp.commit %b : !bf16s -> !dm
    // The kernel's last DMA spreads over its cluster's four idle engines: 64 packets each,
    // 500 + 64 = 564 cycles, issued one queue cycle apart from 771.
    // CHECK: tcp.dma {{.*}}tcp.schedule = {after = 1 : i64, chunks = array<i64: 64, 64, 64, 64>, context = "tdma", end = 1338 : i64, engines = array<i64: 0, 1, 2, 3>, order = 2 : i64, part_after = array<i64: -1, -1, -1, -1>, part_ends = array<i64: 1335, 1336, 1337, 1338>, part_starts = array<i64: 771, 772, 773, 774>, start = 771 : i64, tags = array<i64: 0, 1, 2, 3>, waits = ["main"], why = "waits"}
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}
