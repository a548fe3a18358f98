module attributes {tcp.axes = {D = 128 : i64, K = 1 : i64, N = 8 : i64, T = 512 : i64}, tcp.makespan = 1016 : i64} {
  rngd.executable @kv_scatter target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1016 hbm 1050880 {
    rngd.arg @row in bf16 [8, 128] "[N, D]" offset 0 bytes 2048
    rngd.arg @offset in i32 [1] "K" offset 2048 bytes 4
    rngd.arg @cache inout bf16 [512, 8, 128] "[T, N, D]" offset 2304 bytes 1048576
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 2048 limits [] src_strides [] dst_strides []
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000000900 packet 2048 limits [1] src_strides [0] dst_strides [0] scatter index 0xc000000800 count 1 loop 0
    rngd.dma 0 tag 0
    rngd.wait tag 0
    rngd.dma 1 tag 0
    rngd.wait tag 0
  }
}

