// RUN: rngd-opt %s | rngd-opt | FileCheck %s
// Every tcp type and op prints in a form that parses back to the same IR.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!i32buf = !tcp.hbm<i32, "A">
!i32dm = !tcp.dm<i32, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!i32w = !tcp.stream<i32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!i8w = !tcp.stream<i8, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!i8dm = !tcp.dm<i8, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!i32s = !tcp.stream<i32, cluster = "1 # 2", slice = "A / 32", time = "A / 2 % 16", packet = "A % 2">

module attributes {tcp.axes = {A = 8192}} {
  // CHECK-LABEL: func.func @all_ops
  // CHECK-SAME: (%[[IN:[^:]*]]: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}, %[[OUT:[^:]*]]: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "out"}
  func.func @all_ops(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                     %out: !buf {tcp.arg = "out", tcp.name = "out"},
                     %iin: !i32buf {tcp.arg = "in", tcp.name = "iin"},
                     %iout: !i32buf {tcp.arg = "inout", tcp.name = "iout"}) {
    // CHECK: %[[X:.*]] = tcp.dma %[[IN]] : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
    %x = tcp.dma %in : !buf -> !dm
    // CHECK: %[[S:.*]] = tcp.fetch main %[[X]] : <bf16, {{.*}}> -> <f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
    %s = tcp.fetch main %x : !dm -> !f32s
    // CHECK: %[[C:.*]] = tcp.collect %[[S]] : <f32
    %c = tcp.collect %s : !f32s
    // CHECK: %[[V:.*]] = tcp.vector %[[C]] [add_f 1.000000e+00, mul_f -2.500000e-01] : !tcp.stream<f32
    %v = tcp.vector %c [add_f 1.0, mul_f -0.25] : !f32s
    // CHECK: %[[B:.*]] = tcp.cast %[[V]] : <f32, {{.*}}> -> <bf16
    %b = tcp.cast %v : !f32s -> !bf16s
    // CHECK: %[[Y:.*]] = tcp.commit %[[B]] : <bf16, {{.*}}> -> <bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
    %y = tcp.commit %b : !bf16s -> !dm
    // CHECK: tcp.dma %[[Y]] into %[[OUT]] : !tcp.dm<bf16, {{.*}}> -> !tcp.hbm<bf16, "A">
    tcp.dma %y into %out : !dm -> !buf
    // CHECK: tcp.dma %[[IN]] into %[[OUT]] : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    tcp.dma %in into %out : !buf -> !buf

    // An integer pass on the sub context (8-byte accesses): Fxp add, no cast.
    // CHECK: tcp.fetch sub
    %xi = tcp.dma %iin : !i32buf -> !i32dm
    %si = tcp.fetch sub %xi : !i32dm -> !i32s
    %ci = tcp.collect %si : !i32s
    // CHECK: tcp.vector %{{.*}} [add_i -3] : !tcp.stream<i32
    %vi = tcp.vector %ci [add_i -3] : !i32s
    %yi = tcp.commit %vi : !i32s -> !i32dm
    tcp.dma %yi into %iout : !i32dm -> !i32buf

    // i32 -> i8 saturating cast (main context).
    // CHECK: tcp.cast %{{.*}} : <i32, {{.*}}> -> <i8
    %xj = tcp.dma %iin : !i32buf -> !i32dm
    %sj = tcp.fetch main %xj : !i32dm -> !i32w
    %cj = tcp.collect %sj : !i32w
    %bj = tcp.cast %cj : !i32w -> !i8w
    %yj = tcp.commit %bj : !i8w -> !i8dm
    return
  }
}

// DM tensors joined from parts, and a view on some of a tensor's slices.
!pm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!ps = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!pw = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
!hd = !tcp.dm<bf16, cluster = "1 # 2", slice = "[G, 1 # 8]", elem = "D">
!kd = !tcp.dm<bf16, cluster = "1 # 2", slice = "[1 # 4, N, 1 # 8]", elem = "D">
!kh = !tcp.hbm<bf16, "[N, D]">
module attributes {tcp.axes = {P = 2, U = 32, G = 32, N = 8, D = 128}} {
  // CHECK-LABEL: func.func @join_and_slices
  func.func @join_and_slices(%a: !pm, %h: !hd, %out: !kh {tcp.arg = "out", tcp.name = "out"}) {
    %f0 = tcp.fetch main %a : !pm -> !ps
    %c0 = tcp.collect %f0 : !ps
    %p0 = tcp.commit %c0 : !ps -> !pm
    %f1 = tcp.fetch main %a : !pm -> !ps
    %c1 = tcp.collect %f1 : !ps
    %p1 = tcp.commit %c1 : !ps -> !pm
    // CHECK: tcp.dm_join %{{.*}}, %{{.*}} : !tcp.dm<f32, {{.*}}elem = "U">, !tcp.dm<f32, {{.*}} -> <f32, {{.*}}elem = "[P, U]">
    %w = tcp.dm_join %p0, %p1 : !pm, !pm -> !pw
    // CHECK: tcp.dm_view %{{.*}} offset 0 slices 128 :
    %k = tcp.dm_view %h offset 0 slices 128 : !hd -> !kd
    tcp.dma %k into %out : !kd -> !kh
    return
  }
}
