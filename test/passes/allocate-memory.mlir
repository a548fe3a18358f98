// RUN: rngd-opt %s --split-input-file --tcp-allocate-memory --verify-diagnostics | FileCheck %s
// DM tensors get per-slice offsets aligned to 128 bytes. A tensor takes memory no earlier
// tensor used while there is some; a range is reused only once the pass (or DMA) that last
// reads it has ended (the stalest such range, else the lowest: the last two cases). A tensor a
// DMA brings from HBM lives from the previous such tensor's definition (double buffering), so
// tcp-schedule may start its DMA early.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  // CHECK-LABEL: func.func @reuse
  func.func @reuse(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                   %out: !buf {tcp.arg = "out", tcp.name = "out"},
                   %out2: !buf {tcp.arg = "out", tcp.name = "out2"}) {
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %x = tcp.dma %in : !buf -> !dm
    // 64 bytes per slice round up to one 128-byte row: %z sits after %x.
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 128 : i64}
    %z = tcp.dma %in : !buf -> !dm
    %f = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %f : !s
    // %w's range starts at %z's definition, before this pass, so %w was placed first (256);
    // %x is read by this pass, which streams while it commits: %y goes after both.
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 384 : i64}
    %y = tcp.commit %c : !s -> !dm
    tcp.dma %z into %out : !dm -> !buf
    // Live from %z's definition, while the pass still reads %x: it cannot take %x's rows.
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 256 : i64}
    %w = tcp.dma %in : !buf -> !dm
    tcp.dma %y into %out2 : !dm -> !buf
    tcp.dma %w into %out : !dm -> !buf
    return
  }
}

// -----
// Two 384 KB tensors cannot be live at once on a 512 KB slice: the error lists the tensors
// live at that point.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
module attributes {tcp.axes = {A = 196608}} {
  func.func @too_much(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                      %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    // expected-note @+1 {{393216 bytes at offset 0}}
    %x = tcp.dma %in : !buf -> !dm
    // expected-error @+1 {{DM capacity: no room for 393216 bytes per slice; DM has 524288 bytes and these tensors are live here:}}
    %z = tcp.dma %in : !buf -> !dm
    tcp.dma %x into %out : !dm -> !buf
    tcp.dma %z into %out : !dm -> !buf
    return
  }
}

// -----
// TRF tensors get per-lane offsets; a half region keeps a tensor in its half of each lane.
// Memory no earlier tensor used comes first: %t2 goes after %t although %t is dead by then.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 8, B = 1024}} {
  // CHECK-LABEL: func.func @halves
  func.func @halves(%x: !dm, %y: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // CHECK: tcp.to_trf {{.*}}region = "second", tcp.trf_offset = 4096 : i64
    %t = tcp.to_trf %c {region = "second"} : !s -> !t
    %s2 = tcp.fetch sub %y : !dm -> !s
    %c2 = tcp.collect %s2 : !s
    // CHECK: tcp.to_trf {{.*}}tcp.trf_offset = 6144 : i64
    %t2 = tcp.to_trf %c2 : !s -> !t
    return
  }
}

// -----
// Lane l of a TRF tensor with L lanes starts at l * 64 KB / L, so tensors with 8 and 4 lanes
// interleave: with %t8 (8 lanes x 2 KB at 0) live, a 4-lane tensor's lane l meets %t8's lanes
// 2l and 2l + 1 at [0, 2 KB) and [8 KB, 10 KB) of its 16 KB segment. 6 KB per lane fit above
// them (10 KB + 6 KB: the limit); 64 bytes more fit nowhere.
!dm8 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t8 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!dm4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, D]">
!s4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, D / 4]", packet = "D % 4">
!t4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "D">
!x4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, E]">
!xs4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, E / 4]", packet = "E % 4">
!xt4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "E">
!o8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc8 = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "A">
!r8 = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {A = 8, B = 1024, C = 4, D = 3072, E = 3104}} {
  // CHECK-LABEL: func.func @mixed_lanes
  func.func @mixed_lanes(%x: !dm8, %y: !dm4, %v: !v) {
    %s = tcp.fetch sub %x : !dm8 -> !s8
    %c = tcp.collect %s : !s8
    // CHECK: tcp.to_trf {{.*}}tcp.trf_offset = 0 : i64
    %t8 = tcp.to_trf %c : !s8 -> !t8
    %s4 = tcp.fetch sub %y : !dm4 -> !s4
    %c4 = tcp.collect %s4 : !s4
    // CHECK: tcp.to_trf {{.*}}tcp.trf_offset = 10240 : i64
    %t4 = tcp.to_trf %c4 : !s4 -> !t4
    // %t8 is still read below.
    %f = tcp.fetch main %v : !v -> !o8
    %fc = tcp.collect %f : !o8
    %a = tcp.contract %fc, %t8 pack 1 : !o8, !t8 -> !acc8
    %r = tcp.commit %a : !acc8 -> !r8
    return
  }
}

