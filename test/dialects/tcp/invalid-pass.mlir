// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// Tensor Unit pass rules: pipeline order, single use, contexts, packet and flit sizes, the
// fetch cast table, the Vector Engine's ALU rules, commit trim and the sequencer limits.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @normal(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    %v = tcp.vector %c [add_f 1.0, mul_f 2.0] : !s
    %b = tcp.cast %v : !s -> !b
    %y = tcp.commit %b : !b -> !dm
    return
  }
}

// -----
// Pipeline order: commit cannot take a fetch's stream (Collect first).
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @order(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !b
    // expected-error @+1 {{pipeline order: input must come from `tcp.collect` or `tcp.contract` or `tcp.vector` or `tcp.cast` or `tcp.transpose`, got `tcp.fetch`}}
    %y = tcp.commit %s : !b -> !dm
    return
  }
}

// -----
// A stream flows into exactly one engine.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @two_uses(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !b
    // expected-error @+1 {{stream result has 2 uses; a stream flows into exactly one engine}}
    %c = tcp.collect %s : !b
    %y = tcp.commit %c : !b -> !dm
    %z = tcp.commit %c : !b -> !dm
    return
  }
}

// -----
// Context: the Cast Engine only on main.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @cast_on_sub(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{context: the Cast Engine is available on the main context only}}
    %b = tcp.cast %c : !s -> !b
    %y = tcp.commit %b : !b -> !dm
    return
  }
}

// -----
// The fetch adapter casts bf16 -> f32 only.
!ibuf = !tcp.hbm<i32, "A">
!idm = !tcp.dm<i32, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @fetch_cast(%in: !ibuf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !ibuf -> !idm
    // expected-error @+1 {{fetch cast from 'i32' to 'f32' is not supported (only bf16 -> f32)}}
    %s = tcp.fetch main %x : !idm -> !s
    %c = tcp.collect %s : !s
    %y = tcp.commit %c : !s -> !idm
    return
  }
}

// -----
// Packet size at the flit limit: 8 f32 = 32 bytes (normal case above); one past: 16 f32.
!buf = !tcp.hbm<f32, "A">
!dm = !tcp.dm<f32, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 16 % 2", packet = "A % 16">
module attributes {tcp.axes = {A = 8192}} {
  func.func @packet_too_big(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    // expected-error @+1 {{packet size: 64 bytes per packet exceed one 32-byte flit}}
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    %y = tcp.commit %c : !s -> !dm
    return
  }
}

// -----
// Packets are multiples of 8 bytes: at the limit 4 bf16 (8 bytes) commit fine.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 4 % 8", packet = "A % 4">
module attributes {tcp.axes = {A = 8192}} {
  func.func @packet_at_limit(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !b
    %c = tcp.collect %s : !b
    %y = tcp.commit %c : !b -> !dm
    return
  }
}

// -----
// One past (below): 2 bf16 = 4 bytes.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 2 % 16", packet = "A % 2">
module attributes {tcp.axes = {A = 8192}} {
  func.func @packet_unaligned(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    // expected-error @+1 {{packet size: a stream packet of 4 bytes is not a multiple of 8 bytes}}
    %s = tcp.fetch main %x : !dm -> !b
    %c = tcp.collect %s : !b
    %y = tcp.commit %c : !b -> !dm
    return
  }
}

// -----
// Each slice fetches its own DM: the stream keeps the source's cluster/slice mapping.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A % 256", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @spatial(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    // expected-error @+1 {{each slice fetches its own DM}}
    %s = tcp.fetch main %x : !dm -> !b
    %c = tcp.collect %s : !b
    %y = tcp.commit %c : !b -> !dm
    return
  }
}

// -----
// Vector Engine: each ALU at most once per invocation.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @alu_twice(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{ALU FpFma is used twice; each ALU runs at most once per vector invocation}}
    %v = tcp.vector %c [add_f 1.0, add_f 2.0] : !s
    %b = tcp.cast %v : !s -> !b
    %y = tcp.commit %b : !b -> !dm
    return
  }
}

// -----
// Vector Engine: stages run in hardware order (FpFma before FpMul0).
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @stage_order(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{stage order: `add_f` (FpFma) cannot follow `mul_f` (FpMul0) in one invocation}}
    %v = tcp.vector %c [mul_f 2.0, add_f 1.0] : !s
    %b = tcp.cast %v : !s -> !b
    %y = tcp.commit %b : !b -> !dm
    return
  }
}

// -----
// Vector Engine: 32-bit streams only.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!b = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @vector_bf16(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !b
    %c = tcp.collect %s : !b
    // expected-error @+1 {{the Vector Engine computes on i32 or f32 streams, got 'bf16'}}
    %v = tcp.vector %c [add_f 1.0] : !b
    %y = tcp.commit %v : !b -> !dm
    return
  }
}

// -----
// Vector steps match the stream's type.
!buf = !tcp.hbm<i32, "A">
!dm = !tcp.dm<i32, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<i32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @step_type(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{step `add_f` computes on f32 but the value there is i32}}
    %v = tcp.vector %c [add_f 1.0] : !s
    %y = tcp.commit %v : !s -> !dm
    return
  }
}

