// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule | FileCheck %s
// A DM to DM copy whose source every cluster holds alike (a DMA broadcast it over the cluster
// axis, which the destination does not hold) reads each cluster's part from the other
// cluster's copy: across clusters reads and writes pipeline (one cycle per 256-byte request)
// where within one they take two. 64 slices x 2 KB per cluster = 512 requests: 1,012 cycles
// across, 1,524 within.

!vec = !tcp.hbm<bf16, "L">
!mat = !tcp.hbm<bf16, "[M, L]">
!copies = !tcp.dm<bf16, cluster = "K2", slice = "1 # 256", elem = "L">
!zero = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "L">
!rows = !tcp.dm<bf16, cluster = "M", slice = "1 # 256", elem = "L">
!all = !tcp.dm<bf16, cluster = "C2", slice = "R64 # 256", elem = "L">

module attributes {tcp.axes = {L = 1024, M = 2, K2 = 2, C2 = 2, R64 = 64}} {
  func.func @replica(%x: !vec {tcp.arg = "in", tcp.name = "x"},
                     %m: !mat {tcp.arg = "in", tcp.name = "m"}) {
    // x on one slice of each cluster (a broadcast over K2).
    %c = tcp.dma %x : !vec -> !copies
    // Each cluster's part reads the other cluster's copy. Issued last, it also spreads over
    // the engines idle then (0, 1 and 4, 7): 32 slices x 2 KB = 256 requests each, one cycle
    // per request across clusters: 756 cycles (1,012 as one part per cluster; 2 x 256 within).
    // CHECK: tcp.dma %0 {{.*}}engines = [0, 1, 4, 7]{{.*}}chunks = [32, 32, 0, 0, 32, 0, 0, 32]{{.*}}part_starts = [516, 517, 518, 519]{{.*}}part_ends = [1272, 1273, 1274, 1275]
    %a = tcp.dma %c : !copies -> !all
    // x in cluster 0 only: cluster 0's part stays in the cluster (1,524), cluster 1's crosses.
    %z = tcp.dma %x : !vec -> !zero
    // CHECK: tcp.dma %2 {{.*}}part_starts = [508, 509]{{.*}}part_ends = [2032, 1521]
    %b = tcp.dma %z : !zero -> !all
    // Row m in cluster m: the rows differ, so both parts read row 0 (cluster 0's): 1,524 and
    // 1,012 cycles.
    %r = tcp.dma %m : !mat -> !rows
    // CHECK: tcp.dma %4 {{.*}}part_starts = [512, 513]{{.*}}part_ends = [2036, 1525]
    %d = tcp.dma %r : !rows -> !all
    return
  }
}
