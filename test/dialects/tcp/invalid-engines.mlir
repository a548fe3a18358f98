// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// Register files, the Contraction Engine and the Vector Engine: normal, at-limit and one-past
// cases per rule (the example kernels are further normal cases).

// TRF capacity: 64 KB per slice shared by the lanes. At the limit: 4 lanes x 16 KB (the
// reference's o-projection layout).
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 4, B = 8192}} {
  func.func @trf_at_limit(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    %t = tcp.to_trf %c : !s -> !t
    return
  }
}

// -----
// One past: 32 more bf16 per lane.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 4, B = 8224}} {
  func.func @trf_one_past(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{TRF capacity: 4 lanes x 16448 bytes need 65792 bytes per slice; a slice's TRF holds 65536 (16384 per lane)}}
    %t = tcp.to_trf %c : !s -> !t
    return
  }
}

// -----
// TRF lanes are 1, 2, 4 or 8.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 3, B = 64}} {
  func.func @trf_lanes(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{TRF lanes: lane mapping "A" has 3 cells; a TRF tensor uses 1, 2, 4 or 8 lanes}}
    %t = tcp.to_trf %c : !s -> !t
    return
  }
}

// -----
// The stream fills the TRF lane by lane: [time, packet] must be the TRF's [lane, elem] order.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "B / 16", elem = "[A, B % 16]">
module attributes {tcp.axes = {A = 4, B = 64}} {
  func.func @trf_order(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{the stream's [time, packet] order [A, B / 4, B % 4] (256 cells) must equal the TRF [lane, elem] order [B / 16, A, B % 16] (256 cells)}}
    %t = tcp.to_trf %c : !s -> !t
    return
  }
}

// -----
// VRF capacity: 8 KB per slice. At the limit: 2048 f32.
!dm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "B / 2", packet = "B % 2">
!v = !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {B = 2048}} {
  func.func @vrf_at_limit(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    %v = tcp.to_vrf %c : !s -> !v
    return
  }
}

// -----
// One past: two more f32.
!dm = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "B / 2", packet = "B % 2">
!v = !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {B = 2050}} {
  func.func @vrf_one_past(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{VRF capacity: tensor '!tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">' needs 8200 bytes per slice; a slice's VRF holds 8192}}
    %v = tcp.to_vrf %c : !s -> !v
    return
  }
}

// -----
// Contraction: the time reducer holds slots x packet elements <= 128 cells. At the limit:
// 4 slots of 32-element packets (pack 2).
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "I / 8", packet = "I % 8">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @slots_at_limit(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">, %w: !w) {
    %s = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J"> -> !xs
    %c = tcp.collect %s : !xs
    %y = tcp.contract %c, %w pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "I">
    return
  }
}

// -----
// One past: 8 slots.
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "I / 8", packet = "I % 8">
module attributes {tcp.axes = {I = 64, J = 64}} {
  func.func @slots_one_past(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">, %w: !w) {
    %s = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J"> -> !xs
    %c = tcp.collect %s : !xs
    // expected-error @+1 {{time reducer: 8 accumulator slots x 32-element packets exceed the accumulator's 128 cells}}
    %y = tcp.contract %c, %w pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "I">
    return
  }
}

// -----
// Contraction only on the main context.
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "I / 8", packet = "I % 8">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @contract_sub(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">, %w: !w) {
    %s = tcp.fetch sub %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J"> -> !xs
    %c = tcp.collect %s : !xs
    // expected-error @+1 {{context: the Contraction Engine runs on the main context only}}
    %y = tcp.contract %c, %w pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "I">
    return
  }
}

// -----
// The packet reducer sums the whole packet: its axes must be contracted with the TRF.
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[J, I / 8]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "I / 8", packet = "I % 8">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @packet_not_contiguous(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">, %w: !w) {
    %s = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J"> -> !xs
    %c = tcp.collect %s : !xs
    // expected-error @+1 {{packet reducer: the packet [J / 16 % 2, J % 16] must be contiguous in the TRF element mapping [J, I / 8]}}
    %y = tcp.contract %c, %w pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "I">
    return
  }
}

// -----
// The result's time is the kept factors in order.
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "J / 32", packet = "I % 8">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @result_time(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">, %w: !w) {
    %s = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J"> -> !xs
    %c = tcp.collect %s : !xs
    // expected-error @+1 {{time reducer: the result's time must be the kept factors in order, I / 8, got J / 32}}
    %y = tcp.contract %c, %w pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[J / 32, I % 8]">
    return
  }
}

// -----
// Vector Engine: at most 3 immediates per invocation (fma's addend counts). At the limit:
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "B">
module attributes {tcp.axes = {B = 8}} {
  func.func @three_immediates(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B"> -> !s
    %c = tcp.collect %s : !s
    %v = tcp.vector %c [fma_f 2.0 + 1.0, mul_f 3.0] : !s
    %z = tcp.commit %v : !s -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
    return
  }
}

