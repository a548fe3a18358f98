module attributes {tcp.axes = {B = 4 : i64, C = 64 : i64, K = 256 : i64, R = 4 : i64}, tcp.makespan = 1010 : i64} {
  rngd.executable @flatten target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1010 hbm 1024 {
    rngd.arg @x in bf16 [4, 64] "[B, C]" offset 0 bytes 512
    rngd.arg @y out bf16 [256] "K" offset 512 bytes 512
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 512 limits [4] src_strides [0] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000000200 packet 512 limits [] src_strides [] dst_strides []
    rngd.dma 0 tag 0
    rngd.wait tag 0
    rngd.dma 1 tag 0
    rngd.wait tag 0
  }
}

