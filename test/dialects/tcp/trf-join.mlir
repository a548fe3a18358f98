// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// tcp.trf_join: two TRF tensors loaded by two passes read as one, their lanes interleaved.

// Normal: two 2-lane halves, one 4-lane tensor that a contraction reads.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
!v = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "B">
!x = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "B / 16", packet = "B % 16">
!acc = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "1", packet = "C # 8">
!r = !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "C # 8">
module attributes {tcp.axes = {A = 2, B = 64, C = 4}} {
  func.func @join(%a: !dm, %b: !dm, %v: !v) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    %tb = tcp.to_trf %cb : !s -> !h
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    %f = tcp.fetch main %v : !v -> !x
    %fc = tcp.collect %f : !x
    %o = tcp.contract %fc, %w pack 1 : !x, !w -> !acc
    %d = tcp.commit %o : !acc -> !r
    return
  }
}

// -----
// The result has both halves' lanes: 2 + 2 is not 8.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
module attributes {tcp.axes = {A = 2, B = 64, C = 8}} {
  func.func @lanes(%a: !dm, %b: !dm) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    %tb = tcp.to_trf %cb : !s -> !h
    // expected-error @+1 {{the result has the lanes of both halves: 2 + 2 lanes, the result 8}}
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    return
  }
}

// -----
// Every lane holds as many bytes: the result's lanes are longer.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "[A, B]">
module attributes {tcp.axes = {A = 2, B = 64, C = 4}} {
  func.func @lane_bytes(%a: !dm, %b: !dm) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    %tb = tcp.to_trf %cb : !s -> !h
    // expected-error @+1 {{every lane holds as many bytes: 128, 128 and the result's 256}}
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    return
  }
}

// -----
// A half read elsewhere too.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
module attributes {tcp.axes = {A = 2, B = 64, C = 4}} {
  func.func @twice(%a: !dm) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca : !s -> !h
    // expected-error @+1 {{a joined tensor is read only as part of the result}}
    %w = tcp.trf_join %ta, %ta : !h, !h -> !w
    return
  }
}

// -----
// A half with a region of its own.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "C", elem = "B">
module attributes {tcp.axes = {A = 2, B = 64, C = 4}} {
  func.func @region(%a: !dm, %b: !dm) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca {region = "first"} : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    %tb = tcp.to_trf %cb : !s -> !h
    // expected-error @+1 {{a joined tensor takes the result's place: no region of its own}}
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    return
  }
}

// -----
// The halves on other slices than the result.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[A, B]">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[A, B / 16]", packet = "B % 16">
!h = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "A", elem = "B">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "Z # 256", lane = "C", elem = "B">
module attributes {tcp.axes = {A = 2, B = 64, C = 4, Z = 2}} {
  func.func @slices(%a: !dm, %b: !dm) {
    %sa = tcp.fetch main %a : !dm -> !s
    %ca = tcp.collect %sa : !s
    %ta = tcp.to_trf %ca : !s -> !h
    %sb = tcp.fetch main %b : !dm -> !s
    %cb = tcp.collect %sb : !s
    %tb = tcp.to_trf %cb : !s -> !h
    // expected-error @+1 {{the two halves and the result occupy the same slices}}
    %w = tcp.trf_join %ta, %tb : !h, !h -> !w
    return
  }
}
