// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// The scheduler's output is typed IR (#tcp.schedule, docs/dialect.md): a hand-edited or
// malformed schedule is a located error, never a crash.

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @wrong_type(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // The old string dictionary is no schedule.
    // expected-error @+1 {{tcp.schedule must be a #tcp.schedule<...>, got {context = "tdma"}}}
    %0 = tcp.dma %arg0 {tcp.schedule = {context = "tdma"}} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @tag_63(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // The last tag is fine.
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [0], tags = [63], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @tag_64(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tag 64: DMA tags are 0..63}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [0], tags = [64], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @wait_tag_64(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{wait on tag 64: DMA tags are 0..63}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [tag 64], engines = [0], tags = [1], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @engine_7(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // rngd-1chip (the default target) has DMA engines 0..7.
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [7], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @engine_8(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{scheduled on DMA engine 8, but target rngd-1chip has 8 (0..7)}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [8], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}, tcp.target = "rngd-1cluster"} {
  func.func @engine_4_of_4(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // The module's target decides: rngd-1cluster has four engines.
    // expected-error @+1 {{scheduled on DMA engine 4, but target rngd-1cluster has 4 (0..3)}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [4], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @wait_on_no_unit(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+2 {{a wait is `tag N`, `main` or `sub`; there is no unit 'dma' to wait for}}
    // expected-error @+1 {{failed to parse Tcp_ScheduleAttr parameter 'waits'}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [dma], engines = [0], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @wait_integer(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // The hand edit that used to crash the lowering (waits = [0 : i64]).
    // expected-error @+2 {{expected a wait: `tag N`, `main` or `sub`}}
    // expected-error @+1 {{failed to parse Tcp_ScheduleAttr parameter 'waits'}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [0 : i64], engines = [0], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @missing_start(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{struct is missing required parameter: start}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, end = 9, waits = [], engines = [0], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @dma_lists(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tags has 1 entries for 2 engines (one per descriptor)}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = tdma, start = 0, end = 9, waits = [], engines = [0, 1], tags = [0], chunks = [128, 128], part_starts = [0, 0], part_ends = [9, 9], part_after = [-1, -1]>} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @dma_on_main(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{a pass on main has no DMA parts}}
    %0 = tcp.dma %arg0 {tcp.schedule = #tcp.schedule<order = 0, queue = main, start = 0, end = 9, waits = [], engines = [0], tags = [0], chunks = [256], part_starts = [0], part_ends = [9], part_after = [-1]>} : !a -> !adm
    return
  }
}

// -----

// expected-error @+1 {{tcp.target is a module attribute naming a}}
module attributes {tcp.target = "rngd-2chip"} {
}

// -----

!a = !tcp.hbm<bf16, "A">
module attributes {tcp.axes = {A = 32768 : i64}} {
  // expected-error @+1 {{tcp.final_waits must be a #tcp.final_waits<[...]>, got ["tag 0"]}}
  func.func @final_waits_strings(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.final_waits = ["tag 0"]} {
    return
  }
}
