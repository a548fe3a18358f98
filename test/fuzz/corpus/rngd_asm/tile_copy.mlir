module attributes {tcp.axes = {B = 4 : i64, C = 256 : i64, K = 2 : i64}, tcp.makespan = 1083 : i64} {
  rngd.executable @tile_copy target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1083 hbm 3072 {
    rngd.arg @x in bf16 [4, 256] "[B, C]" offset 0 bytes 2048
    rngd.arg @y inout bf16 [2, 256] "[K, C]" offset 2048 bytes 1024
    rngd.descriptor 0 engine 3 src 0xc000000400 dst 0x10000000 packet 8 limits [64] src_strides [8] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000000a00 packet 8 limits [16] src_strides [4194304] dst_strides [8]
    rngd.descriptor 2 engine 1 src 0x14000000 dst 0xc000000a80 packet 8 limits [16] src_strides [4194304] dst_strides [8]
    rngd.descriptor 3 engine 2 src 0x18000000 dst 0xc000000b00 packet 8 limits [16] src_strides [4194304] dst_strides [8]
    rngd.descriptor 4 engine 3 src 0x1c000000 dst 0xc000000b80 packet 8 limits [16] src_strides [4194304] dst_strides [8]
    rngd.dma 0 tag 0
    rngd.wait tag 0
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

