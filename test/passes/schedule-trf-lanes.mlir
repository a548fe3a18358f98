// RUN: rngd-opt %s --split-input-file --tcp-schedule | FileCheck %s
// TRF dependencies compare each lane's bytes where they are: lane l of a tensor with L lanes
// starts at l * 64 KB / L. %t8 (8 lanes x 2 KB at offset 4 KB) holds [12 KB, 14 KB) in lane 1;
// a 4-lane tensor at offset 12 KB writes that range in its lane 0, so its load (sub) waits for
// the contraction reading %t8 (main). At offset 14 KB it meets no lane of %t8 and does not wait.

!dm8 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t8 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!dm4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, B]">
!s4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, B / 4]", packet = "B % 4">
!t4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
!o8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc8 = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "A">
!r8 = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {A = 8, B = 1024, C = 4}} {
  // CHECK-LABEL: func.func @overlapping_lane
  func.func @overlapping_lane(%x: !dm8, %y: !dm4, %v: !v) {
    %s = tcp.fetch main %x : !dm8 -> !s8
    %c = tcp.collect %s : !s8
    %t8 = tcp.to_trf %c {tcp.trf_offset = 4096 : i64} : !s8 -> !t8
    %f = tcp.fetch main %v : !v -> !o8
    %fc = tcp.collect %f : !o8
    %a = tcp.contract %fc, %t8 pack 1 : !o8, !t8 -> !acc8
    %r = tcp.commit %a {tcp.dm_offset = 65536 : i64} : !acc8 -> !r8
    %s4 = tcp.fetch sub %y : !dm4 -> !s4
    %c4 = tcp.collect %s4 : !s4
    // CHECK: tcp.to_trf {{.*}}queue = sub{{[,>]}}{{.*}}waits = [main]
    %t4 = tcp.to_trf %c4 {tcp.trf_offset = 12288 : i64} : !s4 -> !t4
    return
  }
}

// -----
!dm8 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t8 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!dm4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, B]">
!s4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, B / 4]", packet = "B % 4">
!t4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
!o8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc8 = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "A">
!r8 = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {A = 8, B = 1024, C = 4}} {
  // CHECK-LABEL: func.func @clear_lanes
  func.func @clear_lanes(%x: !dm8, %y: !dm4, %v: !v) {
    %s = tcp.fetch main %x : !dm8 -> !s8
    %c = tcp.collect %s : !s8
    %t8 = tcp.to_trf %c {tcp.trf_offset = 4096 : i64} : !s8 -> !t8
    %f = tcp.fetch main %v : !v -> !o8
    %fc = tcp.collect %f : !o8
    %a = tcp.contract %fc, %t8 pack 1 : !o8, !t8 -> !acc8
    %r = tcp.commit %a {tcp.dm_offset = 65536 : i64} : !acc8 -> !r8
    %s4 = tcp.fetch sub %y : !dm4 -> !s4
    %c4 = tcp.collect %s4 : !s4
    // CHECK: tcp.to_trf {{.*}}queue = sub{{[,>]}}{{.*}}waits = []
    %t4 = tcp.to_trf %c4 {tcp.trf_offset = 14336 : i64} : !s4 -> !t4
    return
  }
}