// -----
// One past the limit: the error names the lanes, the segment and the live tensors.
!dm8 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t8 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!dm4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, D]">
!s4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, D / 4]", packet = "D % 4">
!t4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "D">
!x4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, E]">
!xs4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, E / 4]", packet = "E % 4">
!xt4 = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "E">
!o8 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc8 = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "A">
!r8 = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {A = 8, B = 1024, C = 4, D = 3072, E = 3104}} {
  func.func @mixed_lanes_full(%x: !dm8, %y: !x4, %v: !v) {
    %s = tcp.fetch sub %x : !dm8 -> !s8
    %c = tcp.collect %s : !s8
    // expected-note @+1 {{8 lanes x 2048 bytes at offset 0}}
    %t8 = tcp.to_trf %c : !s8 -> !t8
    %s4 = tcp.fetch sub %y : !x4 -> !xs4
    %c4 = tcp.collect %s4 : !xs4
    // expected-error @+1 {{TRF capacity: no room for 6208 bytes in each of 4 lane segments of 16384 bytes (TRF 65536 bytes per slice)}}
    %t4 = tcp.to_trf %c4 : !xs4 -> !xt4
    %f = tcp.fetch main %v : !v -> !o8
    %fc = tcp.collect %f : !o8
    %a = tcp.contract %fc, %t8 pack 1 : !o8, !t8 -> !acc8
    %r = tcp.commit %a : !acc8 -> !r8
    return
  }
}

// -----
// When no fresh memory is left, a tensor reuses the range of one whose last reader has ended: %z takes %x's 256 KB once the DMA storing %x is done.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
module attributes {tcp.axes = {A = 131072}} {
  // CHECK-LABEL: func.func @reuse_when_full
  func.func @reuse_when_full(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                             %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %x = tcp.dma %in : !buf -> !dm
    tcp.dma %x into %out : !dm -> !buf
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 262144 : i64}
    %y = tcp.dma %in : !buf -> !dm
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %z = tcp.dma %in : !buf -> !dm
    tcp.dma %y into %out : !dm -> !buf
    tcp.dma %z into %out : !dm -> !buf
    return
  }
}

// -----
// A joined TRF tensor is placed when its first half loads, live until the contraction reads
// it; the halves take its even lanes (at its offset, 2-lane segments of 32 KB) and its odd
// lanes (one 4-lane segment, 16 KB, further). A tensor loaded before (%p, 4 lanes at 0) keeps
// its range: the join goes after it.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!dm4 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, B]">
!s4 = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[C, B / 16]", packet = "B % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "C # 8">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "C # 8">
module attributes {tcp.axes = {A = 2, B = 64, C = 4}} {
  // CHECK-LABEL: func.func @joined
  func.func @joined(%p4: !dm4, %a: !dm, %b: !dm, %v: !v) {
    %sp = tcp.fetch main %p4 : !dm4 -> !s4
    %cp = tcp.collect %sp : !s4
    // CHECK: tcp.to_trf {{.*}} {tcp.trf_offset = 0 : i64}
    %p = tcp.to_trf %cp : !s4 -> !w
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    // CHECK: tcp.to_trf {{.*}} {tcp.trf_offset = 128 : i64}
    %ta = tcp.to_trf %ca : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    // CHECK: tcp.to_trf {{.*}} {tcp.trf_offset = 16512 : i64}
    %tb = tcp.to_trf %cb : !s -> !h
    // CHECK: tcp.trf_join {{.*}} {tcp.trf_offset = 128 : i64}
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    %f = tcp.fetch main %v : !v -> !x
    %fc = tcp.collect %f : !x
    %o = tcp.contract %fc, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    %f2 = tcp.fetch main %v : !v -> !x
    %fc2 = tcp.collect %f2 : !x
    %o2 = tcp.contract %fc2, %p pack 1 : !x, !w -> !acc
    %d2 = tcp.commit %o2 : !acc -> !r
    return
  }
}

