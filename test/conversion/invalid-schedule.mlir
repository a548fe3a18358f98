// RUN: rngd-opt %s --split-input-file --convert-tcp-to-rngd --verify-diagnostics
// A schedule handed to the lowering must cut each weight stream into whole parts: its
// `chunks` (iterations of the split loop, one per engine of the cluster, the fourth (spare)
// included) must cover the loop exactly.

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @short(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = ["tag 0", "tag 1", "tag 2"], tcp.prefetch = "all"} {
    // 255 of the 256 slices.
    // expected-error @+1 {{its schedule's chunks (4) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = {chunks = array<i64: 85, 85, 85, 0>, context = "tdma", end = 587 : i64, engines = array<i64: 0, 1, 2>, order = 0 : i64, part_ends = array<i64: 586, 586, 587>, part_starts = array<i64: 0, 1, 2>, start = 0 : i64, tags = array<i64: 0, 1, 2>, waits = []}} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @missing(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = ["tag 0", "tag 1", "tag 2"], tcp.prefetch = "all"} {
    // Every slice, but no chunk for the spare engine.
    // expected-error @+1 {{its schedule's chunks (3) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = {chunks = array<i64: 86, 85, 85>, context = "tdma", end = 587 : i64, engines = array<i64: 0, 1, 2>, order = 0 : i64, part_ends = array<i64: 586, 586, 587>, part_starts = array<i64: 0, 1, 2>, start = 0 : i64, tags = array<i64: 0, 1, 2>, waits = []}} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @extra(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = ["tag 0", "tag 1", "tag 2"], tcp.prefetch = "all"} {
    // One chunk more than the cluster's four engines.
    // expected-error @+1 {{its schedule's chunks (5) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = {chunks = array<i64: 86, 85, 85, 0, 0>, context = "tdma", end = 587 : i64, engines = array<i64: 0, 1, 2>, order = 0 : i64, part_ends = array<i64: 586, 586, 587>, part_starts = array<i64: 0, 1, 2>, start = 0 : i64, tags = array<i64: 0, 1, 2>, waits = []}} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @whole(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = ["tag 0", "tag 1"], tcp.prefetch = "all"} {
    // A zero chunk drops its engine: two descriptors, lowered.
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = {chunks = array<i64: 128, 0, 128, 0>, context = "tdma", end = 587 : i64, engines = array<i64: 0, 2>, order = 0 : i64, part_ends = array<i64: 586, 587>, part_starts = array<i64: 0, 2>, start = 0 : i64, tags = array<i64: 0, 1>, waits = []}} : !big -> !bigdm
    return
  }
}
