// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// tcp-allocate-memory's output is typed IR: an offset is an i64 within its memory on an op that
// defines a tensor of that memory, the prefetch is #tcp<prefetch ...>, and no other tcp.*
// attribute exists (a typo is an error, not a silent default).

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  // The last byte of the last slice's window is an offset; one past it is not.
  func.func @dm_limit(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) attributes {tcp.prefetch = #tcp<prefetch double>} {
    %0 = tcp.dma %arg0 {tcp.dm_offset = 2147483647 : i64} : !a -> !adm
    %1 = tcp.dma %arg0 {tcp.dm_offset = 0 : i64} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @dm_past(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tcp.dm_offset is the i64 byte offset, 0..2147483647, of the tensor an op defines in that memory, got 2147483648}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = 2147483648 : i64} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @negative(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tcp.dm_offset is the i64 byte offset, 0..2147483647, of the tensor an op defines in that memory, got -1}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = -1 : i64} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @wrong_memory(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tcp.trf_offset is the i64 byte offset, 0..65535, of the tensor an op defines in that memory, got 0}}
    %0 = tcp.dma %arg0 {tcp.trf_offset = 0 : i64} : !a -> !adm
    return
  }
}

// -----

!a = !tcp.hbm<bf16, "A">
!adm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 128", elem = "A % 128">
module attributes {tcp.axes = {A = 32768 : i64}} {
  func.func @string_offset(%arg0: !a {tcp.arg = "in", tcp.name = "a"}) {
    // expected-error @+1 {{tcp.dm_offset is the i64 byte offset, 0..2147483647, of the tensor an op defines in that memory, got "0"}}
    %0 = tcp.dma %arg0 {tcp.dm_offset = "0"} : !a -> !adm
    return
  }
}

// -----

module attributes {tcp.axes = {A = 32768 : i64}} {
  // The old string spelling, whose typos meant "double", is refused.
  // expected-error @+1 {{tcp.prefetch is a function attribute, #tcp<prefetch all> or #tcp<prefetch double>, got "al"}}
  func.func @prefetch_typo() attributes {tcp.prefetch = "al"} {
    return
  }
}

// -----

module attributes {tcp.axes = {A = 32768 : i64}} {
  // expected-error @+1 {{unknown tcp attribute `tcp.prefech` (tcp.axes, tcp.target, tcp.makespan, tcp.prefetch, tcp.final_waits, tcp.schedule, tcp.dm_offset, tcp.trf_offset, tcp.vrf_offset)}}
  func.func @unknown() attributes {tcp.prefech = #tcp<prefetch all>} {
    return
  }
}

// -----

// expected-error @+1 {{tcp.makespan is a module attribute, the predicted cycles, got "fast"}}
module attributes {tcp.axes = {A = 32768 : i64}, tcp.makespan = "fast"} {
}
