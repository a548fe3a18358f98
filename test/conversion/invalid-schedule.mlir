// RUN: rngd-opt %s --split-input-file --convert-tcp-to-rngd --verify-diagnostics
// A schedule handed to the lowering must cut each weight stream into whole parts: its
// `chunks` (iterations of the split loop, one per engine of the cluster, the fourth (spare)
// included) must cover the loop exactly.

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @short(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = #tcp.final_waits<[tag 0, tag 1, tag 2]>, tcp.prefetch = #tcp<prefetch all>} {
    // 255 of the 256 slices.
    // expected-error @+1 {{its schedule's chunks (4) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 587, waits = [], engines = [0, 1, 2], tags = [0, 1, 2], chunks = [85, 85, 85, 0], part_starts = [0, 1, 2], part_ends = [586, 586, 587], part_after = [-1, -1, -1]>} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @missing(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = #tcp.final_waits<[tag 0, tag 1, tag 2]>, tcp.prefetch = #tcp<prefetch all>} {
    // Every slice, but no chunk for the spare engine.
    // expected-error @+1 {{its schedule's chunks (3) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 587, waits = [], engines = [0, 1, 2], tags = [0, 1, 2], chunks = [86, 85, 85], part_starts = [0, 1, 2], part_ends = [586, 586, 587], part_after = [-1, -1, -1]>} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @extra(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = #tcp.final_waits<[tag 0, tag 1, tag 2]>, tcp.prefetch = #tcp<prefetch all>} {
    // One chunk more than the cluster's four engines.
    // expected-error @+1 {{its schedule's chunks (5) do not cut it into whole parts}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 587, waits = [], engines = [0, 1, 2], tags = [0, 1, 2], chunks = [86, 85, 85, 0, 0], part_starts = [0, 1, 2], part_ends = [586, 586, 587], part_after = [-1, -1, -1]>} : !big -> !bigdm
    return
  }
}

// -----

!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @whole(%arg0: !big {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = #tcp.final_waits<[tag 0, tag 1]>, tcp.prefetch = #tcp<prefetch all>} {
    // A zero chunk drops its engine: two descriptors, lowered.
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 587, waits = [], engines = [0, 2], tags = [0, 1], chunks = [128, 0, 128, 0], part_starts = [0, 2], part_ends = [586, 587], part_after = [-1, -1]>} : !big -> !bigdm
    return
  }
}

// -----

// A hand-edited wait for a tag that no DMA holds: the lowering names the tag.
!big = !tcp.hbm<bf16, "A">
!bigdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = 588 : i64} {
  func.func @stray_wait(%arg0: !big {tcp.arg = "in", tcp.name = "a"}, %arg1: !big {tcp.arg = "out", tcp.name = "b"}) attributes {tcp.final_waits = #tcp.final_waits<[tag 0]>, tcp.prefetch = #tcp<prefetch all>} {
    %0 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64, tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 587, waits = [], engines = [0], tags = [0], chunks = [256, 0, 0, 0], part_starts = [0], part_ends = [587], part_after = [-1]>} : !big -> !bigdm
    // expected-error @+1 {{waits for tag 5, which no DMA in flight holds}}
    tcp.dma %0 into %arg1 {tcp.schedule = #tcp.schedule<order = 1, queue = tdma, start = 587, end = 1000, waits = [tag 5], why = waits, after = 0, engines = [1], tags = [1], chunks = [256, 0, 0, 0], part_starts = [587], part_ends = [1000], part_after = [0]>} : !bigdm -> !big
    return
  }
}
