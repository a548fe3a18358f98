module attributes {tcp.axes = {I = 2048 : i64, J = 1024 : i64, R = 64 : i64}, tcp.makespan = 14989 : i64} {
  rngd.executable @gemv target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 14989 hbm 4200448 {
    rngd.arg @x in bf16 [1024] "J" offset 0 bytes 2048
    rngd.arg @w in bf16 [2048, 1024] "[I, J]" offset 2048 bytes 4194304
    rngd.arg @y out bf16 [2048] "I" offset 4196352 bytes 4096
    rngd.descriptor 0 engine 0 src 0xc000000800 dst 0x10000000 packet 4096 limits [22, 16] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc000160800 dst 0x15800000 packet 4096 limits [21, 16] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc0002b0800 dst 0x1ac00000 packet 4096 limits [21, 16] src_strides [65536, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 3 engine 3 src 0xc000000000 dst 0x10010000 packet 2048 limits [64] src_strides [0] dst_strides [4194304]
    rngd.descriptor 4 engine 0 src 0x10010800 dst 0xc000400800 packet 64 limits [16] src_strides [4194304] dst_strides [64]
    rngd.descriptor 5 engine 1 src 0x14010800 dst 0xc000400c00 packet 64 limits [16] src_strides [4194304] dst_strides [64]
    rngd.descriptor 6 engine 2 src 0x18010800 dst 0xc000401000 packet 64 limits [16] src_strides [4194304] dst_strides [64]
    rngd.descriptor 7 engine 3 src 0x1c010800 dst 0xc000401400 packet 64 limits [16] src_strides [4194304] dst_strides [64]
    rngd.config 0 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [8, 4, 256, 1, 1, 1, 1, 1], strides = [2048, 16384, 8, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 8192}
    rngd.config 2 fetch {base = 65536, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 0, slots = 4, limits = [32, 4, 1, 1, 1, 1, 1, 1], stream_strides = [1, 0, 0, 0, 0, 0, 0, 0], trf_strides = [64, 2048, 0, 0, 0, 0, 0, 0], acc_strides = [0, 1, 0, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 4 cast {mode = 1}
    rngd.config 5 commit {base = 67584, write_bytes = 16, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.dma 3 tag 3
    rngd.load 0 sub
    rngd.load 1 sub
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.exec sub [fetch, collect, trf]
    rngd.load 2 main
    rngd.load 3 main
    rngd.load 4 main
    rngd.load 5 main
    rngd.wait tag 3
    rngd.wait sub
    rngd.exec main [fetch, collect, contract, cast, commit]
    rngd.wait main
    rngd.dma 4 tag 1
    rngd.dma 5 tag 2
    rngd.dma 6 tag 0
    rngd.dma 7 tag 3
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.wait tag 3
  }
}

