// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// Every tcp verifier rule: a normal case, the case at the limit, and one past it.

// -----
// DM capacity: 512 KB per slice. Normal: 1 KB.
module attributes {tcp.axes = {A = 512}} {
  func.func @dm_normal(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
    return
  }
}

// -----
// At the limit: 262,144 bf16 = 524,288 bytes on one slice.
module attributes {tcp.axes = {A = 262144}} {
  func.func @dm_at_limit(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
    return
  }
}

// -----
// One past: four more bf16 (8 bytes, the smallest aligned step).
module attributes {tcp.axes = {A = 262148}} {
  func.func @dm_one_past(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{DM capacity: tensor '!tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">' needs 524296 bytes per slice; a slice has 524288}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "A">
    return
  }
}

// -----
// Cluster level: exactly 2 cells.
module attributes {tcp.axes = {A = 512}} {
  func.func @cluster_short(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{cluster mapping "1" has 1 cells; target rngd-1chip has 2 clusters}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1", slice = "1 # 256", elem = "A">
    return
  }
}

// -----
module attributes {tcp.axes = {A = 512}} {
  func.func @cluster_long(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{cluster mapping "1 # 3" has 3 cells; target rngd-1chip has 2 clusters}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 3", slice = "1 # 256", elem = "A">
    return
  }
}

// -----
// Slice level: exactly 256 cells. At the limit: A / 4 = 256 slices.
module attributes {tcp.axes = {A = 1024}} {
  func.func @slices_at_limit(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 4", elem = "A % 4">
    return
  }
}

// -----
// One past: 257 slices.
module attributes {tcp.axes = {A = 1028}} {
  func.func @slices_one_past(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{slice mapping "A / 4" has 257 cells; a cluster of target rngd-1chip has 256 slices (pad with `# 256`)}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 4", elem = "A % 4">
    return
  }
}

// -----
// DMA alignment between HBM and DM: packets are multiples of 8 bytes.
// At the limit: 4 bf16 = 8 bytes per slice.
module attributes {tcp.axes = {A = 1024}} {
  func.func @dma_align_at_limit(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 4", elem = "A % 4">
    return
  }
}

// -----
// One past (below): 2 bf16 = 4 bytes per slice.
module attributes {tcp.axes = {A = 512}} {
  func.func @dma_align_one_past(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{DMA alignment: packets of 4 bytes; transfers between HBM and DM move packets that are a multiple of 8 bytes}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 2", elem = "A % 2">
    return
  }
}

// -----
// Argument kinds: a kernel writes only out/inout arguments and never reads out ones.
module attributes {tcp.axes = {A = 1024}} {
  func.func @write_in(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"},
                      %other: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "other"}) {
    // expected-error @+1 {{writes argument #1 of kind "in"; declare it "out" or "inout"}}
    tcp.dma %in into %other : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    return
  }
}

// -----
module attributes {tcp.axes = {A = 1024}} {
  func.func @read_out(%out: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "out"},
                      %io: !tcp.hbm<bf16, "A"> {tcp.arg = "inout", tcp.name = "io"}) {
    // expected-error @+1 {{reads argument #0 of kind "out", whose contents are undefined before the kernel writes them}}
    tcp.dma %out into %io : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    return
  }
}

// -----
// An out argument the kernel has written is read back (a fused stage's hand-off): at the limit
// the earlier writes cover exactly the bytes read, here in two halves.
module attributes {tcp.axes = {A = 1024, B = 512}} {
  func.func @read_back(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"},
                       %out: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "out"},
                       %io: !tcp.hbm<bf16, "A"> {tcp.arg = "inout", tcp.name = "io"}) {
    %i0 = tcp.view %in offset 0 : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "B">
    %o0 = tcp.view %out offset 0 : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "B">
    %o1 = tcp.view %out offset 512 : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "B">
    tcp.dma %i0 into %o0 : !tcp.hbm<bf16, "B"> -> !tcp.hbm<bf16, "B">
    tcp.dma %i0 into %o1 : !tcp.hbm<bf16, "B"> -> !tcp.hbm<bf16, "B">
    tcp.dma %out into %io : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    return
  }
}

