module attributes {tcp.axes = {H = 1024 : i64}, tcp.makespan = 1526 : i64} {
  rngd.executable @filler target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1526 hbm 6144 {
    rngd.arg @x in bf16 [1024] "H" offset 0 bytes 2048
    rngd.arg @c out bf16 [1024] "H" offset 2048 bytes 2048
    rngd.arg @f out bf16 [1024] "H" offset 4096 bytes 2048
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 8 limits [256] src_strides [8] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000100 dst 0xc000001000 packet 8 limits [256] src_strides [4194304] dst_strides [8]
    rngd.descriptor 2 engine 1 src 0x10000200 dst 0xc000000800 packet 8 limits [85] src_strides [4194304] dst_strides [8]
    rngd.descriptor 3 engine 2 src 0x25400200 dst 0xc000000aa8 packet 8 limits [85] src_strides [4194304] dst_strides [8]
    rngd.descriptor 4 engine 3 src 0x3a800200 dst 0xc000000d50 packet 8 limits [86] src_strides [4194304] dst_strides [8]
    rngd.config 0 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 commit {base = 128, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 2 fetch {base = 128, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 commit {base = 384, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 4 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 5 commit {base = 256, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 6 fetch words 0x1 {base = 384, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 7 commit words 0x1 {base = 512, write_bytes = 8, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main bank 1
    rngd.load 3 main bank 1
    rngd.load 4 sub
    rngd.load 5 sub
    rngd.wait tag 0
    rngd.exec main [fetch, collect, commit]
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, commit]
    rngd.exec sub [fetch, collect, commit]
    rngd.load 6 main
    rngd.load 7 main
    rngd.wait main
    rngd.exec main [fetch, collect, commit]
    rngd.wait sub
    rngd.dma 1 tag 0
    rngd.wait main
    rngd.dma 2 tag 1
    rngd.dma 3 tag 2
    rngd.dma 4 tag 3
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.wait tag 0
  }
}

