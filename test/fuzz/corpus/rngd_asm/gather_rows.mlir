module attributes {tcp.axes = {H = 1024 : i64, K = 2 : i64, V = 16 : i64}, tcp.makespan = 1048 : i64} {
  rngd.executable @gather_rows target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 1048 hbm 37120 {
    rngd.arg @table in bf16 [16, 1024] "[V, H]" offset 0 bytes 32768
    rngd.arg @offsets in i32 [2] "K" offset 32768 bytes 8
    rngd.arg @y out bf16 [2, 1024] "[K, H]" offset 33024 bytes 4096
    rngd.descriptor 0 engine 3 src 0xc000000000 dst 0x10000000 packet 2048 limits [2, 2] src_strides [0, 0] dst_strides [2048, 2048] gather index 0xc000008000 count 2 loop 0
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000008100 packet 4096 limits [] src_strides [] dst_strides []
    rngd.dma 0 tag 0
    rngd.wait tag 0
    rngd.dma 1 tag 0
    rngd.wait tag 0
  }
}