// -----
// One past: four.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "B">
module attributes {tcp.axes = {B = 8}} {
  func.func @four_immediates(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{operands: 4 immediates; an invocation has 3}}
    %v = tcp.vector %c [fma_f 2.0 + 1.0, mul_f 3.0, mul_f 4.0] : !s
    %z = tcp.commit %v : !s -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
    return
  }
}

// -----
// One register-file port: one VRF read per invocation.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "B">
!v = !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {B = 8}} {
  func.func @two_vrf_reads(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">, %a: !v, %b: !v) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{operands: 2 VRF tensors; an invocation has one register file port}}
    %v = tcp.vector %c [mul_f vrf(%a : !v), div_f vrf(%b : !v)] : !s
    %z = tcp.commit %v : !s -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
    return
  }
}

// -----
// The stash must be written before it is read.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "B">
module attributes {tcp.axes = {B = 8}} {
  func.func @stash_first(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{step `mul_f` reads the stash before any `stash` step}}
    %v = tcp.vector %c [mul_f stash] : !s
    %z = tcp.commit %v : !s -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
    return
  }
}

// -----
// A reduce emits new flits: a value stashed before it is not there for the steps after it.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[A, C]", packet = "B">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "C", packet = "1 # 2">
module attributes {tcp.axes = {A = 4, B = 8, C = 8}} {
  func.func @stash_across_reduce(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{step `div_f` reads the stash before any `stash` step of its flits (a reduce starts new flits)}}
    %v = tcp.vector %c [stash, reduce_add_f, div_f stash] : !s -> !r
    %z = tcp.commit %v : !r -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C, 1 # 2]">
    return
  }
}

// -----
// Intra-slice reduce: at most 8 slots (the innermost time factors). At the limit: 8.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[A, C]", packet = "B">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "C", packet = "1 # 2">
module attributes {tcp.axes = {A = 4, B = 8, C = 8}} {
  func.func @eight_slots(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]"> -> !s
    %c = tcp.collect %s : !s
    %v = tcp.vector %c [reduce_add_f] : !s -> !r
    %z = tcp.commit %v : !r -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C, 1 # 2]">
    return
  }
}

// -----
// One past: 16 slots.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[A, C]", packet = "B">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "C", packet = "1 # 2">
module attributes {tcp.axes = {A = 4, B = 8, C = 16}} {
  func.func @sixteen_slots(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, C, B]"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{intra-slice reduce: the result's time must be the innermost input time factors (at most 8 slots), got C from [A, C]}}
    %v = tcp.vector %c [reduce_add_f] : !s -> !r
    %z = tcp.commit %v : !r -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C, 1 # 2]">
    return
  }
}

// -----
// Inter-slice reduce: the reduced slice factors become a fresh axis of the same size.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "T / 8 # 256", time = "1", packet = "T % 8">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "T / 8 # 256", time = "1", packet = "1 # 2">
module attributes {tcp.axes = {T = 512}} {
  func.func @not_fresh(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "T / 8 # 256", elem = "T % 8">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "T / 8 # 256", elem = "T % 8"> -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{inter-slice reduce: the result's slice mapping must replace the innermost slice factors (a power-of-two group) by fresh axes of the same size, got T / 8 # 256 from T / 8 # 256}}
    %v = tcp.vector %c [reduce_add_f, inter_add_f] : !s -> !r
    %z = tcp.commit %v : !r -> !tcp.dm<f32, cluster = "1 # 2", slice = "T / 8 # 256", elem = "1 # 2">
    return
  }
}

// -----
// Transpose Engine: rows x element bytes <= 8. At the limit: 4 rows of bf16 (the transpose
// example kernel); one past: 8 rows of bf16.
!rows = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "R", packet = "C">
!cols = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "C", packet = "R">
module attributes {tcp.axes = {R = 8, C = 8}} {
  func.func @transpose_rows(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]">) {
    %f = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]"> -> !rows
    %c = tcp.collect %f : !rows
    // expected-error @+1 {{transpose: 8 rows of 16-bit elements exceed the limit of 4}}
    %t = tcp.transpose %c : !rows -> !cols
    %y = tcp.commit %t : !cols -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, R]">
    return
  }
}

// -----
// The Transpose Engine runs on the main context only (the transpose example kernel, fetched on
// sub).
!rows = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "R", packet = "C">
!cols = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "C", packet = "R">
module attributes {tcp.axes = {R = 4, C = 8}} {
  func.func @transpose_sub(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]">) {
    %f = tcp.fetch sub %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]"> -> !rows
    %c = tcp.collect %f : !rows
    // expected-error @+1 {{context: the Transpose Engine runs on the main context only}}
    %t = tcp.transpose %c : !rows -> !cols
    %y = tcp.commit %t : !cols -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[C, R]">
    return
  }
}