// -----
// One past: the first half written, the whole read.
module attributes {tcp.axes = {A = 1024, B = 512}} {
  func.func @read_unwritten(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"},
                            %out: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "out"},
                            %io: !tcp.hbm<bf16, "A"> {tcp.arg = "inout", tcp.name = "io"}) {
    %i0 = tcp.view %in offset 0 : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "B">
    %o0 = tcp.view %out offset 0 : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "B">
    tcp.dma %i0 into %o0 : !tcp.hbm<bf16, "B"> -> !tcp.hbm<bf16, "B">
    // expected-error @+1 {{reads argument #1 of kind "out", whose contents are undefined before the kernel writes them}}
    tcp.dma %out into %io : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    return
  }
}

// -----
// The write after the read does not count.
module attributes {tcp.axes = {A = 1024}} {
  func.func @read_then_write(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"},
                             %out: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "out"},
                             %io: !tcp.hbm<bf16, "A"> {tcp.arg = "inout", tcp.name = "io"}) {
    // expected-error @+1 {{reads argument #1 of kind "out", whose contents are undefined before the kernel writes them}}
    tcp.dma %out into %io : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    tcp.dma %in into %out : !tcp.hbm<bf16, "A"> -> !tcp.hbm<bf16, "A">
    return
  }
}

// -----
// Argument names are identifiers (the executable's argument table names them): "q_out" and
// "x1" are, "1x" and "q-out" are not.
module attributes {tcp.axes = {A = 1024}} {
  func.func @names(%a: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "x1"},
                   %b: !tcp.hbm<bf16, "A"> {tcp.arg = "out", tcp.name = "q_out"}) {
    return
  }
}

// -----
module attributes {tcp.axes = {A = 1024}} {
  // expected-error @+1 {{argument #0: tcp.name must be an identifier (a letter or _, then letters, digits or _), got "1x"}}
  func.func @digit_first(%a: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "1x"}) {
    return
  }
}

// -----
module attributes {tcp.axes = {A = 1024}} {
  // expected-error @+1 {{argument #0: tcp.name must be an identifier (a letter or _, then letters, digits or _), got "q-out"}}
  func.func @dash(%a: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "q-out"}) {
    return
  }
}

// -----
module attributes {tcp.axes = {A = 1024}} {
  // expected-error @+1 {{argument #0: tcp.arg must be "in", "out" or "inout", got "output"}}
  func.func @bad_kind(%out: !tcp.hbm<bf16, "A"> {tcp.arg = "output", tcp.name = "out"}) {
    return
  }
}

// -----
module attributes {tcp.axes = {A = 1024}} {
  // expected-error @+1 {{argument #0: kernel arguments are HBM tensors}}
  func.func @not_hbm(%x: i32 {tcp.arg = "in", tcp.name = "x"}) {
    return
  }
}

// -----
// A mapping that names an undeclared axis.
module attributes {tcp.axes = {A = 1024}} {
  func.func @unknown_axis(%in: !tcp.hbm<bf16, "A"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{invalid slice mapping "B / 4"}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "A"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "B / 4", elem = "A % 4">
    return
  }
}

// -----
// A mapping with a syntax error is rejected by the type parser with its location.
module attributes {tcp.axes = {A = 1024}} {
  // expected-error @+1 {{invalid elem mapping "A %"}}
  func.func @syntax(%in: !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 4", elem = "A %">) {
    return
  }
}

// -----
// DMA descriptors hold at most 8 loops. At the limit: eight axes reversed between HBM and DM.
module attributes {tcp.axes = {P = 2, Q = 2, R = 2, S = 2, T = 2, U = 2, V = 2, W = 2, Z = 4}} {
  func.func @dma_eight_loops(%in: !tcp.hbm<bf16, "[P, Q, R, S, T, U, V, W, Z]"> {tcp.arg = "in", tcp.name = "in"}) {
    %x = tcp.dma %in : !tcp.hbm<bf16, "[P, Q, R, S, T, U, V, W, Z]"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[W, V, U, T, S, R, Q, P, Z]">
    return
  }
}

