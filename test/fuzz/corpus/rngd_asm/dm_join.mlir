module attributes {tcp.axes = {P = 3 : i64, S = 512 : i64, T = 96 : i64, U = 32 : i64}, tcp.makespan = 1191 : i64} {
  rngd.executable @dm_join target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1191 hbm 196608 {
    rngd.arg @x in bf16 [512, 96] "[S, T]" offset 0 bytes 98304
    rngd.arg @y out bf16 [512, 3, 32] "[S, P, U]" offset 98304 bytes 98304
    rngd.descriptor 0 engine 0 src 0xc000000000 dst 0x10000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 1 engine 1 src 0xc000003000 dst 0x20000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 2 engine 2 src 0xc000006000 dst 0x30000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 3 engine 3 src 0xc000009000 dst 0x40000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 4 engine 4 src 0xc00000c000 dst 0x50000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 5 engine 5 src 0xc00000f000 dst 0x60000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 6 engine 6 src 0xc000012000 dst 0x70000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 7 engine 7 src 0xc000015000 dst 0x80000000 packet 192 limits [64] src_strides [192] dst_strides [4194304]
    rngd.descriptor 8 engine 0 src 0x10000100 dst 0xc000018000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 9 engine 1 src 0x20000100 dst 0xc00001b000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 10 engine 2 src 0x30000100 dst 0xc00001e000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 11 engine 3 src 0x40000100 dst 0xc000021000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 12 engine 4 src 0x50000100 dst 0xc000024000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 13 engine 5 src 0x60000100 dst 0xc000027000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 14 engine 6 src 0x70000100 dst 0xc00002a000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.descriptor 15 engine 7 src 0x80000100 dst 0xc00002d000 packet 192 limits [64] src_strides [4194304] dst_strides [192]
    rngd.config 0 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 1 vector {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1073741824, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 2 commit {base = 256, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 3 fetch {base = 64, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 4 vector {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1073741824, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 5 commit {base = 320, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 6 fetch words 0x1 {base = 128, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 7 commit words 0x1 {base = 384, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.dma 3 tag 3
    rngd.dma 4 tag 4
    rngd.dma 5 tag 5
    rngd.dma 6 tag 6
    rngd.dma 7 tag 7
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.load 3 main bank 1
    rngd.load 4 main bank 1
    rngd.load 5 main bank 1
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 6 main
    rngd.load 7 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.dma 8 tag 0
    rngd.dma 9 tag 1
    rngd.dma 10 tag 2
    rngd.dma 11 tag 3
    rngd.dma 12 tag 4
    rngd.dma 13 tag 5
    rngd.dma 14 tag 6
    rngd.dma 15 tag 7
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 6
    rngd.wait tag 7
  }
}

