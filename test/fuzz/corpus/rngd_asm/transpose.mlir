module attributes {tcp.axes = {C = 8 : i64, R = 4 : i64, S = 256 : i64}, tcp.makespan = 1339 : i64} {
  rngd.executable @transpose target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1339 hbm 32768 {
    rngd.arg @x in bf16 [256, 4, 8] "[S, R, C]" offset 0 bytes 16384
    rngd.arg @y out bf16 [256, 8, 4] "[S, C, R]" offset 16384 bytes 16384
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 64 limits [256] src_strides [64] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000080 dst 0xc000004000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 2 engine 1 src 0x20000080 dst 0xc000005000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 3 engine 2 src 0x30000080 dst 0xc000006000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.descriptor 4 engine 3 src 0x40000080 dst 0xc000007000 packet 64 limits [64] src_strides [4194304] dst_strides [64]
    rngd.config 0 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 transpose {elem_log2 = 1, in_rows = 4, in_cols = 8, out_rows = 8}
    rngd.config 2 commit {base = 128, write_bytes = 8, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.wait tag 0
    rngd.exec main [fetch, collect, transpose, commit]
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

