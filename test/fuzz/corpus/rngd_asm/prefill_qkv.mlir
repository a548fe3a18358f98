module attributes {tcp.axes = {C2 = 2 : i64, F = 64 : i64, G32 = 32 : i64, H = 1024 : i64, J8 = 8 : i64, JJ = 2 : i64, K2 = 2 : i64, K4 = 4 : i64, L = 8 : i64, O = 4096 : i64, P2 = 2 : i64, P8 = 8 : i64, R32 = 32 : i64, R4 = 4 : i64, T = 512 : i64, U = 32 : i64, V = 8 : i64, X256 = 256 : i64, X64 = 64 : i64, X8 = 8 : i64}, tcp.makespan = 46705 : i64} {
  rngd.executable @prefill_qkv target "rngd-1chip" hash 0x94093f02723e7715 compiler "rngdc 0.1.0" flags 0 makespan 46705 hbm 13772800 {
    rngd.arg @x in bf16 [2, 4, 64, 64, 16] "[T / 256, T % 256 / 64, H / 16, T % 64, H % 16]" offset 0 bytes 1048576
    rngd.arg @rms_weight in bf16 [1024] "H" offset 1048576 bytes 2048
    rngd.arg @w in bf16 [4096, 1024] "[O, H]" offset 1050624 bytes 8388608
    rngd.arg @head_weight in bf16 [4096] "O" offset 9439232 bytes 8192
    rngd.arg @cos in bf16 [2, 8, 64, 4, 8] "[T / 256, F / 8, T % 64, T % 256 / 64, F % 8]" offset 9447424 bytes 65536
    rngd.arg @sin in bf16 [2, 8, 64, 4, 8] "[T / 256, F / 8, T % 64, T % 256 / 64, F % 8]" offset 9512960 bytes 65536
    rngd.arg @y out bf16 [2, 32, 8, 2, 64, 4, 8] "[T / 256, O / 128, O % 64 / 8, O % 128 / 64, T % 64, T % 256 / 64, O % 8]" offset 9578496 bytes 4194304
    rngd.descriptor 0 engine 0 src 0xc000100800 dst 0x10000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 1 engine 1 src 0xc0003c0800 dst 0x26000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 2 engine 2 src 0xc000680800 dst 0x3c000880 packet 2048 limits [1, 10, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 3 engine 4 src 0xc000100800 dst 0x50000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 4 engine 5 src 0xc0003c0800 dst 0x66000880 packet 2048 limits [1, 11, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 5 engine 6 src 0xc000680800 dst 0x7c000880 packet 2048 limits [1, 10, 8, 8, 2] src_strides [0, 262144, 16384, 2048, 131072] dst_strides [1073741824, 33554432, 4194304, 4096, 2048]
    rngd.descriptor 6 engine 3 src 0xc000100000 dst 0x10000800 packet 32 limits [4, 64] src_strides [0, 32] dst_strides [268435456, 4194304]
    rngd.descriptor 7 engine 7 src 0xc000100000 dst 0x50000800 packet 32 limits [4, 64] src_strides [0, 32] dst_strides [268435456, 4194304]
    rngd.descriptor 8 engine 3 src 0xc000912800 dst 0x10008900 packet 4096 limits [1, 32, 8] src_strides [32768, 0, 4096] dst_strides [1073741824, 33554432, 4194304]
    rngd.descriptor 9 engine 7 src 0xc00091a800 dst 0x50008900 packet 4096 limits [1, 32, 8] src_strides [32768, 0, 4096] dst_strides [1073741824, 33554432, 4194304]
    rngd.descriptor 10 engine 3 src 0xc000902800 dst 0x10009900 packet 4096 limits [1, 32, 8] src_strides [32768, 0, 4096] dst_strides [1073741824, 33554432, 4194304]
    rngd.descriptor 11 engine 7 src 0xc00090a800 dst 0x50009900 packet 4096 limits [1, 32, 8] src_strides [32768, 0, 4096] dst_strides [1073741824, 33554432, 4194304]
    rngd.descriptor 12 engine 3 src 0xc000900800 dst 0x10008880 packet 16 limits [1, 32, 8, 2] src_strides [0, 256, 16, 128] dst_strides [1073741824, 33554432, 4194304, 16]
    rngd.descriptor 13 engine 7 src 0xc000900800 dst 0x50008880 packet 16 limits [1, 32, 8, 2] src_strides [0, 256, 16, 128] dst_strides [1073741824, 33554432, 4194304, 16]
    rngd.descriptor 14 engine 0 src 0xc000000000 dst 0x10000000 packet 2048 limits [52] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 15 engine 1 src 0xc00001a000 dst 0x1d000000 packet 2048 limits [51] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 16 engine 3 src 0xc000033800 dst 0x29c00000 packet 2048 limits [153] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 17 engine 4 src 0xc000080000 dst 0x50000000 packet 2048 limits [52] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 18 engine 5 src 0xc00009a000 dst 0x5d000000 packet 2048 limits [51] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 19 engine 7 src 0xc0000b3800 dst 0x69c00000 packet 2048 limits [153] src_strides [2048] dst_strides [4194304]
    rngd.descriptor 20 engine 0 src 0x10021300 dst 0xc000922800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 21 engine 1 src 0x20021300 dst 0xc0009a2800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 22 engine 2 src 0x30021300 dst 0xc000a22800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 23 engine 3 src 0x40021300 dst 0xc000aa2800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 24 engine 4 src 0x50021300 dst 0xc000b22800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 25 engine 5 src 0x60021300 dst 0xc000ba2800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 26 engine 6 src 0x70021300 dst 0xc000c22800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.descriptor 27 engine 7 src 0x80021300 dst 0xc000ca2800 packet 4096 limits [64, 2] src_strides [4194304, 4096] dst_strides [8192, 4096]
    rngd.config 0 fetch {base = 2048, access_log2 = 2, packet_bytes = 4, cast = 1, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [4, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 1 vrf_write {base = 256, bytes = 64}
    rngd.config 2 fetch words 0x5 {base = 34944, access_log2 = 3, packet_bytes = 16, cast = 1, limits = [4, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 3 vrf_write {base = 1344, bytes = 64}
    rngd.config 4 fetch {base = 2176, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [1024, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 5 trf_write {base = 0, lanes_log2 = 3, lane_bytes = 4096}
    rngd.config 6 fetch {base = 0, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 7 transpose {elem_log2 = 1, in_rows = 4, in_cols = 16, out_rows = 16}
    rngd.config 8 commit {base = 43264, write_bytes = 8, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 9 fetch words 0xf {base = 43264, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 10 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 6}
    rngd.config 11 commit {base = 45312, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 12 fetch words 0xf {base = 44288, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 13 vector {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 6}
    rngd.config 14 commit words 0x5 {base = 45440, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 15 fetch words 0xf {base = 0, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 16 vector words 0x603 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 256, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 2, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 17 commit words 0x5 {base = 45824, write_bytes = 32, limits = [128, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 18 fetch words 0xf {base = 45312, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 19 vector words 0x467 {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [981467136, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 20 commit words 0x5 {base = 45568, write_bytes = 32, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 21 fetch words 0x1 {base = 45568, access_log2 = 3, packet_bytes = 8, cast = 0, limits = [32, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 22 vrf_write {base = 0, bytes = 256}
    rngd.config 23 fetch words 0xf {base = 45824, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2, 64, 1, 1, 1, 1, 1, 1], strides = [32, 64, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 24 vector words 0x601 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 4, vrf_elem_stride = 0, vrf_period = 64, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 25 commit words 0x200d {base = 49920, write_bytes = 16, limits = [2, 64, 1, 1, 1, 1, 1, 1], strides = [16, 32, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 26 fetch words 0x1 {base = 49920, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 27 switch {mode = 2, slice1 = 256, slice0 = 1, time0 = 0}
    rngd.config 28 contract {pack = 2, lanes_log2 = 3, mac = 0, packet_elems = 32, trf_base = 0, window = 1, slots = 2, limits = [256, 32, 2, 1, 1, 1, 1, 1], stream_strides = [32, 1, 0, 0, 0, 0, 0, 0], trf_strides = [0, 64, 2048, 0, 0, 0, 0, 0], acc_strides = [0, 0, 1, 0, 0, 0, 0, 0], lane_mode = 0}
    rngd.config 29 commit words 0x1 {base = 51968, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 30 fetch words 0x1f {base = 51968, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [16, 4, 4, 2, 1, 1, 1, 1], strides = [1024, 64, 256, 32, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 31 cast {mode = 1}
    rngd.config 32 transpose {elem_log2 = 1, in_rows = 4, in_cols = 16, out_rows = 16}
    rngd.config 33 commit words 0x200d {base = 68352, write_bytes = 8, limits = [1024, 1, 1, 1, 1, 1, 1, 1], strides = [8, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 34 fetch words 0x1 {base = 51968, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 35 vector words 0x667 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 1344, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 2, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 36 commit words 0x1 {base = 78592, write_bytes = 32, limits = [512, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 37 fetch words 0x1f {base = 68352, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 38 vector words 0x603 {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 3}
    rngd.config 39 commit words 0x5 {base = 76544, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 40 fetch words 0xf {base = 69376, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 41 vector words 0x603 {steps = 4, alu = [15, 8, 10, 14, 0, 0, 0, 0], op = [0, 2, 1, 1, 0, 0, 0, 0], mode = [0, 2, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 8, reduce_tree = 0, inter_group_log2 = 3}
    rngd.config 42 commit words 0x5 {base = 76672, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 43 fetch words 0x1 {base = 70400, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 44 commit words 0x1 {base = 76800, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 45 fetch words 0x1 {base = 71424, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 46 commit words 0x1 {base = 76928, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 47 fetch words 0x1 {base = 72448, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 48 commit words 0x1 {base = 77056, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 49 fetch words 0x1 {base = 73472, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 50 commit words 0x1 {base = 77184, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 51 fetch words 0x1 {base = 74496, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 52 commit words 0x1 {base = 77312, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 53 fetch words 0x1 {base = 75520, access_log2 = 3, packet_bytes = 8, cast = 1, limits = [16, 8, 1, 1, 1, 1, 1, 1], strides = [8, 128, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 54 commit words 0x1 {base = 77440, write_bytes = 16, limits = [8, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 55 fetch words 0xf {base = 76544, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 56 vector words 0x467 {steps = 2, alu = [5, 6, 0, 0, 0, 0, 0, 0], op = [10, 8, 0, 0, 0, 0, 0, 0], mode = [0, 0, 0, 0, 0, 0, 0, 0], imm = [1006632960, 0, 0, 0, 0, 0, 0, 0], imm2 = [897988541, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 0, vrf_elem_stride = 0, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 57 commit words 0x1 {base = 77568, write_bytes = 16, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 58 fetch words 0xf {base = 77568, access_log2 = 4, packet_bytes = 16, cast = 0, limits = [64, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 59 vrf_write {base = 320, bytes = 1024}
    rngd.config 60 fetch words 0x1f {base = 78592, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [2, 16, 4, 4, 1, 1, 1, 1], strides = [32, 1024, 64, 256, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 61 vector words 0x667 {steps = 1, alu = [11, 0, 0, 0, 0, 0, 0, 0], op = [4, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 320, vrf_flit_stride = 4, vrf_elem_stride = 0, vrf_period = 256, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 62 commit words 0x200b {base = 94976, write_bytes = 16, limits = [2, 16, 4, 4, 1, 1, 1, 1], strides = [16, 512, 32, 128, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 63 fetch words 0x1 {base = 35072, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 64 vrf_write {base = 0, bytes = 8192}
    rngd.config 65 fetch words 0x1b {base = 94992, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 66 vector words 0x607 {steps = 2, alu = [5, 8, 0, 0, 0, 0, 0, 0], op = [10, 2, 0, 0, 0, 0, 0, 0], mode = [0, 1, 0, 0, 0, 0, 0, 0], imm = [3212836864, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 67 commit words 0x200f {base = 103168, write_bytes = 32, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 68 fetch words 0x5 {base = 94976, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 69 vector words 0x603 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 70 commit words 0x5 {base = 111360, write_bytes = 32, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 71 fetch words 0x5 {base = 39168, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 72 vrf_write {base = 0, bytes = 8192}
    rngd.config 73 commit words 0x1 {base = 119552, write_bytes = 32, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 74 fetch words 0x5 {base = 94992, access_log2 = 4, packet_bytes = 16, cast = 1, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 75 vector words 0x7 {steps = 1, alu = [8, 0, 0, 0, 0, 0, 0, 0], op = [2, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 76 commit words 0x1 {base = 127744, write_bytes = 32, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 0}
    rngd.config 77 fetch words 0x1 {base = 103168, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 78 fetch words 0x1 {base = 119552, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 79 vector words 0x1 {steps = 1, alu = [5, 0, 0, 0, 0, 0, 0, 0], op = [1, 0, 0, 0, 0, 0, 0, 0], mode = [1, 0, 0, 0, 0, 0, 0, 0], imm = [0, 0, 0, 0, 0, 0, 0, 0], imm2 = [0, 0, 0, 0, 0, 0, 0, 0], vrf_base = 0, vrf_flit_stride = 32, vrf_elem_stride = 4, vrf_period = 0, reduce_slots = 1, reduce_tree = 0, inter_group_log2 = 0}
    rngd.config 80 commit words 0x2005 {base = 135936, write_bytes = 16, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
    rngd.config 81 fetch words 0x1 {base = 111360, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 82 fetch words 0x1 {base = 127744, access_log2 = 5, packet_bytes = 32, cast = 0, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [32, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff]}
    rngd.config 83 commit words 0x1 {base = 140032, write_bytes = 16, limits = [256, 1, 1, 1, 1, 1, 1, 1], strides = [16, 0, 0, 0, 0, 0, 0, 0], slices = [0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff], cast = 1}
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
    rngd.dma 10 tag 8
    rngd.dma 11 tag 9
    rngd.dma 12 tag 10
    rngd.dma 13 tag 11
    rngd.dma 14 tag 12
    rngd.dma 15 tag 13
    rngd.dma 16 tag 14
    rngd.dma 17 tag 15
    rngd.dma 18 tag 16
    rngd.dma 19 tag 17
    rngd.wait sub
    rngd.wait tag 10
    rngd.wait tag 11
    rngd.load 2 sub
    rngd.load 3 sub
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 4 main
    rngd.load 5 main
    rngd.wait tag 2
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 3
    rngd.wait tag 4
    rngd.exec main [fetch, collect, trf]
    rngd.load 6 main bank 1
    rngd.load 7 main bank 1
    rngd.load 8 main bank 1
    rngd.wait tag 14
    rngd.wait tag 17
    rngd.wait tag 13
    rngd.wait tag 16
    rngd.wait tag 12
    rngd.wait tag 15
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, transpose, commit]
    rngd.load 9 main
    rngd.load 10 main
    rngd.load 11 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 12 main bank 1
    rngd.load 13 main bank 1
    rngd.load 14 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 15 main
    rngd.load 16 main
    rngd.load 17 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 18 main bank 1
    rngd.load 19 main bank 1
    rngd.load 20 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 21 sub
    rngd.load 22 sub
    rngd.wait sub
    rngd.wait main
    rngd.exec sub [fetch, collect, vrf]
    rngd.load 23 main
    rngd.load 24 main
    rngd.load 25 main
    rngd.wait sub
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 26 main bank 1
    rngd.load 27 main bank 1
    rngd.load 28 main bank 1
    rngd.load 29 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, switch, collect, contract, commit]
    rngd.load 30 main
    rngd.load 31 main
    rngd.load 32 main
    rngd.load 33 main
    rngd.wait main
    rngd.exec main [fetch, collect, cast, transpose, commit]
    rngd.load 34 main bank 1
    rngd.load 35 main bank 1
    rngd.load 36 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 37 main
    rngd.load 38 main
    rngd.load 39 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 40 main bank 1
    rngd.load 41 main bank 1
    rngd.load 42 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 43 main
    rngd.load 44 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 45 main bank 1
    rngd.load 46 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 47 main
    rngd.load 48 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 49 main bank 1
    rngd.load 50 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 51 main
    rngd.load 52 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 53 main bank 1
    rngd.load 54 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 55 main
    rngd.load 56 main
    rngd.load 57 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 58 main bank 1
    rngd.load 59 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vrf]
    rngd.load 60 main
    rngd.load 61 main
    rngd.load 62 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 63 main bank 1
    rngd.load 64 main bank 1
    rngd.wait tag 6
    rngd.wait tag 7
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vrf]
    rngd.load 65 main
    rngd.load 66 main
    rngd.load 67 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 68 main bank 1
    rngd.load 69 main bank 1
    rngd.load 70 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 71 main
    rngd.load 72 main
    rngd.wait tag 8
    rngd.wait tag 9
    rngd.wait main
    rngd.exec main [fetch, collect, vrf]
    rngd.load 73 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    rngd.load 74 main
    rngd.load 75 main
    rngd.load 76 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 77 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vrf]
    rngd.load 78 main
    rngd.load 79 main
    rngd.load 80 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.load 81 main bank 1
    rngd.wait main
    rngd.exec main bank 1 [fetch, collect, vrf]
    rngd.load 82 main
    rngd.load 83 main
    rngd.wait main
    rngd.exec main [fetch, collect, vector, commit]
    rngd.wait main
    rngd.dma 20 tag 10
    rngd.dma 21 tag 11
    rngd.dma 22 tag 2
    rngd.dma 23 tag 5
    rngd.dma 24 tag 0
    rngd.dma 25 tag 1
    rngd.dma 26 tag 3
    rngd.dma 27 tag 4
    rngd.wait tag 10
    rngd.wait tag 11
    rngd.wait tag 2
    rngd.wait tag 5
    rngd.wait tag 0
    rngd.wait tag 1
    rngd.wait tag 3
    rngd.wait tag 4
  }
}

