module attributes {tcp.axes = {A = 1024 : i64}, tcp.makespan = 1395 : i64} {
  rngd.executable @switch_inter_transpose target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1395 hbm 8192 {
    rngd.arg @x in f32 [1024] "A" offset 0 bytes 4096
    rngd.arg @y out f32 [1024] "A" offset 4096 bytes 4096
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 16 limits [256] src_strides [16] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000080 dst 0xc000001000 packet 8 limits [32, 2, 2] src_strides [8388608, 8, 4194304] dst_strides [32, 16, 8]
    rngd.descriptor 2 engine 1 src 0x20000080 dst 0xc000001400 packet 8 limits [32, 2, 2] src_strides [8388608, 8, 4194304] dst_strides [32, 16, 8]
    rngd.descriptor 3 engine 2 src 0x30000080 dst 0xc000001800 packet 8 limits [32, 2, 2] src_strides [8388608, 8, 4194304] dst_strides [32, 16, 8]
    rngd.descriptor 4 engine 3 src 0x40000080 dst 0xc000001c00 packet 8 limits [32, 2, 2] src_strides [8388608, 8, 4194304] dst_strides [32, 16, 8]
    rngd.config 0 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 switch {mode = 4, slice1 = 2, slice0 = 1, time0 = 1}
    rngd.config 2 commit {base = 128, write_bytes = 8, limits = [2, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.load 0 main
    rngd.load 1 main
    rngd.load 2 main
    rngd.wait tag 0
    rngd.exec main [fetch, switch, collect, commit]
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

