module attributes {tcp.axes = {C2 = 2 : i64, G32 = 32 : i64, H = 1024 : i64, J8 = 8 : i64, JJ = 2 : i64, K2 = 2 : i64, K4 = 4 : i64, L = 8 : i64, O = 4096 : i64, P2 = 2 : i64, P8 = 8 : i64, R4 = 4 : i64, T = 512 : i64, U = 32 : i64, V = 8 : i64, X256 = 256 : i64, X64 = 64 : i64, X8 = 8 : i64}, tcp.makespan = 38941 : i64} {
  rngd.executable @prefill_qkv target "rngd-1chip" hash 0x94093f02723e7715 compiler "rngdc 0.1.0" flags 0 makespan 38941 hbm 13641728 {
    rngd.arg @x in bf16 [2, 4, 64, 64, 16] "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]" offset 0 bytes 1048576
    rngd.arg @rms_weight in bf16 [1024] "H" offset 1048576 bytes 2048
    rngd.arg @w in bf16 [4096, 1024] "[O, H]" offset 1050624 bytes 8388608
    rngd.arg @head_weight in bf16 [4096] "O" offset 9439232 bytes 8192
    rngd.arg @y out bf16 [2, 32, 8, 64, 4, 2, 8] "[T / 256, O / 128, O % 64 / 8, T % 64, T % 256 / 64, O % 128 / 64, O % 8]" offset 9447424 bytes 4194304
    rngd.descriptor 0 engine 0 src 0xc000100800 dst 0x10000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 1 engine 1 src 0xc0003c0800 dst 0x26000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 2 engine 2 src 0xc000680800 dst 0x3c000880 packet 2048 limits [1, 10, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 3 engine 4 src 0xc000100800 dst 0x50000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 4 engine 5 src 0xc0003c0800 dst 0x66000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 5 engine 6 src 0xc000680800 dst 0x7c000880 packet 2048 limits [1, 10, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 6 engine 3 src 0xc000100000 dst 0x10000800 packet 32 limits [4, 64] src_strides [0, 32] dst_strides [268435456, 4194304]
    rngd.descriptor 7 engine 7 src 0xc000100000 dst 0x50000800 packet 32 limits [4, 64] src_strides [0, 32] dst_strides [268435456, 4194304]
    rngd.descriptor 8 engine 3 src 0xc000900800 dst 0x10008880 packet 16 limits [1, 32, 8, 2] src_strides [0, 256, 16, 128] dst_strides [1073741824, 33554432, 4194304, 16]
    rngd.descriptor 9 engine 7 src 0xc000900800 dst 0x50008880 packet 16 limits [1, 32, 8, 2] src_strides [0, 256, 16, 128] dst_strides [1073741824, 33554432, 4194304, 16]
    rngd.descriptor 10 engine 3 src 0xc000000000 dst 0x10000000 packet 2048 limits [256] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 11 engine 7 src 0xc000080000 dst 0x50000000 packet 2048 limits [256] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 12 engine 0 src 0x10015300 dst 0xc000902800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 13 engine 1 src 0x20015300 dst 0xc000982800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 14 engine 2 src 0x30015300 dst 0xc000a02800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 15 engine 3 src 0x40015300 dst 0xc000a82800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 16 engine 4 src 0x50015300 dst 0xc000b02800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 17 engine 5 src 0x60015300 dst 0xc000b82800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 18 engine 6 src 0x70015300 dst 0xc000c02800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 19 engine 7 src 0x80015300 dst 0xc000c82800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.config 0 fetch {base = 2048, access_log2 = 2, packet_bytes = 4, cast = 1, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [4, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 1 vrf_write {base = 256, bytes = 64}
    rngd.config 2 fetch words 0x5 {base = 34944, access_log2 = 3, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 3 vrf_write {base = 1344, bytes = 64}
    rngd.config 4 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 5 transpose {elem_log2 = 1, in_rows = 4, in_cols = 16, out_rows = 16}
    rngd.config 6 commit {base = 35072, write_bytes = 8, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 7 fetch {base = 35072, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 8 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 6}
    rngd.config 9 commit {base = 37120, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 10 fetch words 0xf {base = 36096, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 11 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 6}
    rngd.config 12 commit words 0x5 {base = 37248, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 13 fetch words 0xf {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 14 vector words 0x603 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 256, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 2, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 15 commit words 0x5 {base = 37632, write_bytes = 32, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 16 fetch words 0xf {base = 37120, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 17 vector words 0x467 {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [981467136, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 18 commit words 0x5 {base = 37376, write_bytes = 32, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 19 fetch words 0x1 {base = 37376, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [32, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 20 vrf_write {base = 0, bytes = 256}
    rngd.config 21 fetch words 0xf {base = 37632, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2, 64, 1, 1, 1, 1, 1, 1], strides = [32, 64, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 22 vector words 0x601 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 4, vrf_elem_stride = 0, vrf_period = 64, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 23 commit words 0x200d {base = 41728, write_bytes = 16, limits = [2, 64, 1, 1, 1, 1, 1, 1], strides = [16, 32, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 24 fetch words 0x1 {base = 2176, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1024, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 25 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 4096}
    rngd.config 26 fetch words 0xb {base = 41728, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 27 switch {mode = 2, slice1 = 256, slice0 = 1, time0 = 0}
    rngd.config 28 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 1, slots = 2, limits = [256, 32, 2, 1, 1, 1, 1, 1], stream_strides = [32, 1, 0, 0, 0, 0, 0, 0], trf_strides = [0, 64, 2048, 0, 0, 0, 0, 0], acc_strides = [0, 0, 1, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 29 commit words 0x200d {base = 43776, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 30 fetch words 0x1f {base = 43776, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [16, 4, 4, 2, 1, 1, 1, 1], strides = [1024, 64, 256, 32, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 31 cast {mode = 1}
    rngd.config 32 commit words 0x5 {base = 60160, write_bytes = 8, limits = [1024, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 33 fetch words 0x1 {base = 43776, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 34 vector words 0x601 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 1344, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 2, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 35 commit words 0x1 {base = 70400, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 36 fetch words 0x1f {base = 60160, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 37 vector words 0x467 {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 3}
    rngd.config 38 commit words 0x5 {base = 68352, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 39 fetch words 0xf {base = 61184, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 40 vector words 0x603 {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 3}
    rngd.config 41 commit words 0x5 {base = 68480, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 42 fetch words 0x1 {base = 62208, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 43 commit words 0x1 {base = 68608, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 44 fetch words 0x1 {base = 63232, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 45 commit words 0x1 {base = 68736, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 46 fetch words 0x1 {base = 64256, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 47 commit words 0x1 {base = 68864, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 48 fetch words 0x1 {base = 65280, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 49 commit words 0x1 {base = 68992, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 50 fetch words 0x1 {base = 66304, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 51 commit words 0x1 {base = 69120, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 52 fetch words 0x1 {base = 67328, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 53 commit words 0x1 {base = 69248, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 54 fetch words 0xf {base = 68352, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 55 vector words 0x467 {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1006632960, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 56 commit words 0x1 {base = 69376, write_bytes = 16, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 57 fetch words 0xf {base = 69376, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 58 vrf_write {base = 320, bytes = 1024}
    rngd.config 59 fetch words 0x1f {base = 70400, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2, 16, 4, 4, 1, 1, 1, 1], strides = [32, 1024, 64, 256, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 60 vector words 0x667 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 320, vrf_flit_stride = 4, vrf_elem_stride = 0, vrf_period = 256, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 61 commit words 0x200b {base = 86784, write_bytes = 16, limits = [2, 16, 4, 4, 1, 1, 1, 1], strides = [16, 512, 32, 128, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
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
    rngd.dma 8 tag 6
    rngd.dma 9 tag 7
    rngd.wait sub
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.load 2 sub
    rngd.load 3 sub
    rngd.exec sub [fetch, collect, vrf]
    rngd.dma 10 tag 6
    rngd.dma 11 tag 7
    rngd.load 4 main
    rngd.load 5 main
    rngd.load 6 main
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.exec main [fetch, collect, transpose, commit]
    rngd.load 7 main bank 1
    rngd.load 8 main bank 1
    rngd.load 9 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 10 main
    rngd.load 11 main
    rngd.load 12 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 13 main bank 1
    rngd.load 14 main bank 1
    rngd.load 15 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 16 main
    rngd.load 17 main
    rngd.load 18 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 19 sub
    rngd.load 20 sub
    rngd.wait sub
    rngd.wait main
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 21 main bank 1
    rngd.load 22 main bank 1
    rngd.load 23 main bank 1
    rngd.wait sub
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 24 main
    rngd.load 25 main
    rngd.wait main
    rngd.wait tag 2
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 3
    rngd.wait tag 4
    rngd.exec main [fetch, collect, trf]
    rngd.load 26 main bank 1
    rngd.load 27 main bank 1
    rngd.load 28 main bank 1
    rngd.load 29 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, switch, collect, contract, commit]
    rngd.load 30 main
    rngd.load 31 main
    rngd.load 32 main
    rngd.wait main
    rngd.exec main [fetch, collect, cast, transpose, commit]
    rngd.load 33 main bank 1
    rngd.load 34 main bank 1
    rngd.load 35 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 36 main
    rngd.load 37 main
    rngd.load 38 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 39 main bank 1
    rngd.load 40 main bank 1
    rngd.load 41 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 42 main
    rngd.load 43 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 44 main bank 1
    rngd.load 45 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 46 main
    rngd.load 47 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 48 main bank 1
    rngd.load 49 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 50 main
    rngd.load 51 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 52 main bank 1
    rngd.load 53 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 54 main
    rngd.load 55 main
    rngd.load 56 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 57 main bank 1
    rngd.load 58 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vrf]
    rngd.load 59 main
    rngd.load 60 main
    rngd.load 61 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.dma 12 tag 6
    rngd.dma 13 tag 7
    rngd.dma 14 tag 2
    rngd.dma 15 tag 5
    rngd.dma 16 tag 0
    rngd.dma 17 tag 1
    rngd.dma 18 tag 3
    rngd.dma 19 tag 4
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.wait tag 2
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 3
    rngd.wait tag 4
  }
}