// -----
// Transpose Engine: the result time is [outer, row flits, packet].
!rows = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "R", packet = "C">
!cols = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "R", packet = "C">
module attributes {tcp.axes = {R = 4, C = 8}} {
  func.func @transpose_shape(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]">) {
    %f = tcp.fetch main %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]"> -> !rows
    %c = tcp.collect %f : !rows
    // expected-error @+1 {{transpose: the input time must end in the result packet's rows C followed by the flits of a row, got R}}
    %t = tcp.transpose %c : !rows -> !cols
    %y = tcp.commit %t : !cols -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[R, C]">
    return
  }
}

// -----
// Switch Engine: broadcast1 moves slice1 to the innermost time and puts a fresh axis in its
// place; anything else is not this configuration.
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "1", packet = "A % 4">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "A / 4 % 4", packet = "A % 4">
module attributes {tcp.axes = {A = 1024, X = 4}} {
  func.func @switch_not_fresh(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4">) {
    %f = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4"> -> !fs
    // expected-error @+1 {{switch broadcast1: the result (slice [A / 16, A / 4 % 4], time A / 4 % 4) is not this configuration applied to the input (slice [A / 16, A / 4 % 4], time 1)}}
    %b = tcp.switch broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    %g = tcp.commit %c : !bs -> !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 16">
    return
  }
}

// -----
// A commit may keep some of the copies a switch broadcast made (slices along its fresh axis X
// hold the same values): one per ring, or two per ring as a replica axis R of the result.
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "1", packet = "A % 4">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, X]", time = "A / 4 % 4", packet = "A % 4">
!src = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4">
module attributes {tcp.axes = {A = 1024, X = 4, R = 2}} {
  func.func @commit_copies(%x: !src) {
    %f = tcp.fetch main %x : !src -> !fs
    %b = tcp.switch broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    %g = tcp.commit %c : !bs -> !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, 1 # 4]", elem = "A % 16">
    %f2 = tcp.fetch main %x : !src -> !fs
    %b2 = tcp.switch broadcast1 %f2 : !fs -> !bs
    %c2 = tcp.collect %b2 : !bs
    %g2 = tcp.commit %c2 : !bs -> !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, R, 1 # 2]", elem = "A % 16">
    return
  }
}

// -----
// ... but not move the data to other slices (each slice commits what it holds).
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", time = "1", packet = "A % 4">
!bs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, X]", time = "A / 4 % 4", packet = "A % 4">
!src = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, A / 4 % 4]", elem = "A % 4">
module attributes {tcp.axes = {A = 1024, X = 4}} {
  func.func @commit_moves(%x: !src) {
    %f = tcp.fetch main %x : !src -> !fs
    %b = tcp.switch broadcast1 %f : !fs -> !bs
    %c = tcp.collect %b : !bs
    // expected-error @+1 {{each slice commits to its own DM: the result's cluster/slice mappings must equal the stream's (or keep some of the copies along axes the pass made: slice [A / 16, X] vs [X, A / 16])}}
    %g = tcp.commit %c : !bs -> !tcp.dm<f32, cluster = "1 # 2", slice = "[X, A / 16]", elem = "A % 16">
    return
  }
}

// -----
// ... and only copies the pass made: R came with the fetched tensor.
!fs = !tcp.stream<f32, cluster = "1 # 2", slice = "[A / 16, R]", time = "A / 4 % 4", packet = "A % 4">
!src = !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, R]", elem = "A % 16">
module attributes {tcp.axes = {A = 1024, R = 4}} {
  func.func @commit_not_made(%x: !src) {
    %f = tcp.fetch main %x : !src -> !fs
    %c = tcp.collect %f : !fs
    // expected-error @+1 {{must equal the stream's (or keep some of the copies along axes the pass made: slice [A / 16, R] vs [A / 16, 1 # 4])}}
    %g = tcp.commit %c : !fs -> !tcp.dm<f32, cluster = "1 # 2", slice = "[A / 16, 1 # 4]", elem = "A % 16">
    return
  }
}

// -----
// A half region holds half of each lane: at the limit, 4 lanes x 8 KB in the first half.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 4, B = 4096}} {
  func.func @half_at_limit(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    %t = tcp.to_trf %c {region = "first"} : !s -> !t
    return
  }
}

// -----
// One past: 32 more bf16 per lane in the second half.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 4]", packet = "B % 4">
!t = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
module attributes {tcp.axes = {A = 4, B = 4128}} {
  func.func @half_one_past(%x: !dm) {
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{TRF capacity: 8256 bytes per lane exceed the 8192 bytes of a half region with 4 lanes}}
    %t = tcp.to_trf %c {region = "second"} : !s -> !t
    return
  }
}

// -----
// VRF views: the window must lie inside the source. At the limit: the second half.
module attributes {tcp.axes = {C2 = 2, D = 128}} {
  func.func @vrf_view(%x: !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C2, D]">) {
    %v = tcp.vrf_view %x offset 128 : !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C2, D]"> -> !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "D">
    // expected-error @+1 {{cells [129, 257) are outside the source's 256 cells}}
    %w = tcp.vrf_view %x offset 129 : !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[C2, D]"> -> !tcp.vrf<f32, cluster = "1 # 2", slice = "1 # 256", elem = "D">
    return
  }
}
