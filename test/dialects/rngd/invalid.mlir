// RUN: rngd-opt %s --split-input-file --verify-diagnostics
// rngd records and command words are checked against the encodings of docs/isa.md.

rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{unknown config unit `dot`}}
  rngd.config 0 dot {mode = 1}
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{unit `cast` expects field `mode` here, got `kind`}}
  rngd.config 0 cast {kind = 1}
}

// -----
// A field value wider than its register.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{mode}}
  rngd.config 0 cast {mode = 16}
}

// -----
// Descriptors hold at most 8 loops: 8 is fine...
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [2, 2, 2, 2, 2, 2, 2, 2] src_strides [0, 0, 0, 0, 0, 0, 0, 0] dst_strides [0, 0, 0, 0, 0, 0, 0, 0]
}

// -----
// ...9 is not.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{has 9 loops; a descriptor holds at most 8}}
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [2, 2, 2, 2, 2, 2, 2, 2, 2] src_strides [0, 0, 0, 0, 0, 0, 0, 0, 0] dst_strides [0, 0, 0, 0, 0, 0, 0, 0, 0]
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{has 2 loops (limits) but 1 src_strides}}
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [2, 2] src_strides [0] dst_strides [0, 0]
}

// -----
// The text form's numbers are wider than the record's fields (rngd/IsaDescriptor.def): the
// last value a 32-bit field holds is fine...
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{DMA engine 4294967295 is outside 0..7 (target rngd-1chip has 8)}}
  rngd.descriptor 0 engine 4294967295 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
}

// -----
// ...the next one does not fit.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{engine = 4294967296 does not fit 32 unsigned bits}}
  rngd.descriptor 0 engine 4294967296 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{src_strides[1] = 2147483648 does not fit 32 signed bits}}
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [2, 2] src_strides [-2147483648, 2147483648] dst_strides [0, 0]
}

// -----
// A descriptor's trip counts are the target's (dmaMaxLoopIterations): 65536 on rngd-1chip...
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0xc000000000 dst 0xc000010000 packet 8 limits [65536] src_strides [0] dst_strides [0]
}

// -----
// ...and not one more.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{descriptor limits[0] = 65537 is outside 1..65536}}
  rngd.descriptor 0 engine 0 src 0xc000000000 dst 0xc000010000 packet 8 limits [65537] src_strides [0] dst_strides [0]
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{loads config 0, which does not exist}}
  rngd.load 0 main
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
  // expected-error @+1 {{DMA tag 64 is outside 0..63}}
  rngd.dma 0 tag 64
}

// -----
// Negative numbers are reported as written, not as their unsigned bit pattern.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
  // expected-error @+1 {{DMA tag -1 is outside 0..63}}
  rngd.dma 0 tag -1
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
  // expected-error @+1 {{starts descriptor -1, which does not exist}}
  rngd.dma -1 tag 0
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.config 0 cast {mode = 1}
  // expected-error @+1 {{loads config -2, which does not exist}}
  rngd.load -2 main
}

// -----
// Tag 63 is the last one.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.descriptor 0 engine 0 src 0x0 dst 0x0 packet 8 limits [] src_strides [] dst_strides []
  rngd.dma 0 tag 63
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.wait main
  // expected-error @+1 {{out of order: an executable lists args, then descriptors, then configs, then command words}}
  rngd.config 0 cast {mode = 1}
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{unknown unit `dpe`}}
  rngd.exec main [fetch, dpe]
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{context must be `main` or `sub`, got `tdma`}}
  rngd.wait tdma
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.config 0 cast {mode = 1}
  // expected-error @+1 {{register bank 1 of the sub context, which has 1}}
  rngd.load 0 sub bank 1
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{register bank 2 of the main context, which has 2}}
  rngd.exec main bank 2 [fetch]
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{load mask 0x800 names words past the block's 11}}
  rngd.config 0 vector words 0x800 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 32, vrf_flit_stride = 0, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{load mask 0x7ff is the whole block (a whole load has mask 0)}}
  rngd.config 0 vector words 0x7ff {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 32, vrf_flit_stride = 0, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
}

// -----
// Every command word is checked against its fields' limits (rngd::isa::checkCommand), so a
// command that verifies encodes to itself. A wait on the last tag is fine...
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.wait tag 63
}

// -----
// ...one past it is not (it used to assemble and come back as `rngd.wait tag 35`).
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{'rngd.wait' op DMA tag 64 is outside 0..63}}
  rngd.wait tag 64
}

// -----
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{'rngd.wait' op DMA tag 99 is outside 0..63}}
  rngd.wait tag 99
}

// -----
// A config index past the 20-bit field.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  rngd.config 0 cast {mode = 1}
  // expected-error @+1 {{loads config 1048576, which does not exist}}
  rngd.load 1048576 main
}

// -----
// A block whose fields fit their bits but break a unit's rule is refused where it is written.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{cast.mode = 3 is not a known cast (0 none, 1 f32->bf16, 2 i32->i8)}}
  rngd.config 0 cast {mode = 3}
}

// -----
// A context is an enum: the generic form cannot smuggle in another.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{attribute 'context' failed to satisfy constraint}}
  "rngd.wait"() {context = 7 : i32} : () -> ()
}

// -----
// The exec unit bitmap has ten known units.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{'rngd.exec' op exec unit bitmap 1024 has units outside the 10 known ones (bitmap 0x3ff)}}
  "rngd.exec"() {context = 0 : i32, units = 1024 : i64} : () -> ()
}

// -----
// Register bank 1 of the sub context, which has one.
rngd.executable @k target "rngd-1chip" hash 0x1 compiler "c" flags 0 makespan 0 hbm 0 {
  // expected-error @+1 {{'rngd.exec' op register bank 1 of the sub context, which has 1}}
  "rngd.exec"() {context = 1 : i32, units = 1 : i64, bank = 1 : i64} : () -> ()
}
