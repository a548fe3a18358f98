// RUN: rngd-opt %s --tcp-allocate-memory --tcp-schedule --convert-tcp-to-rngd | FileCheck %s
// The lowering writes the argument table, one descriptor per DMA (loops derived from both
// mappings), the config blocks of each pass and the command words in program order.

!buf = !tcp.hbm<bf16, "A">
!dm = !tcp.dm<bf16, cluster = "1 # 2", slice = "A / 32", elem = "A % 32">
!f32s = !tcp.stream<f32, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">
!bf16s = !tcp.stream<bf16, cluster = "1 # 2", slice = "A / 32", time = "A / 8 % 4", packet = "A % 8">

module attributes {tcp.axes = {A = 8192}} {
  func.func @constant_add(%in: !buf {tcp.arg = "in", tcp.name = "in"},
                          %out: !buf {tcp.arg = "out", tcp.name = "out"}) {
    %x = tcp.dma %in : !buf -> !dm
    %s = tcp.fetch main %x : !dm -> !f32s
    %c = tcp.collect %s : !f32s
    %v = tcp.vector %c [add_f 1.0] : !f32s
    %b = tcp.cast %v : !f32s -> !bf16s
    %y = tcp.commit %b : !bf16s -> !dm
    tcp.dma %y into %out : !dm -> !buf
    return
  }
}

// CHECK: rngd.executable @constant_add target "rngd-1chip" hash 0x{{[0-9a-f]+}} compiler "rngdc {{.*}}" flags 0 makespan 1338 hbm 32768 {
// Arguments at 256-byte aligned offsets, in order.
// CHECK-NEXT: rngd.arg @in in bf16 [8192] "A" offset 0 bytes 16384
// CHECK-NEXT: rngd.arg @out out bf16 [8192] "A" offset 16384 bytes 16384
// HBM row-major -> 64 bytes per slice: one packet per slice, slices 4 MiB apart.
// CHECK-NEXT: rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 64 limits [256] src_strides [64] dst_strides [4194304]
// The store is the kernel's last DMA: one descriptor per idle engine, 64 slices (4 MB of DM
// address space) and 4 KB of HBM apart.
// CHECK-NEXT: rngd.descriptor 1 engine 0 src 0x10000080 dst 0xc000004000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
// CHECK-NEXT: rngd.descriptor 2 engine 1 src 0x20000080 dst 0xc000005000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
// CHECK-NEXT: rngd.descriptor 3 engine 2 src 0x30000080 dst 0xc000006000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
// CHECK-NEXT: rngd.descriptor 4 engine 3 src 0x40000080 dst 0xc000007000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
// Fetch: four 16-byte accesses (8 bf16, cast to one f32 flit each); slices 0-255 enabled.
// CHECK-NEXT: rngd.config 0 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
// 1.0f = 0x3f800000 = 1065353216 on FpFma (ALU 5), op add (1).
// CHECK-NEXT: rngd.config 1 vector {steps = 1, alu = [5, 0, 0, 0, 0, 0, 0, 0], op = [1, 0, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1065353216, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
// CHECK-NEXT: rngd.config 2 cast {mode = 1}
// CHECK-NEXT: rngd.config 3 commit {base = 128, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0]
// CHECK-NEXT: rngd.dma 0 tag 0
// CHECK-NEXT: rngd.load 0 main
// CHECK-NEXT: rngd.load 1 main
// CHECK-NEXT: rngd.load 2 main
// CHECK-NEXT: rngd.load 3 main
// CHECK-NEXT: rngd.wait tag 0
// CHECK-NEXT: rngd.exec main [fetch, collect, vector, cast, commit]
// CHECK-NEXT: rngd.wait main
// CHECK-NEXT: rngd.dma 1 tag 0
// CHECK-NEXT: rngd.dma 2 tag 1
// CHECK-NEXT: rngd.dma 3 tag 2
// CHECK-NEXT: rngd.dma 4 tag 3
// CHECK-NEXT: rngd.wait tag 0
// CHECK-NEXT: rngd.wait tag 1
// CHECK-NEXT: rngd.wait tag 2
// CHECK-NEXT: rngd.wait tag 3
// CHECK-NEXT: }
