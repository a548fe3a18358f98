// RUN: rngd-opt %s --split-input-file --tcp-allocate-memory --tcp-schedule | FileCheck %s
// A pass whose sequencer makes >= 64 consecutive accesses to one DM bank could starve a
// concurrent DMA past the NoC timeout: the scheduler marks it as holding the DMA context.

// At the limit: a column of 64 rows of 128 bytes (B x C bf16), 8 bytes per row.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B, C]">
!col = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "A", packet = "C">
!out = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C]">
module attributes {tcp.axes = {A = 64, B = 16, C = 4}} {
  // CHECK-LABEL: func.func @column
  func.func @column(%x: !dm) {
    %s = tcp.fetch main %x : !dm -> !col
    %c = tcp.collect %s : !col
    // CHECK: tcp.commit {{.*}}holds_dma
    %y = tcp.commit %c : !col -> !out
    return
  }
}

// -----
// One below: 63 rows.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B, C]">
!col = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "A", packet = "C">
!out = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C]">
module attributes {tcp.axes = {A = 63, B = 16, C = 4}} {
  // CHECK-LABEL: func.func @short_column
  func.func @short_column(%x: !dm) {
    %s = tcp.fetch main %x : !dm -> !col
    %c = tcp.collect %s : !col
    // CHECK-NOT: holds_dma
    // CHECK: tcp.commit
    %y = tcp.commit %c : !col -> !out
    return
  }
}
