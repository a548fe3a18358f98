// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// tcp.dm_join: DM tensors written by separate passes (or DMAs), read as one.

// Normal: two halves of a 64-cell row, each committed by its own pass, read whole.
!src = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "T">
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
!ws = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[P, U / 8]", packet = "U % 8">
module attributes {tcp.axes = {T = 64, P = 2, U = 32}} {
  func.func @halves(%a: !src) {
    %lo = tcp.dm_view %a offset 0 : !src -> !half
    %hi = tcp.dm_view %a offset 32 : !src -> !half
    %f0 = tcp.fetch main %lo : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %v0 = tcp.vector %c0 [mul_f 2.0] : !hs
    %p0 = tcp.commit %v0 : !hs -> !half
    %f1 = tcp.fetch main %hi : !half -> !hs
    %c1 = tcp.collect %f1 : !hs
    %v1 = tcp.vector %c1 [mul_f 2.0] : !hs
    %p1 = tcp.commit %v1 : !hs -> !half
    %w = tcp.dm_join %p0, %p1 : !half, !half -> !whole
    %g = tcp.fetch main %w : !whole -> !ws
    %gc = tcp.collect %g : !ws
    %gd = tcp.commit %gc : !ws -> !whole
    return
  }
}

// -----
// One part is not a join.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
module attributes {tcp.axes = {P = 1, U = 32}} {
  func.func @one(%a: !half) {
    %f0 = tcp.fetch main %a : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %p0 = tcp.commit %c0 : !hs -> !half
    // expected-error @+1 {{joins two or more parts, got 1}}
    %w = tcp.dm_join %p0 : !half -> !whole
    return
  }
}

// -----
// The outermost factor counts the parts: 2 parts, a factor of 4 cells.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
module attributes {tcp.axes = {P = 4, U = 32}} {
  func.func @count(%a: !half) {
    %f0 = tcp.fetch main %a : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %p0 = tcp.commit %c0 : !hs -> !half
    %f1 = tcp.fetch main %a : !half -> !hs
    %c1 = tcp.collect %f1 : !hs
    %p1 = tcp.commit %c1 : !hs -> !half
    // expected-error @+1 {{the result's outermost element factor counts the parts: 2 parts, factor `P` of 4 cells}}
    %w = tcp.dm_join %p0, %p1 : !half, !half -> !whole
    return
  }
}

// -----
// After the outermost factor, the result's elements are a part's.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[U / 8, U % 8]">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U % 8, U / 8]">
module attributes {tcp.axes = {P = 2, U = 32}} {
  func.func @order(%a: !half) {
    %f0 = tcp.fetch main %a : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %p0 = tcp.commit %c0 : !hs -> !half
    %f1 = tcp.fetch main %a : !half -> !hs
    %c1 = tcp.collect %f1 : !hs
    %p1 = tcp.commit %c1 : !hs -> !half
    // expected-error @+1 {{after its outermost factor the result's elements are a part's}}
    %w = tcp.dm_join %p0, %p1 : !half, !half -> !whole
    return
  }
}

// -----
// A part is read only as part of the result.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
module attributes {tcp.axes = {P = 2, U = 32}} {
  func.func @reused(%a: !half) {
    %f0 = tcp.fetch main %a : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %p0 = tcp.commit %c0 : !hs -> !half
    %f1 = tcp.fetch main %a : !half -> !hs
    %c1 = tcp.collect %f1 : !hs
    %p1 = tcp.commit %c1 : !hs -> !half
    // expected-error @+1 {{part 0 is read only as part of the result}}
    %w = tcp.dm_join %p0, %p1 : !half, !half -> !whole
    %f2 = tcp.fetch main %p0 : !half -> !hs
    %c2 = tcp.collect %f2 : !hs
    %p2 = tcp.commit %c2 : !hs -> !half
    return
  }
}

// -----
// A part is written by a commit or a DMA: an argument has a place of its own.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
module attributes {tcp.axes = {P = 2, U = 32}} {
  func.func @argument(%a: !half, %b: !half) {
    // expected-error @+1 {{part 0 is a tcp.commit or tcp.dma result}}
    %w = tcp.dm_join %a, %b : !half, !half -> !whole
    return
  }
}

// -----
// The parts have one type.
!half = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "U">
!other = !tcp.dm<f32, cluster = "1 # 2", slice = "[1 # 2, 1 # 128]", elem = "U">
!hs = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "U / 8", packet = "U % 8">
!whole = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[P, U]">
module attributes {tcp.axes = {P = 2, U = 32}} {
  func.func @types(%a: !half, %b: !other) {
    %f0 = tcp.fetch main %a : !half -> !hs
    %c0 = tcp.collect %f0 : !hs
    %p0 = tcp.commit %c0 : !hs -> !half
    %p1 = tcp.dma %b : !other -> !other
    // expected-error @+1 {{the parts have one type: part 1 is}}
    %w = tcp.dm_join %p0, %p1 : !half, !other -> !whole
    return
  }
}
