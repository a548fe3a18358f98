module attributes {tcp.axes = {A = 2097152 : i64, B = 32768 : i64}, tcp.makespan = 6317 : i64} {
  rngd.executable @short_stream target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 6317 hbm 4325376 {
    rngd.arg @a in bf16 [2097152] "A" offset 0 bytes 4194304
    rngd.arg @x in bf16 [32768] "B" offset 4194304 bytes 65536
    rngd.arg @out out bf16 [32768] "B" offset 4259840 bytes 65536
    rngd.descriptor 0 engine 0 src 0xc000400000 dst 0x10004000 packet 4096 limits [1, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc000404000 dst 0x10404000 packet 4096 limits [1, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc000408000 dst 0x10804000 packet 4096 limits [1, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 3 engine 3 src 0xc00040c000 dst 0x10c04000 packet 4096 limits [1, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 4 engine 0 src 0xc000000000 dst 0x10000000 packet 4096 limits [74, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 5 engine 1 src 0xc000128000 dst 0x22800000 packet 4096 limits [74, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 6 engine 2 src 0xc000250000 dst 0x35000000 packet 4096 limits [73, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 7 engine 3 src 0xc000374000 dst 0x47400000 packet 4096 limits [35, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 8 engine 3 src 0x10018000 dst 0xc000410000 packet 4096 limits [4, 4] src_strides [4194304, 4096] dst_strides [16384, 4096]
    rngd.config 0 fetch {base = 16384, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 commit {base = 32768, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 2 fetch {base = 32768, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 commit {base = 49152, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 4 fetch words 0x1 {base = 49152, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 5 commit words 0x1 {base = 65536, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 6 fetch words 0x1 {base = 65536, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 7 commit words 0x1 {base = 81920, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 8 fetch words 0x1 {base = 81920, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 9 commit words 0x1 {base = 98304, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xf, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 10 fetch words 0x3e1 {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 11 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 2048}
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
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.exec main [fetch, collect, commit]
    rngd.load 2 main bank 1
    rngd.load 3 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, commit]
    rngd.load 4 main
    rngd.load 5 main
    rngd.wait main
    rngd.exec main [fetch, collect, commit]
    rngd.load 6 main bank 1
    rngd.load 7 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, commit]
    rngd.load 8 main
    rngd.load 9 main
    rngd.wait main
    rngd.exec main [fetch, collect, commit]
    rngd.wait main
    rngd.dma 8 tag 0
    rngd.load 10 main bank 1
    rngd.load 11 main bank 1
    rngd.wait tag 7
    rngd.wait tag 6
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.exec main bank 1 [fetch, collect, trf]
    rngd.wait tag 0
    rngd.wait main
  }
}

