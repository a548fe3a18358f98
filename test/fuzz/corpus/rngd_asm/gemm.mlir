module attributes {tcp.axes = {I = 256 : i64, J = 256 : i64, R = 16 : i64, T = 8 : i64}, tcp.makespan = 2395 : i64} {
  rngd.executable @gemm target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 2395 hbm 139264 {
    rngd.arg @x in bf16 [8, 256] "[T, J]" offset 0 bytes 4096
    rngd.arg @w in bf16 [256, 256] "[I, J]" offset 4096 bytes 131072
    rngd.arg @y out bf16 [8, 256] "[T, I]" offset 135168 bytes 4096
    rngd.descriptor 0 engine 0 src 0xc000001000 dst 0x10000000 packet 4096 limits [6, 2] src_strides [8192, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 1 engine 1 src 0xc00000d000 dst 0x11800000 packet 4096 limits [5, 2] src_strides [8192, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 2 engine 2 src 0xc000017000 dst 0x12c00000 packet 4096 limits [5, 2] src_strides [8192, 4096] dst_strides [4194304, 4096]
    rngd.descriptor 3 engine 3 src 0xc000000000 dst 0x10002000 packet 4096 limits [16] src_strides [0] dst_strides [4194304]
    rngd.descriptor 4 engine 0 src 0x10003000 dst 0xc000021000 packet 32 limits [2, 16] src_strides [32, 4194304] dst_strides [512, 32]
    rngd.descriptor 5 engine 1 src 0x10003040 dst 0xc000021400 packet 32 limits [2, 16] src_strides [32, 4194304] dst_strides [512, 32]
    rngd.descriptor 6 engine 2 src 0x10003080 dst 0xc000021800 packet 32 limits [2, 16] src_strides [32, 4194304] dst_strides [512, 32]
    rngd.descriptor 7 engine 3 src 0x100030c0 dst 0xc000021c00 packet 32 limits [2, 16] src_strides [32, 4194304] dst_strides [512, 32]
    rngd.config 0 fetch {base = 0, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [8, 2, 64, 1, 1, 1, 1, 1], strides = [512, 4096, 8, 0, 0, 0, 0, 0], slices = [0xffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 1 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 1024}
    rngd.config 2 fetch {base = 8192, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]}
    rngd.config 3 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 1, slots = 2, limits = [8, 8, 2, 1, 1, 1, 1, 1], stream_strides = [8, 1, 0, 0, 0, 0, 0, 0], trf_strides = [0, 64, 512, 0, 0, 0, 0, 0], acc_strides = [0, 0, 1, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 4 cast {mode = 1}
    rngd.config 5 commit {base = 12288, write_bytes = 16, limits = [16, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffff, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0], cast = 0}
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