// -----
// One past: nine reversed axes.
module attributes {tcp.axes = {O = 2, P = 2, Q = 2, R = 2, S = 2, T = 2, U = 2, V = 2, W = 2, Z = 4}} {
  func.func @dma_nine_loops(%in: !tcp.hbm<bf16, "[O, P, Q, R, S, T, U, V, W, Z]"> {tcp.arg = "in", tcp.name = "in"}) {
    // expected-error @+1 {{DMA loops: `[O, P, Q, R, S, T, U, V, W, Z]` -> `1 # 2` | `1 # 256` | `[W, V, U, T, S, R, Q, P, O, Z]`: needs 9 DMA loops, limit 8}}
    %x = tcp.dma %in : !tcp.hbm<bf16, "[O, P, Q, R, S, T, U, V, W, Z]"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[W, V, U, T, S, R, Q, P, O, Z]">
    return
  }
}

// -----
// A descriptor loop runs at most 65,536 iterations. A transposing HBM -> HBM copy moves one
// 2-byte element per packet, so its loops are the axes: normal, at the limit, one past.
module attributes {tcp.axes = {A = 1024, B = 2}} {
  func.func @dma_loop_normal(%x: !tcp.hbm<bf16, "[A, B]"> {tcp.arg = "in", tcp.name = "x"},
                             %y: !tcp.hbm<bf16, "[B, A]"> {tcp.arg = "out", tcp.name = "y"}) {
    tcp.dma %x into %y : !tcp.hbm<bf16, "[A, B]"> -> !tcp.hbm<bf16, "[B, A]">
    return
  }
}

// -----
module attributes {tcp.axes = {A = 65536, B = 2}} {
  func.func @dma_loop_limit(%x: !tcp.hbm<bf16, "[A, B]"> {tcp.arg = "in", tcp.name = "x"},
                            %y: !tcp.hbm<bf16, "[B, A]"> {tcp.arg = "out", tcp.name = "y"}) {
    tcp.dma %x into %y : !tcp.hbm<bf16, "[A, B]"> -> !tcp.hbm<bf16, "[B, A]">
    return
  }
}

// -----
module attributes {tcp.axes = {A = 65537, B = 2}} {
  func.func @dma_loop_past(%x: !tcp.hbm<bf16, "[A, B]"> {tcp.arg = "in", tcp.name = "x"},
                           %y: !tcp.hbm<bf16, "[B, A]"> {tcp.arg = "out", tcp.name = "y"}) {
    // expected-error @+1 {{DMA loops: loop 1 runs 65537 iterations, more than a descriptor's 65536: [2:(2, 131074), 65537:(4, 2)] : 2}}
    tcp.dma %x into %y : !tcp.hbm<bf16, "[A, B]"> -> !tcp.hbm<bf16, "[B, A]">
    return
  }
}

// -----
// Views: the tile must lie inside the source. At the limit: the last 256 cells.
module attributes {tcp.axes = {B = 4, C = 256}} {
  func.func @view_last(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    %v = tcp.view %x offset 768 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "C">
    return
  }
}

// -----
// One past.
module attributes {tcp.axes = {B = 4, C = 256}} {
  func.func @view_past(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    // expected-error @+1 {{cells [769, 1025) are outside the source's 1024 cells}}
    %v = tcp.view %x offset 769 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "C">
    return
  }
}

// -----
// A strided view: the last row's padding may lie past the source (only held cells count). The
// second half of each row of [B, C]: at the limit, and one cell past.
module attributes {tcp.axes = {B = 4, C = 256, H = 128}} {
  func.func @view_strided(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    %v = tcp.view %x offset 128 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "[B, H # 256]">
    return
  }
}

// -----
module attributes {tcp.axes = {B = 4, C = 256, H = 128}} {
  func.func @view_strided_past(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    // expected-error @+1 {{cells [129, 1025) are outside the source's 1024 cells}}
    %v = tcp.view %x offset 129 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "[B, H # 256]">
    return
  }
}

