// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// tcp.contract: each slice contracts its own stream with its own TRF. The TRF tensor and the
// result occupy the same slices; the stream reaches all of them and may reach more (a ring
// broadcast covers whole rings while the weights fill only some of its slices).

// Normal: stream, TRF and result on the same 256 slices.
!d = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "B / 16", packet = "B % 16">
!wd = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "[C, B]">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "[C, B / 16]", packet = "B % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "S", lane = "C", elem = "B">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "S", time = "1", packet = "C">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "S", elem = "C">
module attributes {tcp.axes = {S = 256, B = 64, C = 8}} {
  func.func @same(%v: !d, %wv: !wd) {
    %a = tcp.fetch main %wv : !wd -> !ws
    %b = tcp.collect %a : !ws
    %w = tcp.to_trf %b : !ws -> !w
    %f = tcp.fetch main %v : !d -> !x
    %c = tcp.collect %f : !x
    %o = tcp.contract %c, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    return
  }
}

// -----
// At the limit: the stream on 256 slices, the weights and the result on the first 192.
!d = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "B / 16", packet = "B % 16">
!wd = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "[C, B]">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "R # 256", time = "[C, B / 16]", packet = "B % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "R # 256", lane = "C", elem = "B">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "R # 256", time = "1", packet = "C">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "R # 256", elem = "C">
module attributes {tcp.axes = {S = 256, R = 192, B = 64, C = 8}} {
  func.func @subset(%v: !d, %wv: !wd) {
    %a = tcp.fetch main %wv : !wd -> !ws
    %b = tcp.collect %a : !ws
    %w = tcp.to_trf %b : !ws -> !w
    %f = tcp.fetch main %v : !d -> !x
    %c = tcp.collect %f : !x
    %o = tcp.contract %c, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    return
  }
}

// -----
// One past: the weights on 256 slices, the stream on 255 of them.
!d = !tcp.dm<bf16, cluster = "1 # 2", slice = "S # 256", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "S # 256", time = "B / 16", packet = "B % 16">
!wd = !tcp.dm<bf16, cluster = "1 # 2", slice = "R", elem = "[C, B]">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "R", time = "[C, B / 16]", packet = "B % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "R", lane = "C", elem = "B">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "R", time = "1", packet = "C">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "R", elem = "C">
module attributes {tcp.axes = {S = 255, R = 256, B = 64, C = 8}} {
  func.func @stream_short(%v: !d, %wv: !wd) {
    %a = tcp.fetch main %wv : !wd -> !ws
    %b = tcp.collect %a : !ws
    %w = tcp.to_trf %b : !ws -> !w
    %f = tcp.fetch main %v : !d -> !x
    %c = tcp.collect %f : !x
    // expected-error @+1 {{the TRF tensor and the result must occupy the same slices, all of them reached by the stream}}
    %o = tcp.contract %c, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    return
  }
}

// -----
// The result must be where the weights are: 192 slices of weights, a result on 256.
!d = !tcp.dm<bf16, cluster = "1 # 2", slice = "S", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "S", time = "B / 16", packet = "B % 16">
!wd = !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "[C, B]">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "R # 256", time = "[C, B / 16]", packet = "B % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "R # 256", lane = "C", elem = "B">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "S", time = "1", packet = "C">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "S", elem = "C">
module attributes {tcp.axes = {S = 256, R = 192, B = 64, C = 8}} {
  func.func @result_elsewhere(%v: !d, %wv: !wd) {
    %a = tcp.fetch main %wv : !wd -> !ws
    %b = tcp.collect %a : !ws
    %w = tcp.to_trf %b : !ws -> !w
    %f = tcp.fetch main %v : !d -> !x
    %c = tcp.collect %f : !x
    // expected-error @+1 {{the TRF tensor and the result must occupy the same slices}}
    %o = tcp.contract %c, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    return
  }
}
