module attributes {tcp.axes = {R = 64 : i64, T = 512 : i64}, tcp.makespan = 1257 : i64} {
  rngd.executable @softmax target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1257 hbm 4096 {
    rngd.arg @x in f32 [512] "T" offset 0 bytes 2048
    rngd.arg @y out f32 [512] "T" offset 2048 bytes 2048
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 32 limits [64] src_strides [32] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000200 dst 0xc000000800 packet 32 limits [16] src_strides [4194304] dst_strides [32]
    rngd.descriptor 2 engine 1 src 0x14000200 dst 0xc000000a00 packet 32 limits [16] src_strides [4194304] dst_strides [32]
    rngd.descriptor 3 engine 2 src 0x18000200 dst 0xc000000c00 packet 32 limits [16] src_strides [4194304] dst_strides [32]
    rngd.descriptor 4 engine 3 src 0x1c000200 dst 0xc000000e00 packet 32 limits [16] src_strides [4194304] dst_strides [32]
    rngd.config 0 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 vector {steps = 2, alu = [10, 14, 0, 0, 0, 0, 0, 0], op = [5, 5, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 1, inter_group_log2 = 6}
    rngd.config 2 commit {base = 128, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 3 fetch {base = 128, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 4 vrf_write {base = 0, bytes = 8}
    rngd.config 5 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 6 vector {steps = 2, alu = [5, 7, 0, 0, 0, 0, 0, 0], op = [3, 7, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 7 commit {base = 256, write_bytes = 32, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 8 fetch words 0x1 {base = 256, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 9 vector words 0x1 {steps = 2, alu = [10, 14, 0, 0, 0, 0, 0, 0], op = [1, 1, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 1, inter_group_log2 = 6}
    rngd.config 10 commit words 0x1 {base = 384, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 11 fetch words 0x1 {base = 384, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 12 vrf_write {base = 32, bytes = 8}
    rngd.config 13 fetch words 0x1 {base = 256, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 14 vector words 0x201 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 32, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 15 commit words 0x1 {base = 512, write_bytes = 32, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.wait tag 0
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 3 sub
    rngd.load 4 sub
    rngd.load 5 main bank 1
    rngd.load 6 main bank 1
    rngd.load 7 main bank 1
    rngd.wait main
    rngd.exec sub [fetch, collect, vrf]
    rngd.wait sub
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 8 main
    rngd.load 9 main
    rngd.load 10 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 11 sub
    rngd.load 12 sub
    rngd.wait main
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 13 main bank 1
    rngd.load 14 main bank 1
    rngd.load 15 main bank 1
    rngd.wait sub
    rngd.exec main bank 1 [fetch, collect, vector, commit]
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

