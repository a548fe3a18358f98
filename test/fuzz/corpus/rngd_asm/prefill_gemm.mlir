module attributes {tcp.axes = {C2 = 2 : i64, H = 1024 : i64, O = 4096 : i64, T = 512 : i64, X256 = 256 : i64}, tcp.makespan = 32967 : i64} {
  rngd.executable @prefill_gemm target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 32967 hbm 13631488 {
    rngd.arg @x in bf16 [2, 4, 64, 64, 16] "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]" offset 0 bytes 1048576
    rngd.arg @w in bf16 [4096, 1024] "[O, H]" offset 1048576 bytes 8388608
    rngd.arg @y out bf16 [2, 256, 64, 4, 16] "[T / 256, O / 16, T % 64, T % 256 / 64, O % 16]" offset 9437184 bytes 4194304
    rngd.descriptor 0 engine 0 src 0xc000100000 dst 0x10000000 packet 4096 limits [1, 58, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc0002d0000 dst 0x1e800000 packet 4096 limits [1, 62, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc0004c0000 dst 0x2e000000 packet 4096 limits [1, 66, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 3 engine 3 src 0xc0006d0000 dst 0x3e800000 packet 4096 limits [1, 70, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 4 engine 4 src 0xc000100000 dst 0x50000000 packet 4096 limits [1, 58, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 5 engine 5 src 0xc0002d0000 dst 0x5e800000 packet 4096 limits [1, 62, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 6 engine 6 src 0xc0004c0000 dst 0x6e000000 packet 4096 limits [1, 66, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 7 engine 7 src 0xc0006d0000 dst 0x7e800000 packet 4096 limits [1, 70, 8] src_strides [0, 32768, 4096] dst_strides [1073741824, 4194304, 4096]
    rngd.descriptor 8 engine 0 src 0xc000000000 dst 0x10008000 packet 2048 limits [149] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 9 engine 1 src 0xc00004a800 dst 0x35408000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 10 engine 2 src 0xc000075000 dst 0x4a808000 packet 2048 limits [22] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 11 engine 4 src 0xc000080000 dst 0x50008000 packet 2048 limits [149] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 12 engine 5 src 0xc0000ca800 dst 0x75408000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 13 engine 6 src 0xc0000f5000 dst 0x8a808000 packet 2048 limits [22] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 14 engine 0 src 0x10008800 dst 0xc000900000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 15 engine 1 src 0x20008800 dst 0xc000980000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 16 engine 2 src 0x30008800 dst 0xc000a00000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 17 engine 3 src 0x40008800 dst 0xc000a80000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 18 engine 4 src 0x50008800 dst 0xc000b00000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 19 engine 5 src 0x60008800 dst 0xc000b80000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 20 engine 6 src 0x70008800 dst 0xc000c00000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 21 engine 7 src 0x80008800 dst 0xc000c80000 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.config 0 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [8, 2, 64, 1, 1, 1, 1, 1], strides = [2048, 16384, 32, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 1 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 4096}
    rngd.config 2 fetch {base = 32768, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 3 switch {mode = 2, slice1 = 256, slice0 = 1, time0 = 0}
    rngd.config 4 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 1, slots = 2, limits = [256, 32, 2, 1, 1, 1, 1, 1], stream_strides = [32, 1, 0, 0, 0, 0, 0, 0], trf_strides = [0, 64, 2048, 0, 0, 0, 0, 0], acc_strides = [0, 0, 1, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 5 cast {mode = 1}
    rngd.config 6 commit {base = 34816, write_bytes = 16, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.dma 3 tag 3
    rngd.dma 4 tag 4
    rngd.dma 5 tag 5
    rngd.dma 6 tag 6
    rngd.dma 7 tag 7
    rngd.dma 8 tag 8
    rngd.dma 9 tag 9
    rngd.dma 10 tag 10
    rngd.dma 11 tag 11
    rngd.dma 12 tag 12
    rngd.dma 13 tag 13
    rngd.load 0 main
    rngd.load 1 main
    rngd.wait tag 0
    rngd.wait tag 4
    rngd.wait tag 1
    rngd.wait tag 5
    rngd.wait tag 2
    rngd.wait tag 6
    rngd.wait tag 3
    rngd.wait tag 7
    rngd.exec main [fetch, collect, trf]
    rngd.load 2 main bank 1
    rngd.load 3 main bank 1
    rngd.load 4 main bank 1
    rngd.load 5 main bank 1
    rngd.load 6 main bank 1
    rngd.wait tag 8
    rngd.wait tag 9
    rngd.wait tag 11
    rngd.wait tag 12
    rngd.wait tag 10
    rngd.wait tag 13
    rngd.wait main
    rngd.exec main bank 1 [fetch, switch, collect, contract, cast, commit]
    rngd.wait main
    rngd.dma 14 tag 0
    rngd.dma 15 tag 4
    rngd.dma 16 tag 1
    rngd.dma 17 tag 5
    rngd.dma 18 tag 2
    rngd.dma 19 tag 6
    rngd.dma 20 tag 3
    rngd.dma 21 tag 7
    rngd.wait tag 0
    rngd.wait tag 4
    rngd.wait tag 1
    rngd.wait tag 5
    rngd.wait tag 2
    rngd.wait tag 6
    rngd.wait tag 3
    rngd.wait tag 7
  }
}

