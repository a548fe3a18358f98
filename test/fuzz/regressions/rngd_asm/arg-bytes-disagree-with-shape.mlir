module attributes {tcp.axes = {A = 2048 : i64}, tcp.makespan = 1323 : i64} {
  rngd.executable @copy target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1323 hbm 8192 {
    rngd.arg @in in bf16 [2004] "A" offset 0 bytes 4096
    rngd.arg @out out bf16 [2048] "A" offset 4096 bytes 4096
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 16 limits [256] src_strides [16] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000001000 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 2 engine 1 src 0x20000000 dst 0xc000001400 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 3 engine 2 src 0x30000000 dst 0xc000001800 packet 16 limits [64] src_strides [4194304] dst_strides [16]
    rngd.descriptor 4 engine 3 src 0x40000000 dst 0xc000001c00 packet 16 limits [64] src_strides [4194304] dst_strides [16]
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