// -----
// DM views: a window of a DM tensor on the same slices, read by a fetch or a DMA. The last
// half of [B, C], and one cell past.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">
!half = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[BH, C]">
!hs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[BH, C / 16]", packet = "C % 16">
module attributes {tcp.axes = {B = 4, BH = 2, C = 256}} {
  func.func @dm_view(%x: !dm, %o: !tcp.hbm<bf16, "[BH, C]"> {tcp.arg = "out", tcp.name = "o"}) {
    %h = tcp.dm_view %x offset 512 : !dm -> !half
    %f = tcp.fetch main %h : !half -> !hs
    %c = tcp.collect %f : !hs
    %y = tcp.commit %c : !hs -> !half
    tcp.dma %h into %o : !half -> !tcp.hbm<bf16, "[BH, C]">
    return
  }
}

// -----
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">
!half = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[BH, C]">
module attributes {tcp.axes = {B = 4, BH = 2, C = 256}} {
  func.func @dm_view_past(%x: !dm) {
    // expected-error @+1 {{cells [513, 1025) are outside the source's 1024 cells}}
    %h = tcp.dm_view %x offset 513 : !dm -> !half
    return
  }
}

// -----
// A DM view stays on its tensor's slices and element type.
module attributes {tcp.axes = {B = 4, BH = 2, C = 256, R = 2}} {
  func.func @dm_view_slices(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">) {
    // expected-error @+1 {{a view keeps the tensor on the same slices}}
    %h = tcp.dm_view %x offset 0 : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "[R, 1 # 128]", elem = "[BH, C]">
    return
  }
}

// -----
module attributes {tcp.axes = {B = 4, BH = 2, C = 256}} {
  func.func @dm_view_type(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">) {
    // expected-error @+1 {{a view keeps the element type}}
    %h = tcp.dm_view %x offset 0 : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]"> -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "C">
    return
  }
}

// -----
// A DM view is read, never written: not the destination of a DMA.
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">
!half = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[BH, C]">
module attributes {tcp.axes = {B = 4, BH = 2, C = 256}} {
  func.func @dm_view_written(%x: !dm, %y: !tcp.hbm<bf16, "[BH, C]"> {tcp.arg = "in", tcp.name = "y"}) {
    %h = tcp.dm_view %x offset 512 : !dm -> !half
    // expected-error @+1 {{takes a DM view other than as the tensor it reads (a view is fetched, copied or scattered, never written)}}
    %r = tcp.reinterpret %h : !half -> !half
    return
  }
}

// -----
// A view of an "in" argument cannot be written.
module attributes {tcp.axes = {B = 4, C = 256}} {
  func.func @view_write_in(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"},
                           %y: !tcp.hbm<bf16, "C"> {tcp.arg = "in", tcp.name = "y"}) {
    %v = tcp.view %x offset 768 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "C">
    // expected-error @+1 {{writes argument #0 of kind "in"; declare it "out" or "inout"}}
    tcp.dma %y into %v : !tcp.hbm<bf16, "C"> -> !tcp.hbm<bf16, "C">
    return
  }
}

// -----
// A reinterpretation keeps the bytes per slice.
module attributes {tcp.axes = {B = 4, C = 64, K = 128}} {
  func.func @reinterpret_size(%x: !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]">) {
    // expected-error @+1 {{a reinterpretation keeps the bytes per slice: 512 vs 256}}
    %k = tcp.reinterpret %x : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[B, C]"> -> !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "K">
    return
  }
}

// -----
// Sizes a user controls are bounded before any work: an axis over 2^32 cells...
module attributes {tcp.axes = {B = 4, C = 4294967297}} {
  func.func @huge_axis(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    // expected-error @+1 {{axis `C` in tcp.axes has size 4294967297, over the limit of 2^32 (4294967296)}}
    %v = tcp.view %x offset 0 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "C">
    return
  }
}

// -----
// ...and a mapping over 2^32 cells (this view used to keep the verifier busy for minutes).
module attributes {tcp.axes = {B = 4, C = 256}} {
  func.func @huge_view(%x: !tcp.hbm<bf16, "[B, C]"> {tcp.arg = "in", tcp.name = "x"}) {
    // expected-error @+1 {{invalid HBM element mapping "[B, C # 4294967297]": more than 2^32 cells (4294967296)}}
    %v = tcp.view %x offset 768 : !tcp.hbm<bf16, "[B, C]"> -> !tcp.hbm<bf16, "[B, C # 4294967297]">
    return
  }
}
