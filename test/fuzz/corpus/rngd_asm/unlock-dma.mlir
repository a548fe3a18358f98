module attributes {tcp.axes = {Y = 131072 : i64, Z = 2048 : i64}, tcp.makespan = 3986 : i64} {
  rngd.executable @unlock_dma target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 3986 hbm 528384 {
    rngd.arg @y in bf16 [131072] "Y" offset 0 bytes 262144
    rngd.arg @l out bf16 [131072] "Y" offset 262144 bytes 262144
    rngd.arg @s out bf16 [2048] "Z" offset 524288 bytes 4096
    rngd.descriptor 0 engine 0 src 0xc000000000 dst 0x10000000 packet 4096 limits [4, 6] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc000006000 dst 0x10006000 packet 4096 limits [4, 5] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc00000b000 dst 0x1000b000 packet 4096 limits [4, 5] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 3 engine 3 src 0x10020000 dst 0x10020400 packet 8 limits [4, 2, 64] src_strides [4194304, 8, 16] dst_strides [4194304, 512, 8]
    rngd.descriptor 4 engine 1 src 0x10020400 dst 0xc000080000 packet 8 limits [4, 64, 2] src_strides [4194304, 8, 512] dst_strides [1024, 16, 8]
    rngd.descriptor 5 engine 0 src 0x10010000 dst 0xc000040000 packet 4096 limits [1, 16] src_strides [4194304, 4096] dst_strides [65536, 4096]
    rngd.descriptor 6 engine 2 src 0x10410000 dst 0xc000050000 packet 4096 limits [1, 16] src_strides [4194304, 4096] dst_strides [65536, 4096]
    rngd.descriptor 7 engine 3 src 0x10810000 dst 0xc000060000 packet 4096 limits [2, 16] src_strides [4194304, 4096] dst_strides [65536, 4096]
    rngd.config 0 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [32, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 commit {base = 131072, write_bytes = 32, limits = [32, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 2 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2048, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 commit {base = 65536, write_bytes = 32, limits = [2048, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.load 0 main
    rngd.load 1 main
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.exec main [fetch, collect, commit]
    rngd.load 2 main bank 1
    rngd.load 3 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, commit]
    rngd.dma 3 tag 1
    rngd.wait tag 1
    rngd.dma 4 tag 2
    rngd.wait main
    rngd.dma 5 tag 0
    rngd.dma 6 tag 1
    rngd.dma 7 tag 3
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 3
  }
}

