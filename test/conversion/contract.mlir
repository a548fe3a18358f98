// RUN: rngd-opt %s --split-input-file --tcp-allocate-memory --tcp-schedule --convert-tcp-to-rngd | FileCheck %s
// The contraction's loops come from the stream, TRF and result mappings: J / 32 is contracted
// (stream stride 1 packet, TRF stride 64 bytes), I / 8 is broadcast from the TRF into the
// time reducer's 4 slots (TRF stride 128 bytes: one row of J = 64 bf16).

!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "I / 8", packet = "I % 8">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[I % 8, I / 8, J / 4]", packet = "J % 4">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[I, J]">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @interleaved(%x: !tcp.hbm<bf16, "J"> {tcp.arg = "in", tcp.name = "x"},
                         %w: !tcp.hbm<bf16, "[I, J]"> {tcp.arg = "in", tcp.name = "w"}) {
    %wd = tcp.dma %w : !tcp.hbm<bf16, "[I, J]"> -> !wdm
    %wf = tcp.fetch sub %wd : !wdm -> !ws
    %wc = tcp.collect %wf : !ws
    %wt = tcp.to_trf %wc : !ws -> !w
    %xd = tcp.dma %x : !tcp.hbm<bf16, "J"> -> !xdm
    %s = tcp.fetch main %xd : !xdm -> !xs
    %c = tcp.collect %s : !xs
    %y = tcp.contract %c, %wt pack 2 : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "I">
    return
  }
}
// CHECK-LABEL: rngd.executable @interleaved
// CHECK: rngd.config {{[0-9]+}} trf_write {base = 0, lanes_log2 = 3, lane_bytes = 512}
// CHECK: rngd.config {{[0-9]+}} contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 0, slots = 4, limits = [2, 4, 1, 1, 1, 1, 1, 1], stream_strides = [1, 0, 0, 0, 0, 0, 0, 0], trf_strides = [64, 128, 0, 0, 0, 0, 0, 0], acc_strides = [0, 1, 0, 0, 0, 0, 0, 0], lane_mode = 0}
// CHECK: rngd.exec main [fetch, collect, contract, commit]

// -----
// Sequential lane folding: one flit per lane, the lanes innermost in the result's time.
!xs = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "J / 16", packet = "J % 16">
!w = !tcp.trf<bf16, cluster = "1 # 2", slice = "1 # 256", lane = "I % 8", elem = "[I / 8, J]">
!o = !tcp.stream<f32, cluster = "1 # 2", slice = "1 # 256", time = "[I / 8, I % 8]", packet = "1 # 8">
!ws = !tcp.stream<bf16, cluster = "1 # 2", slice = "1 # 256", time = "[I % 8, I / 8, J / 4]", packet = "J % 4">
!wdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[I, J]">
!xdm = !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "J">
module attributes {tcp.axes = {I = 32, J = 64}} {
  func.func @sequential(%x: !tcp.hbm<bf16, "J"> {tcp.arg = "in", tcp.name = "x"},
                        %w: !tcp.hbm<bf16, "[I, J]"> {tcp.arg = "in", tcp.name = "w"}) {
    %wd = tcp.dma %w : !tcp.hbm<bf16, "[I, J]"> -> !wdm
    %wf = tcp.fetch sub %wd : !wdm -> !ws
    %wc = tcp.collect %wf : !ws
    %wt = tcp.to_trf %wc : !ws -> !w
    %xd = tcp.dma %x : !tcp.hbm<bf16, "J"> -> !xdm
    %s = tcp.fetch main %xd : !xdm -> !xs
    %c = tcp.collect %s : !xs
    %y = tcp.contract %c, %wt pack 2 {sequential} : !xs, !w -> !o
    %z = tcp.commit %y : !o -> !tcp.dm<f32, cluster = "1 # 2", slice = "1 # 256", elem = "[I, 1 # 8]">
    return
  }
}
// CHECK-LABEL: rngd.executable @sequential
// CHECK: rngd.config {{[0-9]+}} contract {{.*}}slots = 4, {{.*}}lane_mode = 1}
// CHECK: rngd.config {{[0-9]+}} commit {base = {{[0-9]+}}, write_bytes = 32, limits = [32,