// -----
// Unknown vector steps are parse errors.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @unknown_step(%c: !s) {
    // expected-error @+1 {{unknown vector step `tanh_f`}}
    %v = tcp.vector %c [tanh_f 1.0] : !s
    return
  }
}

// -----
// Commit: each packet is written by one access; sub commits write 8 bytes.
!buf = !tcp.hbm<i32, "A">
!dm = !tcp.dm<i32, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<i32, cluster = "1 # 2", slice = "A / 32", time = "A / 4 % 8", packet = "A % 4">
module attributes {tcp.axes = {A = 8192}} {
  func.func @sub_commit(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %s : !s
    // expected-error @+1 {{commit: each 16-byte packet must be written by one access, but the result's element mapping "A % 32" allows 8-byte accesses (sub commits write 8 bytes)}}
    %y = tcp.commit %c : !s -> !dm
    return
  }
}

// -----
// Sequencer: at most 8 loop entries after merging. At the limit: eight reversed axes.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[P, Q, R, S, T, U, V, W, Z]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[W, V, U, T, S, R, Q, P]", packet = "Z">
module attributes {tcp.axes = {P = 2, Q = 2, R = 2, S = 2, T = 2, U = 2, V = 2, W = 2, Z = 8}} {
  func.func @eight_entries(%x: !dm) {
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    %y = tcp.commit %c : !s -> !dm
    return
  }
}

// -----
// One past: nine reversed axes need nine entries.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[O, P, Q, R, S, T, U, V, W, Z]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[W, V, U, T, S, R, Q, P, O]", packet = "Z">
module attributes {tcp.axes = {O = 2, P = 2, Q = 2, R = 2, S = 2, T = 2, U = 2, V = 2, W = 2, Z = 8}} {
  func.func @nine_entries(%x: !dm) {
    // expected-error @+1 {{fetch sequencer: time `[W, V, U, T, S, R, Q, P, O]`, packet `Z`: needs 9 sequencer entries, limit 8}}
    %s = tcp.fetch main %x : !dm -> !s
    %c = tcp.collect %s : !s
    %y = tcp.commit %c : !s -> !dm
    return
  }
}

// -----
// The commit adapter casts f32 -> bf16 on the main context only.
!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
module attributes {tcp.axes = {A = 8192}} {
  func.func @commit_cast_sub(%in: !buf {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !buf -> !dm
    %f = tcp.fetch sub %x : !dm -> !s
    %c = tcp.collect %f : !s
    // expected-error @+1 {{context: the commit adapter casts on the main context only}}
    %y = tcp.commit %c {cast} : !s -> !dm
    return
  }
}

// -----
// A result that a DMA moves holds at least 8 meaningful bytes per slice: the commit that
// chooses a smaller layout is refused, pointing at the DMA (one f32 per slice, padded).
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "A", packet = "B">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "1 # 2">
!one = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "1 # 2">
module attributes {tcp.axes = {A = 4, B = 8}} {
  func.func @stored_4_bytes(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">,
                            %out: !tcp.hbm<f32, "1 # 2"> {tcp.arg = "out", tcp.name = "out"}) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]"> -> !s
    %c = tcp.collect %s : !s
    %v = tcp.vector %c [reduce_add_f] : !s -> !r
    // expected-error @+1 {{the result holds 4 meaningful bytes per slice (elem "1 # 2") but a DMA moves it, which needs 8}}
    %z = tcp.commit %v : !r -> !one
    // expected-note @+1 {{the DMA}}
    tcp.dma %z into %out : !one -> !tcp.hbm<f32, "1 # 2">
    return
  }
}

// -----
// The same padded value read back by a pass (no DMA) is fine.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "A", packet = "B">
!r = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "1 # 2">
!one = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "1 # 2">
module attributes {tcp.axes = {A = 4, B = 8}} {
  func.func @kept_4_bytes(%x: !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">) {
    %s = tcp.fetch main %x : !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]"> -> !s
    %c = tcp.collect %s : !s
    %v = tcp.vector %c [reduce_add_f] : !s -> !r
    %z = tcp.commit %v : !r -> !one
    %t = tcp.fetch main %z : !one -> !r
    %u = tcp.collect %t : !r
    %w = tcp.commit %u : !r -> !one
    return
  }
}

// -----
// At the limit: 8 meaningful bytes per slice (two f32 values) may be stored.
!s = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "B">
!two = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "B">
module attributes {tcp.axes = {B = 2}} {
  func.func @stored_8_bytes(%x: !two, %out: !tcp.hbm<f32, "B"> {tcp.arg = "out", tcp.name = "out"}) {
    %s = tcp.fetch main %x : !two -> !s
    %c = tcp.collect %s : !s
    %z = tcp.commit %c : !s -> !two
    tcp.dma %z into %out : !two -> !tcp.hbm<f32, "B">
    return
  }
}
