// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// The DMA alignment rule for the indirect DMAs (TcpIndirectDma.cpp): a gather's or scatter's
// packets, contiguous in both HBM and DM, are a multiple of 8 bytes. Per op: a normal case,
// the case at the limit (8 bytes: 4 bf16 of each row on each slice), one past it (4 bytes) and
// one that is over 8 but not a multiple of it (12 bytes).

// -----
// Gather, normal: each row's 1024 bf16 whole on one slice, 2048-byte packets.
!table = !tcp.hbm<bf16, "[V, H]">
!offsets = !tcp.hbm<i32, "K">
module attributes {tcp.axes = {V = 16, H = 1024, K = 2}} {
  func.func @gather_normal(%table: !table {tcp.arg = "in", tcp.name = "table"},
                           %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"}) {
    %g = tcp.dma_gather %table at %offsets : !table, !offsets -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[K, H]">
    return
  }
}

// -----
// Gather at the limit: H / 4 = 256 slices, 4 bf16 = 8 bytes of each row per slice.
!table = !tcp.hbm<bf16, "[V, H]">
!offsets = !tcp.hbm<i32, "K">
module attributes {tcp.axes = {V = 16, H = 1024, K = 2}} {
  func.func @gather_at_limit(%table: !table {tcp.arg = "in", tcp.name = "table"},
                             %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"}) {
    %g = tcp.dma_gather %table at %offsets : !table, !offsets -> !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4", elem = "[K, H % 4]">
    return
  }
}

// -----
// Gather one past: 2 bf16 = 4 bytes per slice.
!table = !tcp.hbm<bf16, "[V, H]">
!offsets = !tcp.hbm<i32, "K">
module attributes {tcp.axes = {V = 16, H = 512, K = 2}} {
  func.func @gather_one_past(%table: !table {tcp.arg = "in", tcp.name = "table"},
                             %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"}) {
    // expected-error @+1 {{DMA alignment: packets of 4 bytes; transfers between HBM and DM move packets that are a multiple of 8 bytes}}
    %g = tcp.dma_gather %table at %offsets : !table, !offsets -> !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 2", elem = "[K, H % 2]">
    return
  }
}

// -----
// Gather over 8 bytes but not a multiple: 6 bf16 = 12 bytes per slice.
!table = !tcp.hbm<bf16, "[V, H]">
!offsets = !tcp.hbm<i32, "K">
module attributes {tcp.axes = {V = 16, H = 1536, K = 2}} {
  func.func @gather_not_multiple(%table: !table {tcp.arg = "in", tcp.name = "table"},
                                 %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"}) {
    // expected-error @+1 {{DMA alignment: packets of 12 bytes; transfers between HBM and DM move packets that are a multiple of 8 bytes}}
    %g = tcp.dma_gather %table at %offsets : !table, !offsets -> !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 6", elem = "[K, H % 6]">
    return
  }
}

// -----
// Scatter, normal: two 1024-bf16 rows from one slice, 2048-byte packets.
!table = !tcp.hbm<bf16, "[V, H]">
!rows = !tcp.hbm<bf16, "[K, H]">
!offsets = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[K, H]">
module attributes {tcp.axes = {V = 16, H = 1024, K = 2}} {
  func.func @scatter_normal(%rows: !rows {tcp.arg = "in", tcp.name = "rows"},
                            %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"},
                            %table: !table {tcp.arg = "inout", tcp.name = "table"}) {
    %r = tcp.dma %rows : !rows -> !dm
    tcp.dma_scatter %r into %table at %offsets : !dm, !offsets -> !table
    return
  }
}

// -----
// Scatter at the limit: 4 bf16 = 8 bytes of each row per slice (the load moves 8-byte packets
// too).
!table = !tcp.hbm<bf16, "[V, H]">
!rows = !tcp.hbm<bf16, "[K, H]">
!offsets = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 4", elem = "[K, H % 4]">
module attributes {tcp.axes = {V = 16, H = 1024, K = 2}} {
  func.func @scatter_at_limit(%rows: !rows {tcp.arg = "in", tcp.name = "rows"},
                              %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"},
                              %table: !table {tcp.arg = "inout", tcp.name = "table"}) {
    %r = tcp.dma %rows : !rows -> !dm
    tcp.dma_scatter %r into %table at %offsets : !dm, !offsets -> !table
    return
  }
}

// -----
// Scatter one past: 2 bf16 = 4 bytes of each row per slice. The rows are loaded from an HBM
// layout that keeps a slice's 2 x 2 values together, so the load's packets are 8 bytes and
// only the scatter breaks the rule.
!table = !tcp.hbm<bf16, "[V, H]">
!rows = !tcp.hbm<bf16, "[H / 2, K, H % 2]">
!offsets = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 2", elem = "[K, H % 2]">
module attributes {tcp.axes = {V = 16, H = 512, K = 2}} {
  func.func @scatter_one_past(%rows: !rows {tcp.arg = "in", tcp.name = "rows"},
                              %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"},
                              %table: !table {tcp.arg = "inout", tcp.name = "table"}) {
    %r = tcp.dma %rows : !rows -> !dm
    // expected-error @+1 {{DMA alignment: packets of 4 bytes; transfers between HBM and DM move packets that are a multiple of 8 bytes}}
    tcp.dma_scatter %r into %table at %offsets : !dm, !offsets -> !table
    return
  }
}

// -----
// Scatter over 8 bytes but not a multiple: 6 bf16 = 12 bytes of each row per slice (loaded as
// 24-byte packets).
!table = !tcp.hbm<bf16, "[V, H]">
!rows = !tcp.hbm<bf16, "[H / 6, K, H % 6]">
!offsets = !tcp.hbm<i32, "K">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "H / 6", elem = "[K, H % 6]">
module attributes {tcp.axes = {V = 16, H = 1536, K = 2}} {
  func.func @scatter_not_multiple(%rows: !rows {tcp.arg = "in", tcp.name = "rows"},
                                  %offsets: !offsets {tcp.arg = "in", tcp.name = "offsets"},
                                  %table: !table {tcp.arg = "inout", tcp.name = "table"}) {
    %r = tcp.dma %rows : !rows -> !dm
    // expected-error @+1 {{DMA alignment: packets of 12 bytes; transfers between HBM and DM move packets that are a multiple of 8 bytes}}
    tcp.dma_scatter %r into %table at %offsets : !dm, !offsets -> !table
    return
  }
}
