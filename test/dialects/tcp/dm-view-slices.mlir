// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// tcp.dm_view ... slices S: a view on some of the source's slices (view slice s is source
// slice s + S), copied by a DMA.

// Normal: heads 16..23 of 32 (8 slices each) copied out; the last of them is the source's
// last slice (the limit).
!all = !tcp.dm<bf16, cluster = "1 # 2", slice = "[G, 1 # 8]", elem = "D">
!k = !tcp.dm<bf16, cluster = "1 # 2", slice = "[1 # 4, N, 1 # 8]", elem = "D">
!kh = !tcp.hbm<bf16, "[N, D]">
module attributes {tcp.axes = {G = 32, N = 8, D = 128}} {
  func.func @heads(%a: !all, %out: !kh {tcp.arg = "out", tcp.name = "out"}) {
    %k = tcp.dm_view %a offset 0 slices 128 : !all -> !k
    tcp.dma %k into %out : !k -> !kh
    %last = tcp.dm_view %a offset 0 slices 192 : !all -> !k
    tcp.dma %last into %out : !k -> !kh
    %first = tcp.dm_view %a offset 0 slices 0 : !all -> !k
    tcp.dma %first into %out : !k -> !kh
    return
  }
}

// -----
// One past: heads 25..32, the last of which the source does not have.
!all = !tcp.dm<bf16, cluster = "1 # 2", slice = "[G, 1 # 8]", elem = "D">
!k = !tcp.dm<bf16, cluster = "1 # 2", slice = "[1 # 4, N, 1 # 8]", elem = "D">
!kh = !tcp.hbm<bf16, "[N, D]">
module attributes {tcp.axes = {G = 32, N = 8, D = 128}} {
  func.func @past(%a: !all, %out: !kh {tcp.arg = "out", tcp.name = "out"}) {
    // expected-error @+1 {{view slice 56 + 200 = 256 is not a slice the source occupies}}
    %k = tcp.dm_view %a offset 0 slices 200 : !all -> !k
    tcp.dma %k into %out : !k -> !kh
    return
  }
}

// -----
// A shifted view stays in each slice's cluster.
!all = !tcp.dm<bf16, cluster = "G / 32", slice = "[G % 32, 1 # 8]", elem = "D">
!k = !tcp.dm<bf16, cluster = "N / 4", slice = "[1 # 8, N % 4, 1 # 8]", elem = "D">
!kh = !tcp.hbm<bf16, "[N, D]">
module attributes {tcp.axes = {G = 64, N = 8, D = 128}} {
  func.func @cluster(%a: !all, %out: !kh {tcp.arg = "out", tcp.name = "out"}) {
    // expected-error @+1 {{view slice 0 + 256 leaves its cluster (256 slices each)}}
    %k = tcp.dm_view %a offset 0 slices 256 : !all -> !k
    tcp.dma %k into %out : !k -> !kh
    return
  }
}

// -----
// A pass reads its own slices: a shifted view is copied, not fetched.
!all = !tcp.dm<bf16, cluster = "1 # 2", slice = "[G, 1 # 8]", elem = "D">
!k = !tcp.dm<bf16, cluster = "1 # 2", slice = "[1 # 4, N, 1 # 8]", elem = "D">
!s = !tcp.stream<bf16, cluster = "1 # 2", slice = "[1 # 4, N, 1 # 8]", time = "D / 16", packet = "D % 16">
module attributes {tcp.axes = {G = 32, N = 8, D = 128}} {
  func.func @fetch(%a: !all) {
    %k = tcp.dm_view %a offset 0 slices 128 : !all -> !k
    // expected-error @+1 {{fetches a view on other slices than its source's}}
    %f = tcp.fetch main %k : !k -> !s
    return
  }
}

// -----
// The shift is a slice id of the chip: 0..511.
!all = !tcp.dm<bf16, cluster = "1 # 2", slice = "[G, 1 # 8]", elem = "D">
!kh = !tcp.hbm<bf16, "[G, D]">
module attributes {tcp.axes = {G = 32, D = 128}} {
  func.func @zero(%a: !all, %out: !kh {tcp.arg = "out", tcp.name = "out"}) {
    // expected-error @+1 {{slices 512 is outside 0..511}}
    %k = tcp.dm_view %a offset 0 slices 512 : !all -> !all
    tcp.dma %k into %out : !all -> !kh
    return
  }
}
