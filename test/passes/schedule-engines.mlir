// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// Which DMA engine a small DMA takes: the engine of its cluster that frees first (the fourth on
// ties); the kernel's last DMA spreads over the cluster's idle engines instead.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">

module attributes {tcp.axes = {A = 8192}} {
  func.func @engines(%a: !buf {tcp.arg = "in", tcp.name = "a"},
                     %b: !buf {tcp.arg = "in", tcp.name = "b"},
                     %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    // 256 packets of 64 bytes: 500 + 256 = 756 cycles, on the fourth engine (all are free).
    // CHECK: tcp.dma %arg0 {{.*}}engines = [3]{{.*}}part_starts = [0]{{.*}}part_ends = [756]
    %x = tcp.dma %a : !buf -> !dm
    // Engine 3 is busy until 756, engines 0..2 are free: the first of them, from the next queue
    // cycle.
    // CHECK: tcp.dma %arg1 {{.*}}engines = [0]{{.*}}part_starts = [1]{{.*}}part_ends = [757]
    %y = tcp.dma %b : !buf -> !dm
    // The last DMA waits for %x (the queue then at 756): engines 1, 2 and 3 are idle, engine 0
    // busy until 757, so it spreads over those three, 85 + 85 + 86 packets issued one queue
    // cycle apart from 756: 756 + 585, 757 + 585, 758 + 586.
    // CHECK: tcp.dma %0 into %arg2 {{.*}}engines = [1, 2, 3]{{.*}}chunks = [0, 85, 85, 86]{{.*}}part_starts = [756, 757, 758]{{.*}}part_ends = [1341, 1342, 1344]
    tcp.dma %x into %out : !dm -> !buf
    return
  }
}
