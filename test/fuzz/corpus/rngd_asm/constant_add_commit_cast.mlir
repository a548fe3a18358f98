module attributes {tcp.axes = {A = 8192 : i64}, tcp.makespan = 1338 : i64} {
  rngd.executable @constant_add target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1338 hbm 32768 {
    rngd.arg @in in bf16 [8192] "A" offset 0 bytes 16384
    rngd.arg @out out bf16 [8192] "A" offset 16384 bytes 16384
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 64 limits [256] src_strides [64] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000080 dst 0xc000004000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 2 engine 1 src 0x20000080 dst 0xc000005000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 3 engine 2 src 0x30000080 dst 0xc000006000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 4 engine 3 src 0x40000080 dst 0xc000007000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.config 0 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 vector {steps = 1, alu = [5, 0, 0, 0, 0, 0, 0, 0], op = [1, 0, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1065353216, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 2 commit {base = 128, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 1}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.wait tag 0
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.dma 1 tag 0
    rngd.dma 2 tag 1
    rngd.dma 3 tag 2
    rngd.dma 4 tag 3
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
  }
}

