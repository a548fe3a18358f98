module attributes {tcp.axes = {C2 = 2 : i64, H = 1024 : i64, R8 = 8 : i64, T = 512 : i64, X32 = 32 : i64}, tcp.makespan = 3941 : i64} {
  rngd.executable @prefill_rmsnorm target "rngd-1chip" hash 0x631ca2ad1f8624b9 compiler "rngdc 0.1.0" flags 0 makespan 3941 hbm 2099200 {
    rngd.arg @x in bf16 [2, 8, 32, 32, 32] "[T / 256, T % 256 / 32, H / 32, T % 32, H % 32]" offset 0 bytes 1048576
    rngd.arg @w in bf16 [1024] "H" offset 1048576 bytes 2048
    rngd.arg @y out bf16 [2, 8, 32, 32, 32] "[T / 256, T % 256 / 32, H / 32, T % 32, H % 32]" offset 1050624 bytes 1048576
    rngd.descriptor 0 engine 0 src 0xc000000000 dst 0x10000000 packet 2048 limits [86] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 1 engine 1 src 0xc00002b000 dst 0x25800000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 2 engine 2 src 0xc000055800 dst 0x3ac00000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 3 engine 4 src 0xc000080000 dst 0x50000000 packet 2048 limits [86] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 4 engine 5 src 0xc0000ab000 dst 0x65800000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 5 engine 6 src 0xc0000d5800 dst 0x7ac00000 packet 2048 limits [85] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 6 engine 3 src 0xc000100000 dst 0x10000800 packet 64 limits [8, 32] src_strides [0, 64] dst_strides [134217728, 4194304]
    rngd.descriptor 7 engine 7 src 0xc000100000 dst 0x50000800 packet 64 limits [8, 32] src_strides [0, 64] dst_strides [134217728, 4194304]
    rngd.descriptor 8 engine 0 src 0x10002180 dst 0xc000100800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 9 engine 1 src 0x20002180 dst 0xc000120800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 10 engine 2 src 0x30002180 dst 0xc000140800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 11 engine 3 src 0x40002180 dst 0xc000160800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 12 engine 4 src 0x50002180 dst 0xc000180800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 13 engine 5 src 0x60002180 dst 0xc0001a0800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 14 engine 6 src 0x70002180 dst 0xc0001c0800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.descriptor 15 engine 7 src 0x80002180 dst 0xc0001e0800 packet 2048 limits [64] src_strides [4194304] dst_strides [2048]
    rngd.config 0 fetch {base = 2048, access_log2 = 2, packet_bytes = 4, cast = 1, limits = [16, 1, 1, 1, 1, 1, 1, 1], strides = [4, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 1 vrf_write {base = 128, bytes = 128}
    rngd.config 2 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 3 transpose {elem_log2 = 1, in_rows = 4, in_cols = 32, out_rows = 32}
    rngd.config 4 commit {base = 2176, write_bytes = 8, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 5 fetch {base = 2176, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [32, 8, 1, 1, 1, 1, 1, 1], strides = [8, 256, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 6 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 5}
    rngd.config 7 commit {base = 4224, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 8 fetch words 0x1 {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 9 vector {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 128, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 4, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 10 commit words 0x5 {base = 4480, write_bytes = 32, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 11 fetch words 0xf {base = 4224, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 12 vector words 0x467 {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [981467136, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 13 commit words 0x1 {base = 4352, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 14 fetch words 0x5 {base = 4352, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [16, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 15 vrf_write {base = 0, bytes = 128}
    rngd.config 16 fetch words 0xf {base = 4480, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [4, 32, 1, 1, 1, 1, 1, 1], strides = [32, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 17 vector words 0x601 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 4, vrf_elem_stride = 0, vrf_period = 32, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 18 commit words 0x200d {base = 8576, write_bytes = 16, limits = [4, 32, 1, 1, 1, 1, 1, 1], strides = [16, 64, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
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
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 2 main
    rngd.load 3 main
    rngd.load 4 main
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 3
    rngd.exec main [fetch, collect, transpose, commit]
    rngd.load 5 main bank 1
    rngd.load 6 main bank 1
    rngd.load 7 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 8 main
    rngd.load 9 main
    rngd.load 10 main
    rngd.wait sub
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 11 main bank 1
    rngd.load 12 main bank 1
    rngd.load 13 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 14 sub
    rngd.load 15 sub
    rngd.wait main
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 16 main
    rngd.load 17 main
    rngd.load 18 main
    rngd.wait sub
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.dma 8 tag 6
    rngd.dma 9 tag 7
    rngd.dma 10 tag 1
    rngd.dma 11 tag 2
    rngd.dma 12 tag 4
    rngd.dma 13 tag 5
    rngd.dma 14 tag 0
    rngd.dma 15 tag 3
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.wait tag 1
    rngd.wait tag 2
    rngd.wait tag 4
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 3
  }
}

