// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// The schedule is typed IR that prints and parses back: lowering the printed schedule gives
// the same executable as lowering it in the same run.
// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | rngd-opt --convert-tcp-to-rngd > %t.reparsed
// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule --convert-tcp-to-rngd > %t.direct
// RUN: diff %t.direct %t.reparsed
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
    // CHECK: tcp.dma {{.*}}order = 0{{[,>]}}{{.*}}queue = tdma{{[,>]}}{{.*}}start = 0{{[,>]}}{{.*}}end = 756{{[,>]}}{{.*}}waits = []{{.*}}engines = [3]{{.*}}tags = [0]{{.*}}part_starts = [0]{{.*}}part_ends = [756]{{.*}}part_after = [-1]
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %b = tcp.cast %v : !f32s -> !bf16s
    // No pass runs on main yet, so its four config loads (1 + one cycle per register word:
    // 15 + 12 + 2 + 15, queue cycles 1 to 45) go before the wait, which holds the queue until
    // 756. The pass streams 4 flits; the Way4 add takes 8 cycles, plus fill 4, fetch-cast
    // latency 2 and one ALU 1: 15 cycles.
    // CHECK: tcp.commit {{.*}}order = 1{{[,>]}}{{.*}}queue = main{{[,>]}}{{.*}}start = 756{{[,>]}}{{.*}}end = 771{{[,>]}}{{.*}}waits = [tag 0]{{.*}}why = waits{{[,>]}}{{.*}}after = 0{{[,>]}}{{.*}}load_masks = [16383, 2047, 1, 16383]{{.*}}early_loads = [fetch, vector, cast, commit]
    %y = tcp.commit %b : !bf16s -> !dm
    // The kernel's last DMA spreads over its cluster's four idle engines: 64 packets each,
    // 500 + 64 = 564 cycles, issued one queue cycle apart from 771.
    // CHECK: tcp.dma {{.*}}order = 2{{[,>]}}{{.*}}queue = tdma{{[,>]}}{{.*}}start = 771{{[,>]}}{{.*}}end = 1338{{[,>]}}{{.*}}waits = [main]{{.*}}why = waits{{[,>]}}{{.*}}after = 1{{[,>]}}{{.*}}engines = [0, 1, 2, 3]{{.*}}tags = [0, 1, 2, 3]{{.*}}chunks = [64, 64, 64, 64]{{.*}}part_starts = [771, 772, 773, 774]{{.*}}part_ends = [1335, 1336, 1337, 1338]{{.*}}part_after = [-1, -1, -1, -1]
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}
