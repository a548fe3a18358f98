// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule --convert-tcp-to-rngd | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && rngdc %s -o %t/k.rngd
// RUN: %python -c "import os; open('%t/in.bin', 'wb').write(os.urandom(4096))"
// RUN: rngd-run %t/k.rngd --input in=%t/in.bin --output out=%t/out.bin
// RUN: cmp %t/in.bin %t/out.bin
// A commit that keeps one of the copies a switch broadcast made writes only its result's
// slices: the fetch enables all 256 slices of cluster 0, the commit every fourth, and the
// vector comes back whole from those slices.

!hbm = !tcp.hbm<f32, "A">
!part = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4">
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "1", packet = "A % 4">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, X]", time = "A / 4 % 4", packet = "A % 4">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, 1 # 4]", elem = "A % 16">

module attributes {tcp.axes = {A = 1024, X = 4}} {
  func.func @gather(%in: !hbm {tcp.arg = "in", tcp.name = "in"},
                    %out: !hbm {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %in : !hbm -> !part
    %f = tcp.fetch main %x : !part -> !fs
    %b = tcp.switch broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    %g = tcp.commit %c : !bs -> !whole
    tcp.dma %g into %out : !whole -> !hbm
    return
  }
}

// CHECK: rngd.config {{[0-9]+}} fetch {{{.*}} slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
// CHECK: rngd.config {{[0-9]+}} switch {mode = 2, slice1 = 4, slice0 = 1, time0 = 0}
// CHECK: rngd.config {{[0-9]+}} commit {{{.*}} slices = [0x1111111111111111, 0x1111111111111111, 0x1111111111111111, 0x1111111111111111, 0x0, 0x0, 0x0, 0x0]
