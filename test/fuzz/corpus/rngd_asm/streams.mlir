module attributes {tcp.axes = {A = 524288 : i64, B = 8192 : i64}, tcp.makespan = 3306 : i64} {
  rngd.executable @stagger target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 3306 hbm 2129920 {
    rngd.arg @x in bf16 [8192] "B" offset 0 bytes 16384
    rngd.arg @a in bf16 [524288] "A" offset 16384 bytes 1048576
    rngd.arg @b in bf16 [524288] "A" offset 1064960 bytes 1048576
    rngd.arg @out out bf16 [8192] "B" offset 2113536 bytes 16384
    rngd.descriptor 0 engine 0 src 0xc000004000 dst 0x10000080 packet 4096 limits [86] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 1 engine 1 src 0xc00005a000 dst 0x25800080 packet 4096 limits [85] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 2 engine 2 src 0xc0000af000 dst 0x3ac00080 packet 4096 limits [85] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 3 engine 3 src 0xc000000000 dst 0x10000000 packet 64 limits [256] src_strides [64] dst_strides [4194304]
    rngd.descriptor 4 engine 3 src 0x10002080 dst 0xc000204000 packet 64 limits [256] src_strides [4194304] dst_strides [64]
    rngd.descriptor 5 engine 0 src 0xc000104000 dst 0x10001080 packet 4096 limits [58] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 6 engine 1 src 0xc00013e000 dst 0x1e801080 packet 4096 limits [59] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 7 engine 2 src 0xc000179000 dst 0x2d401080 packet 4096 limits [59] src_strides [4096] dst_strides [4194304]
    rngd.descriptor 8 engine 3 src 0xc0001b4000 dst 0x3c001080 packet 4096 limits [80] src_strides [4096] dst_strides [4194304]
    rngd.config 0 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 commit {base = 8320, write_bytes = 32, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.dma 3 tag 3
    rngd.load 0 main
    rngd.load 1 main
    rngd.wait tag 3
    rngd.exec main [fetch, collect, commit]
    rngd.wait main
    rngd.dma 4 tag 3
    rngd.dma 5 tag 4
    rngd.dma 6 tag 5
    rngd.dma 7 tag 6
    rngd.dma 8 tag 7
    rngd.wait tag 3
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.wait tag 7
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 6
  }
}

