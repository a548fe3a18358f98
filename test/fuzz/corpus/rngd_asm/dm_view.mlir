module attributes {tcp.axes = {B = 4 : i64, BH = 2 : i64, C = 8 : i64, R = 2 : i64, S = 256 : i64, W = 16 : i64}, tcp.makespan = 1768 : i64} {
  rngd.executable @dm_view target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1768 hbm 40960 {
    rngd.arg @x in bf16 [256, 4, 8] "[S, B, C]" offset 0 bytes 16384
    rngd.arg @y out bf16 [256, 2, 8] "[S, BH, C]" offset 16384 bytes 8192
    rngd.arg @z out bf16 [256, 2, 8] "[S, BH, C]" offset 24576 bytes 8192
    rngd.arg @w out bf16 [256, 2, 8] "[S, R, C]" offset 32768 bytes 8192
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 64 limits [256] src_strides [64] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000010 dst 0xc000008000 packet 16 limits [256, 2] src_strides [4194304, 32] dst_strides [32, 16]
    rngd.descriptor 2 engine 1 src 0x10000020 dst 0xc000006000 packet 32 limits [256] src_strides [4194304] dst_strides [32]
    rngd.descriptor 3 engine 2 src 0x10000080 dst 0xc000004000 packet 32 limits [128] src_strides [4194304] dst_strides [32]
    rngd.descriptor 4 engine 3 src 0x30000080 dst 0xc000005000 packet 32 limits [128] src_strides [4194304] dst_strides [32]
    rngd.config 0 fetch {base = 32, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 vector {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1073741824, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 2 cast {mode = 1}
    rngd.config 3 commit {base = 128, write_bytes = 16, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.load 3 main
    rngd.wait tag 0
    rngd.dma 1 tag 0
    rngd.exec main [fetch, collect, vector, cast, commit]
    rngd.dma 2 tag 1
    rngd.wait main
    rngd.dma 3 tag 2
    rngd.dma 4 tag 3
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.wait tag 1
    rngd.wait tag 0
  }
}

