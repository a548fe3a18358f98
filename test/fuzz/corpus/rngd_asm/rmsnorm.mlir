module attributes {tcp.axes = {H = 1024 : i64, R = 256 : i64}, tcp.makespan = 1629 : i64} {
  rngd.executable @rmsnorm target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1629 hbm 6144 {
    rngd.arg @x in bf16 [1024] "H" offset 0 bytes 2048
    rngd.arg @w in bf16 [1024] "H" offset 2048 bytes 2048
    rngd.arg @y out bf16 [1024] "H" offset 4096 bytes 2048
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 8 limits [256] src_strides [8] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0xc000000800 dst 0x10000080 packet 8 limits [256] src_strides [8] dst_strides [4194304]
    rngd.descriptor 2 engine 0 src 0x10000280 dst 0xc000001000 packet 8 limits [64] src_strides [4194304] dst_strides [8]
    rngd.descriptor 3 engine 1 src 0x20000280 dst 0xc000001200 packet 8 limits [64] src_strides [4194304] dst_strides [8]
    rngd.descriptor 4 engine 2 src 0x30000280 dst 0xc000001400 packet 8 limits [64] src_strides [4194304] dst_strides [8]
    rngd.descriptor 5 engine 3 src 0x40000280 dst 0xc000001600 packet 8 limits [64] src_strides [4194304] dst_strides [8]
    rngd.config 0 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 1, inter_group_log2 = 8}
    rngd.config 2 commit {base = 256, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 3 fetch {base = 128, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 4 vrf_write {base = 32, bytes = 16}
    rngd.config 5 fetch {base = 256, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 6 vector {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [981467136, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 7 commit {base = 384, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 8 vector words 0x603 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 32, vrf_flit_stride = 0, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 9 commit words 0x1 {base = 512, write_bytes = 16, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 10 fetch words 0x1 {base = 384, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 11 vrf_write {base = 0, bytes = 8}
    rngd.config 12 fetch words 0x1 {base = 512, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 13 vector words 0x67 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 14 cast {mode = 1}
    rngd.config 15 commit words 0x1 {base = 640, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.load 3 sub
    rngd.load 4 sub
    rngd.wait tag 0
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait tag 1
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 5 main bank 1
    rngd.load 6 main bank 1
    rngd.load 7 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 8 main
    rngd.load 9 main
    rngd.wait sub
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 10 sub
    rngd.load 11 sub
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 12 main bank 1
    rngd.load 13 main bank 1
    rngd.load 14 main bank 1
    rngd.load 15 main bank 1
    rngd.wait main
    rngd.wait sub
    rngd.exec main bank 1 [fetch, collect, vector, cast, commit]
    rngd.wait main
    rngd.dma 2 tag 0
    rngd.dma 3 tag 1
    rngd.dma 4 tag 2
    rngd.dma 5 tag 3
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
  }
}