// -----
// A joined DM tensor is placed when its first part is written; part k lands k parts in, so
// the passes that commit the parts write the whole's cells and a pass reads the whole.
!buf = !tcp.hbm<f32, "T">
!src = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "T">
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
!ws = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[P, U / 8]", packet = "U % 8">
module attributes {tcp.axes = {T = 96, P = 3, U = 32}} {
  // CHECK-LABEL: func.func @dm_join
  func.func @dm_join(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %a = tcp.dma %in : !buf -> !src
    %v0 = tcp.dm_view %a offset 0 : !src -> !half
    %v1 = tcp.dm_view %a offset 32 : !src -> !half
    %v2 = tcp.dm_view %a offset 64 : !src -> !half
    %f0 = tcp.fetch main %v0 : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 384 : i64}
    %p0 = tcp.commit %c0 : !hs -> !half
    %f1 = tcp.fetch main %v1 : !half -> !hs
    %c1 = tcp.collect %f1 : !hs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 512 : i64}
    %p1 = tcp.commit %c1 : !hs -> !half
    %f2 = tcp.fetch main %v2 : !half -> !hs
    %c2 = tcp.collect %f2 : !hs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 640 : i64}
    %p2 = tcp.commit %c2 : !hs -> !half
    // CHECK: tcp.dm_join {{.*}} {tcp.dm_offset = 384 : i64}
    %w = tcp.dm_join %p0, %p1, %p2 : !half, !half, !half -> !whole
    %g = tcp.fetch main %w : !whole -> !ws
    %gc = tcp.collect %g : !ws
    // After the whole (384 + 3 x 128): the whole is live until this pass has read it.
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 768 : i64}
    %gd = tcp.commit %gc : !ws -> !whole
    return
  }
}

// -----
// A join in a kernel that fits only with double buffering (the first, all-prefetch attempt
// fails): the second attempt places the join afresh, its parts inside it, nothing over it.
!big = !tcp.hbm<f32, "[A, B]">
!bdm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!bv = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!part = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
!ws = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[P, U / 8]", packet = "U % 8">
module attributes {tcp.axes = {A = 3, B = 40960, P = 2, U = 16384}} {
  // CHECK-LABEL: func.func @retry
  // CHECK-SAME: tcp.prefetch = #tcp<prefetch double>
  func.func @retry(%in: !big {tcp.arg = "in", tcp.name = "in"}) {
    %v0 = tcp.view %in offset 0 : !big -> !tcp.hbm<f32, "B">
    %v1 = tcp.view %in offset 40960 : !big -> !tcp.hbm<f32, "B">
    %v2 = tcp.view %in offset 81920 : !big -> !tcp.hbm<f32, "B">
    %l0 = tcp.dma %v0 : !tcp.hbm<f32, "B"> -> !bdm
    %w0 = tcp.dm_view %l0 offset 0 : !bdm -> !bv
    %f0 = tcp.fetch main %w0 : !bv -> !bs
    %c0 = tcp.collect %f0 : !bs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 327680 : i64}
    %p0 = tcp.commit %c0 : !bs -> !part
    %l1 = tcp.dma %v1 : !tcp.hbm<f32, "B"> -> !bdm
    %w1 = tcp.dm_view %l1 offset 0 : !bdm -> !bv
    %f1 = tcp.fetch main %w1 : !bv -> !bs
    %c1 = tcp.collect %f1 : !bs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 393216 : i64}
    %p1 = tcp.commit %c1 : !bs -> !part
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %l2 = tcp.dma %v2 : !tcp.hbm<f32, "B"> -> !bdm
    %w2 = tcp.dm_view %l2 offset 0 : !bdm -> !bv
    %f2 = tcp.fetch main %w2 : !bv -> !bs
    %c2 = tcp.collect %f2 : !bs
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 458752 : i64}
    %q2 = tcp.commit %c2 : !bs -> !part
    // CHECK: tcp.dm_join {{.*}} {tcp.dm_offset = 327680 : i64}
    %j = tcp.dm_join %p0, %p1 : !part, !part -> !whole
    %g = tcp.fetch main %j : !whole -> !ws
    %gc = tcp.collect %g : !ws
    %gd = tcp.commit %gc : !ws -> !whole
    return
  }
}

