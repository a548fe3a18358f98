// RUN: rngd-opt %s | rngd-opt | FileCheck %s
// The rngd text form round-trips through the dialect unchanged.

// CHECK: rngd.executable @k target "rngd-1chip" hash 0xbd3650cd1aa873b9 compiler "rngdc test" flags 0 makespan 42 hbm 4096 {
rngd.executable @k target "rngd-1chip" hash 0xbd3650cd1aa873b9 compiler "rngdc test" flags 0 makespan 42 hbm 4096 {
  // CHECK-NEXT: rngd.arg @x in bf16 [8, 128] "[N, D]" offset 0 bytes 2048
  rngd.arg @x in bf16 [8, 128] "[N, D]" offset 0 bytes 2048
  // CHECK-NEXT: rngd.arg @y out f32 [] "1" offset 2048 bytes 4
  rngd.arg @y out f32 [] "1" offset 2048 bytes 4
  // CHECK-NEXT: rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 8 limits [256, 2] src_strides [8, -4] dst_strides [4194304, 0]
  rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 8 limits [256, 2] src_strides [8, -4] dst_strides [4194304, 0]
  // CHECK-NEXT: rngd.config 0 cast {mode = 1}
  rngd.config 0 cast {mode = 1}
  // CHECK-NEXT: rngd.config 1 vector words 0x603 {steps = 1, alu = [8,
  rngd.config 1 vector words 0x603 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 32, vrf_flit_stride = 0, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
  // CHECK-NEXT: rngd.load 0 sub
  rngd.load 0 sub
  // CHECK-NEXT: rngd.exec main [fetch, collect, commit]
  rngd.exec main [fetch, collect, commit]
  // CHECK-NEXT: rngd.load 0 main bank 1
  rngd.load 0 main bank 1
  // CHECK-NEXT: rngd.exec main bank 1 [fetch, collect, commit]
  rngd.exec main bank 1 [fetch, collect, commit]
  // CHECK-NEXT: rngd.load 0 main{{$}}
  rngd.load 0 main bank 0
  // CHECK-NEXT: rngd.exec sub []
  rngd.exec sub []
  // CHECK-NEXT: rngd.wait main
  rngd.wait main
  // CHECK-NEXT: rngd.dma 0 tag 63
  rngd.dma 0 tag 63
  // CHECK-NEXT: rngd.wait tag 63
  rngd.wait tag 63
}
