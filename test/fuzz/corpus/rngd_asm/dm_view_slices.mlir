module attributes {tcp.axes = {C = 2 : i64, D = 128 : i64, G = 32 : i64, N = 8 : i64}, tcp.makespan = 1042 : i64} {
  rngd.executable @dm_view_slices target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1042 hbm 20480 {
    rngd.arg @x in bf16 [2, 32, 128] "[C, G, D]" offset 0 bytes 16384
    rngd.arg @y out bf16 [2, 8, 128] "[C, N, D]" offset 16384 bytes 4096
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 256 limits [32] src_strides [256] dst_strides [33554432]
    rngd.descriptor 1 engine 7 src 0xc000002000 dst 0x50000000 packet 256 limits [32] src_strides [256] dst_strides [33554432]
    rngd.descriptor 2 engine 0 src 0x30000000 dst 0xc000004000 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 3 engine 1 src 0x34000000 dst 0xc000004200 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 4 engine 2 src 0x38000000 dst 0xc000004400 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 5 engine 3 src 0x3c000000 dst 0xc000004600 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 6 engine 4 src 0x70000000 dst 0xc000004800 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 7 engine 5 src 0x74000000 dst 0xc000004a00 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 8 engine 6 src 0x78000000 dst 0xc000004c00 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.descriptor 9 engine 7 src 0x7c000000 dst 0xc000004e00 packet 256 limits [1, 2] src_strides [1073741824, 33554432] dst_strides [2048, 256]
    rngd.dma 0 tag 0
    rngd.dma 1 tag 1
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.dma 2 tag 0
    rngd.dma 3 tag 1
    rngd.dma 4 tag 2
    rngd.dma 5 tag 3
    rngd.dma 6 tag 4
    rngd.dma 7 tag 5
    rngd.dma 8 tag 6
    rngd.dma 9 tag 7
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 3
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 6
    rngd.wait tag 7
  }
}

