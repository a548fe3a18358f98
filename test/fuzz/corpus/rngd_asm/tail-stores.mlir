module attributes {tcp.axes = {I = 2048 : i64, J = 1024 : i64, R = 256 : i64}, tcp.makespan = 12401 : i64} {
  rngd.executable @tail_stores target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 12401 hbm 8398848 {
    rngd.arg @x in bf16 [1024] "J" offset 0 bytes 2048
    rngd.arg @w in bf16 [2048, 1024] "[I, J]" offset 2048 bytes 4194304
    rngd.arg @v in bf16 [2048, 1024] "[I, J]" offset 4196352 bytes 4194304
    rngd.arg @y out bf16 [2048] "I" offset 8390656 bytes 4096
    rngd.arg @z out bf16 [2048] "I" offset 8394752 bytes 4096
    rngd.descriptor 0 engine 0 src 0xc000000800 dst 0x10000800 packet 4096 limits [86, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc000158800 dst 0x25800800 packet 4096 limits [85, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc0002ac800 dst 0x3ac00800 packet 4096 limits [85, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 3 engine 3 src 0xc000000000 dst 0x10000000 packet 2048 limits [256] src_strides [0] dst_strides [4194304]
    rngd.descriptor 4 engine 0 src 0xc000400800 dst 0x10004800 packet 4096 limits [50, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 5 engine 1 src 0xc0004c8800 dst 0x1c804800 packet 4096 limits [51, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 6 engine 2 src 0xc000594800 dst 0x29404800 packet 4096 limits [51, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 7 engine 3 src 0xc000660800 dst 0x36004800 packet 4096 limits [104, 4] src_strides [16384, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 8 engine 0 src 0x10008800 dst 0xc000800800 packet 16 limits [256] src_strides [4194304] dst_strides [16]
    rngd.descriptor 9 engine 0 src 0x10008880 dst 0xc000801800 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 10 engine 1 src 0x20008880 dst 0xc000801c00 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 11 engine 2 src 0x30008880 dst 0xc000802000 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 12 engine 3 src 0x40008880 dst 0xc000802400 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.config 0 fetch {base = 2048, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [2048, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 2048}
    rngd.config 2 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 0, slots = 1, limits = [32, 1, 1, 1, 1, 1, 1, 1], stream_strides = [1, 0, 0, 0, 0, 0, 0, 0], trf_strides = [64, 0, 0, 0, 0, 0, 0, 0], acc_strides = [0, 0, 0, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 4 cast {mode = 1}
    rngd.config 5 commit {base = 34816, write_bytes = 16, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.config 6 fetch words 0x1 {base = 18432, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [2048, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 7 trf_write {base = 2048, lanes_log2 = 3, lane_bytes = 2048}
    rngd.config 8 fetch {base = 0, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 9 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 2048, window = 0, slots = 1, limits = [32, 1, 1, 1, 1, 1, 1, 1], stream_strides = [1, 0, 0, 0, 0, 0, 0, 0], trf_strides = [64, 0, 0, 0, 0, 0, 0, 0], acc_strides = [0, 0, 0, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 10 cast {mode = 1}
    rngd.config 11 commit {base = 34944, write_bytes = 16, limits = [1, 1, 1, 1, 1, 1, 1, 1], strides = [0, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x0, 0x0, 0x0, 0x0], cast = 0}
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.dma 2 tag 2
    rngd.dma 3 tag 3
    rngd.dma 4 tag 4
    rngd.dma 5 tag 5
    rngd.dma 6 tag 6
    rngd.dma 7 tag 7
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
    rngd.dma 8 tag 1
    rngd.load 6 sub
    rngd.load 7 sub
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.exec sub [fetch, collect, trf]
    rngd.load 8 main bank 1
    rngd.load 9 main bank 1
    rngd.load 10 main bank 1
    rngd.load 11 main bank 1
    rngd.wait sub
    rngd.exec main bank 1 [fetch, collect, contract, cast, commit]
    rngd.wait main
    rngd.dma 9 tag 2
    rngd.dma 10 tag 0
    rngd.dma 11 tag 3
    rngd.dma 12 tag 4
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 0
    rngd.wait tag 3
    rngd.wait tag 4
  }
}

