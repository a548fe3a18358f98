// RUN: rngd-opt %s --split-input-file --tcp-allocate-memory --tcp-schedule | FileCheck %s
// The list scheduler overlaps what does not conflict and waits only for what does.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  // CHECK-LABEL: func.func @independent
  func.func @independent(%a: !buf {tcp.arg = "in", tcp.name = "a"},
                         %b: !buf {tcp.arg = "in", tcp.name = "b"},
                         %out: !buf {tcp.arg = "out", tcp.name = "out"},
                         %out2: !buf {tcp.arg = "out", tcp.name = "out2"}) {
    // Both loads issue at once on two engines of cluster 0 (each is 756 cycles alone; 16 KB at
    // 256 B/cycle fits HBM's 1,500 twice over, so neither is slowed).
    // CHECK: tcp.dma %arg0 {{.*}}order = 0{{[,>]}}{{.*}}queue = tdma{{[,>]}}{{.*}}start = 0{{[,>]}}{{.*}}end = 756{{[,>]}}{{.*}}engines = [3]
    %x = tcp.dma %a : !buf -> !dm
    // CHECK: tcp.dma %arg1 {{.*}}order = 1{{[,>]}}{{.*}}queue = tdma{{[,>]}}{{.*}}start = 1{{[,>]}}{{.*}}end = 757{{[,>]}}{{.*}}engines = [0]
    %z = tcp.dma %b : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %w = tcp.cast %v : !f32s -> !bf16s
    // The pass waits for %x's DMA only (tag 0), not for %z's (its config loads go first).
    // CHECK: tcp.commit {{.*}}order = 2{{[,>]}}{{.*}}start = 756{{[,>]}}{{.*}}end = 771{{[,>]}}{{.*}}waits = [tag 0]
    %y = tcp.commit %w : !bf16s -> !dm
    // Storing %z needs %z's DMA (tag 1) but not the pass: it starts while the pass runs
    // (756..771), on a free engine.
    // CHECK: tcp.dma %{{[0-9]+}} into %arg3 {{.*}}order = 3{{[,>]}}{{.*}}start = 758{{[,>]}}{{.*}}waits = [tag 1]{{.*}}tags = [{{[0-9]+}}]
    tcp.dma %z into %out2 : !dm -> !buf
    // Storing %y waits for the pass (main).
    // CHECK: tcp.dma %{{[0-9]+}} into %arg2 {{.*}}waits = [main]
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}

// -----
// A write after a read of the same HBM range: storing into %io must wait for the load that
// reads it (tag 0), though the two run on different engines; the independent load of %b
// does not wait.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
module attributes {tcp.axes = {A = 8192}} {
  // CHECK-LABEL: func.func @war
  func.func @war(%io: !buf {tcp.arg = "inout", tcp.name = "io"},
                 %b: !buf {tcp.arg = "in", tcp.name = "b"}) {
    // CHECK: tcp.dma %arg0 {{.*}}order = 0{{[,>]}}{{.*}}start = 0{{[,>]}}{{.*}}waits = []{{.*}}tags = [0]
    %x = tcp.dma %io : !buf -> !dm
    // CHECK: tcp.dma %arg1 {{.*}}order = 1{{[,>]}}{{.*}}start = 1{{[,>]}}{{.*}}waits = []{{.*}}tags = [1]
    %z = tcp.dma %b : !buf -> !dm
    // CHECK: tcp.dma %{{[0-9]+}} into %arg0 {{.*}}waits = [tag 0, tag 1]
    tcp.dma %z into %io : !dm -> !buf
    return
  }
}

// -----
// Two halves of every row of one output, written through strided views (the first and the
// second 64 of each 128): no byte in common, so the second store does not wait for the first.
// A view of the same half would (WAW).
!row = !tcp.hbm<bf16, "[R, D]">
!half = !tcp.hbm<bf16, "[R, DL # 128]">
!hd = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "DL">
module attributes {tcp.axes = {R = 16, D = 128, DL = 64}} {
  // CHECK-LABEL: func.func @halves
  func.func @halves(%a: !tcp.hbm<bf16, "[R, DL]"> {tcp.arg = "in", tcp.name = "a"},
                    %b: !tcp.hbm<bf16, "[R, DL]"> {tcp.arg = "in", tcp.name = "b"},
                    %out: !row {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %a : !tcp.hbm<bf16, "[R, DL]"> -> !hd
    %y = tcp.dma %b : !tcp.hbm<bf16, "[R, DL]"> -> !hd
    %lo = tcp.view %out offset 0 : !row -> !half
    %hi = tcp.view %out offset 64 : !row -> !half
    // After its load (tag 0): 516 to 1,032.
    // CHECK: tcp.dma %{{[0-9]+}} into %{{[0-9]+}} {{.*}}start = 516{{[,>]}}{{.*}}end = 1032{{[,>]}}{{.*}}waits = [tag 0]{{.*}}tags = [0]
    tcp.dma %x into %lo : !hd -> !half
    // After its load only (tag 1), alongside the first.
    // CHECK: tcp.dma %{{[0-9]+}} into %{{[0-9]+}} {{.*}}start = 518{{[,>]}}{{.*}}waits = [tag 1]{{.*}}tags = [1]
    tcp.dma %y into %hi : !hd -> !half
    // The first half again: after the first store (its tag 0), at 1,032.
    // CHECK: tcp.dma %{{[0-9]+}} into %{{[0-9]+}} {{.*}}start = 1032{{[,>]}}{{.*}}waits = [tag 0]
    tcp.dma %y into %lo : !hd -> !half
    return
  }
}