// -----
// Once DM is full, a tensor takes, of the free ranges that start at offset 0 or where a live
// tensor's range ends, the one whose tensors were last read earliest: %c's store comes before
// %a's, so %e takes %c's 128 KB, not the lowest free range (%a's). Its writer then waits least
// for the range's readers.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "A / 16", packet = "A % 16">
module attributes {tcp.axes = {A = 65536}} {
  // CHECK-LABEL: func.func @reuse_stalest
  // CHECK-SAME: tcp.prefetch = #tcp<prefetch all>
  func.func @reuse_stalest(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                           %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 0 : i64}
    %a = tcp.dma %in : !buf -> !dm
    %b = tcp.dma %in : !buf -> !dm
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 262144 : i64}
    %c = tcp.dma %in : !buf -> !dm
    %d = tcp.dma %in : !buf -> !dm
    tcp.dma %c into %out : !dm -> !buf
    tcp.dma %a into %out : !dm -> !buf
    %f = tcp.fetch main %b : !dm -> !s
    %k = tcp.collect %f : !s
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 262144 : i64}
    %e = tcp.commit %k : !s -> !dm
    tcp.dma %b into %out : !dm -> !buf
    tcp.dma %d into %out : !dm -> !buf
    tcp.dma %e into %out : !dm -> !buf
    return
  }
}

// -----
// The same, then a 256 KB copy of %b (J broadcast) while %b and %e are live: with %e in %c's
// range the free ranges are %a's and %d's, 128 KB each and apart, so that allocation leaves no
// room, and the lowest free ranges are taken instead: %e in %a's, the copy over %c's and %d's.
!buf = !tcp.hbm<bf16, "A">
!buf2 = !tcp.hbm<bf16, "[J, A]">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
!dm2 = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[J, A]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "A / 16", packet = "A % 16">
module attributes {tcp.axes = {A = 65536, J = 2}} {
  // CHECK-LABEL: func.func @reuse_lowest_when_stalest_leaves_no_room
  // CHECK-SAME: tcp.prefetch = #tcp<prefetch all>
  func.func @reuse_lowest_when_stalest_leaves_no_room(
      %in: !buf {tcp.arg = "in", tcp.name = "in"}, %out: !buf {tcp.arg = "out", tcp.name = "out"},
      %out2: !buf2 {tcp.arg = "out", tcp.name = "out2"}) {
    %a = tcp.dma %in : !buf -> !dm
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 131072 : i64}
    %b = tcp.dma %in : !buf -> !dm
    %c = tcp.dma %in : !buf -> !dm
    %d = tcp.dma %in : !buf -> !dm
    tcp.dma %c into %out : !dm -> !buf
    tcp.dma %a into %out : !dm -> !buf
    %f = tcp.fetch main %b : !dm -> !s
    %k = tcp.collect %f : !s
    // CHECK: tcp.commit {{.*}} {tcp.dm_offset = 0 : i64}
    %e = tcp.commit %k : !s -> !dm
    tcp.dma %d into %out : !dm -> !buf
    // CHECK: tcp.dma {{.*}} {tcp.dm_offset = 262144 : i64}
    %g = tcp.dma %b : !dm -> !dm2
    tcp.dma %b into %out : !dm -> !buf
    tcp.dma %e into %out : !dm -> !buf
    tcp.dma %g into %out2 : !dm2 -> !buf2
    return
  }
}
