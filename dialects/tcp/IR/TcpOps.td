#ifndef TCP_OPS_TD
#define TCP_OPS_TD

include "TcpBase.td"
include "TcpTypes.td"
include "TcpAttrs.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Tcp_ContextMain : I32EnumAttrCase<"main", 0>;
def Tcp_ContextSub : I32EnumAttrCase<"sub", 1>;
def Tcp_Context : I32EnumAttr<"Context", "Tensor Unit execution context",
                              [Tcp_ContextMain, Tcp_ContextSub]> {
  let cppNamespace = "::rngd::tcp";
}

def Tcp_AnyTensor : AnyTypeOf<[Tcp_HbmType, Tcp_DmType]>;

def Tcp_DmaOp : Tcp_Op<"dma", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "move a tensor between HBM and DM with a Tensor DMA engine";
  let description = [{
    Moves every logical element of `source` to the destination placement. Writing into an
    HBM buffer (an entry argument of kind `out`/`inout`) uses `into`; moving to DM produces a
    new DM value that `tcp-allocate-memory` places:

    ```mlir
    %x = tcp.dma %input : !tcp.hbm<bf16, "H"> -> !xdm
    tcp.dma %x into %out : !xdm -> !tcp.hbm<bf16, "H">
    tcp.dma %input into %out : !tcp.hbm<bf16, "H"> -> !tcp.hbm<bf16, "H">
    ```

    The loop nest (at most 8 loops, packets of at most 4096 contiguous bytes, 8-byte aligned
    when DM is involved) is derived from the two mappings; the verifier rejects any pair that
    the hardware descriptor cannot express.
  }];
  let arguments = (ins Tcp_AnyTensor:$source, Optional<Tcp_HbmType>:$dest);
  let results = (outs Optional<Tcp_DmType>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tcp_ViewOp : Tcp_Op<"view", [Pure]> {
  let summary = "a contiguous tile of an HBM buffer, with a mapping of its own";
  let description = [{
    The cells `[offset, offset + size)` of the source (row-major over its mapping, padding
    included), where size is the result mapping's cell count:
    ```mlir
    %tile = tcp.view %lm_head offset 25165824 : !tcp.hbm<bf16, "[W # 155648 / 8192, W # 155648 % 8192, H]">
                                              -> !tcp.hbm<bf16, "[R, H]">
    ```
    The view aliases the source: reading it reads the argument, writing it writes the
    argument (whose kind decides which is allowed).
  }];
  let arguments = (ins Tcp_HbmType:$source, I64Attr:$offset);
  let results = (outs Tcp_HbmType:$result);
  let assemblyFormat = [{
    $source `offset` $offset attr-dict `:` custom<HbmType>(type($source))
      `->` custom<HbmType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_ReinterpretOp : Tcp_Op<"reinterpret", [Pure]> {
  let summary = "the same DM bytes under another mapping";
  let description = [{
    Gives a DM tensor's per-slice bytes a new element mapping, e.g. to contract a vector
    computed over `[N, G, D]` with weights laid out over `Q`. Nothing moves: the result
    aliases the source (same slices, same address, same bytes per slice).
    ```mlir
    %q = tcp.reinterpret %a : !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "[N, G, D]">
                           -> !tcp.dm<bf16, cluster = "1 # 2", slice = "R # 256", elem = "Q">
    ```
  }];
  let arguments = (ins Tcp_DmType:$source);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` custom<DmType>(type($source)) `->` custom<DmType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_DmViewOp : Tcp_Op<"dm_view", [Pure]> {
  let summary = "a window of a DM tensor, to read part of it";
  let description = [{
    The cells `[offset, offset + size)` of a DM tensor with a mapping of its own (same slices,
    nothing moves), to fetch or copy part of a tensor: the second half of each slice's rows,
    say. A window is read, never written.
    ```mlir
    %hi = tcp.dm_view %vt offset 2048 : !tcp.dm<bf16, ..., elem = "[D, T % 32]">
                                      -> !tcp.dm<bf16, ..., elem = "[DL, T % 32]">
    ```
    With `slices S`, the view may occupy some of the source's slices, its slice s being the
    source's slice s + S (global slice ids; S = 0: the first ones): a DMA can then copy the part
    of a tensor that some of its slices hold (the k heads' rows of a tensor holding every
    head). Such a view is read only by DMAs (a pass reads its own slices).
  }];
  let arguments = (ins Tcp_DmType:$source, I64Attr:$offset, OptionalAttr<I64Attr>:$slices);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = [{
    $source `offset` $offset (`slices` $slices^)? attr-dict `:` custom<DmType>(type($source))
      `->` custom<DmType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_DmJoinOp : Tcp_Op<"dm_join", [Pure]> {
  let summary = "DM tensors written by separate passes or DMAs, read as one";
  let description = [{
    Part k is the cells `[k n, (k + 1) n)` of every slice's part of the result (n: a part's
    cells per slice), so a tensor can be produced piece by piece (a chunk of tokens per pass,
    each within the VRF's or a reducer's reach) and read whole. Nothing moves: the pieces are
    written where the result's cells are (tcp-allocate-memory places the result when its
    first part is written). Every part is one `tcp.commit` or `tcp.dma` result, read only
    here; the parts have one type; the result has their element type and slices, and its
    element mapping is a factor of as many cells as there are parts followed by the parts'
    mapping.
    ```mlir
    %s = tcp.dm_join %s0, %s1 : !tcp.dm<f32, ..., elem = "U">, !tcp.dm<f32, ..., elem = "U">
                             -> !tcp.dm<f32, ..., elem = "[P, U]">
    ```
  }];
  let arguments = (ins Variadic<Tcp_DmType>:$parts);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = "$parts attr-dict `:` type($parts) `->` custom<DmType>(type($result))";
  let hasVerifier = 1;
}

def Tcp_VrfViewOp : Tcp_Op<"vrf_view", [Pure]> {
  let summary = "a window of a VRF tensor, for Vector Engine operands";
  let description = [{
    The cells `[offset, offset + size)` of a VRF tensor with a mapping of its own (same slices,
    nothing moves). Storing x twice and viewing it at half its length reads x with its halves
    swapped, as rotary embeddings need:
    ```mlir
    %swapped = tcp.vrf_view %xx offset 64 : !tcp.vrf<f32, ..., elem = "[C2, D]">
                                          -> !tcp.vrf<f32, ..., elem = "D">
    ```
  }];
  let arguments = (ins Tcp_VrfType:$source, I64Attr:$offset);
  let results = (outs Tcp_VrfType:$result);
  let assemblyFormat = [{
    $source `offset` $offset attr-dict `:` custom<VrfType>(type($source))
      `->` custom<VrfType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_DmaScatterOp : Tcp_Op<"dma_scatter", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "write the rows of a DM tensor into HBM at byte offsets read from HBM";
  let description = [{
    ```mlir
    tcp.dma_scatter %k into %k_cache at %kv_offset
        : !tcp.dm<bf16, cluster = "1 # 2", slice = "1 # 256", elem = "[N, D]">,
          !tcp.hbm<i32, "K"> -> !tcp.hbm<bf16, "[T, N, D]">
    ```
    The offsets tensor's one axis (K) numbers the rows; row k goes to byte offset
    `offsets[k]` of the destination, whose outermost factor (T) the offsets replace. The
    simulator checks every row against the destination's bounds.
  }];
  let arguments = (ins Tcp_DmType:$source, Tcp_HbmType:$dest, Tcp_HbmType:$offsets);
  let assemblyFormat = [{
    $source `into` $dest `at` $offsets attr-dict `:` custom<DmType>(type($source)) `,`
      custom<HbmType>(type($offsets))
      `->` custom<HbmType>(type($dest))
  }];
  let hasVerifier = 1;
}

def Tcp_DmaGatherOp : Tcp_Op<"dma_gather", [MemoryEffects<[MemRead]>]> {
  let summary = "read rows of an HBM tensor at byte offsets read from HBM into DM";
  let description = [{
    ```mlir
    %rows = tcp.dma_gather %table at %offsets : !tcp.hbm<bf16, "[W, H]">, !tcp.hbm<i32, "K">
        -> !tcp.dm<bf16, cluster = "1 # 2", slice = "K", elem = "H">
    ```
    Row k of the result is read at byte offset `offsets[k]` of the source, whose outermost
    factor (W) the offsets replace.
  }];
  let arguments = (ins Tcp_HbmType:$source, Tcp_HbmType:$offsets);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = [{
    $source `at` $offsets attr-dict `:` custom<HbmType>(type($source)) `,`
      custom<HbmType>(type($offsets))
      `->` custom<DmType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_FetchOp : Tcp_Op<"fetch", [Pure]> {
  let summary = "start a Tensor Unit pass: read a DM tensor into a stream";
  let description = [{
    Each slice reads its own DM with the fetch sequencer, in the order of the result's `time`
    (major) and `packet` (minor) mappings. A result element type of `f32` over a `bf16` source
    is the fetch-adapter cast.

    ```mlir
    %s = tcp.fetch main %x : !xdm -> !tcp.stream<f32, cluster = "1 # 2",
                                  slice = "H / 8 # 256", time = "1", packet = "H % 8">
    ```
  }];
  let arguments = (ins Tcp_Context:$context, Tcp_DmType:$source);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = [{
    $context $source attr-dict `:` custom<DmType>(type($source))
      `->` custom<StreamType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_SwitchModeBroadcast01 : I32EnumAttrCase<"broadcast01", 1>;
def Tcp_SwitchModeBroadcast1 : I32EnumAttrCase<"broadcast1", 2>;
def Tcp_SwitchModeTranspose : I32EnumAttrCase<"transpose", 3>;
def Tcp_SwitchModeInterTranspose : I32EnumAttrCase<"inter_transpose", 4>;
def Tcp_SwitchModeTransposedBroadcast1 : I32EnumAttrCase<"transposed_broadcast1", 5>;
def Tcp_SwitchMode : I32EnumAttr<"SwitchMode", "Switch Engine configuration",
                                 [Tcp_SwitchModeBroadcast01, Tcp_SwitchModeBroadcast1,
                                  Tcp_SwitchModeTranspose, Tcp_SwitchModeInterTranspose,
                                  Tcp_SwitchModeTransposedBroadcast1]> {
  let cppNamespace = "::rngd::tcp";
}

def Tcp_SwitchOp : Tcp_Op<"switch", [Pure]> {
  let summary = "the Switch Engine: move packets between the slices of a ring";
  let description = [{
    Between fetch and collect. The input slice mapping splits into `[slice2, slice1, slice0]`:
    - `broadcast1`: slice1 moves to the innermost time; a fresh axis of the same size takes its
      place in the slice mapping, so every slice of a ring receives the ring's packets.
      ```mlir
      %b = tcp.switch broadcast1 %f : !tcp.stream<f32, ..., slice = "[A / 4, A % 4]", time = "B", ...>
               -> !tcp.stream<f32, ..., slice = "[A / 4, X]", time = "[B, A % 4]", ...>
      ```
    - `broadcast01`: slice1 and slice0 both move into time (`[time1, slice1, time0, slice0]`);
      two fresh axes take their places.
    - `transpose`: slice1 and slice0 swap places in the slice mapping; time is unchanged.
    - `inter_transpose`: slice1 swaps with the time factor time1 of the same size
      (`[time2, time1, time0]` -> `[time2, slice1, time0]`).
    - `transposed_broadcast1`: slice0 moves to the innermost time; slice1 becomes the innermost
      slice factor behind a fresh axis.
    The ring (slice1 x slice0 slices) is a power of two within one cluster; cycles are
    ring_size x Time x flits per packet.
  }];
  let arguments = (ins Tcp_SwitchMode:$mode, Tcp_StreamType:$input);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = [{
    $mode $input attr-dict `:` custom<StreamType>(type($input))
      `->` custom<StreamType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_TransposeOp : Tcp_Op<"transpose", [Pure]> {
  let summary = "the Transpose Engine: swap time and packet within groups of flits";
  let description = [{
    The input time ends in `[..., R, D]` (R rows, D flits per row) with a packet of 8 valid
    elements; the result's time is `[..., D, packet]` and its packet is R (each row travels in
    its own flit, padded by the Align stage).
    Limits: R <= 8 (8-bit), 4 (16-bit), 2 (32-bit) rows; rows of 8, 16 or 32 elements.
    ```mlir
    %t = tcp.transpose %v : !tcp.stream<bf16, ..., time = "[A, B]", packet = "C"> ->
                            !tcp.stream<bf16, ..., time = "C", packet = "B">
    ```
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<StreamType>(type($input)) `->` custom<StreamType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_CollectOp : Tcp_Op<"collect", [Pure, SameOperandsAndResultType]> {
  let summary = "pad each packet to one 32-byte flit";
  let description = [{
    ```mlir
    %c = tcp.collect %s : !stream
    ```
    Packets of fewer than 32 bytes are zero-padded to one flit; every engine after Collect
    consumes one flit per cycle.
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = "$input attr-dict `:` custom<StreamType>(type($input))";
  let hasVerifier = 1;
}

def Tcp_VectorOp : Tcp_Op<"vector", [Pure]> {
  let summary = "one Vector Engine invocation: a chain of ALU stages on 32-bit elements";
  let description = [{
    ```mlir
    %v = tcp.vector %c [stash, mul_f stash, reduce_add_f, inter_add_f] : !in -> !out
    %y = tcp.vector %x [sub_f vrf(%m), exp_f, div_f 2.0] : !s
    ```
    Steps run in the Vector Engine's stage order, each ALU at most once (a second `mul_f`
    uses FpMul1). Operands are an immediate, `stash` (the value saved by a `stash` step) or
    `vrf(%t)` (a VRF tensor; one per invocation). At most 3 immediates per invocation.
    Steps: `add_i sub_i mul_i to_f32` (i32), `add_f sub_f mul_f div_f max_f min_f
    clip_add_f` (binary f32), `fma_f a, b` (x * a + b), `exp_f sqrt_f sigmoid_f`, `to_i32`,
    `reduce_add_f reduce_max_f` (intra-slice: the result type keeps the innermost time
    factors as slots and packet `1 # 2` for a full packet reduction), `inter_add_f
    inter_max_f` (inter-slice: the result replaces the innermost slice factors by a fresh
    axis), `stash`. The result type is omitted when it equals the input's.
  }];
  let arguments = (ins Tcp_StreamType:$input, Variadic<Tcp_VrfType>:$vrf_operands,
                       StrArrayAttr:$steps, ArrayAttr:$operands, ArrayAttr:$addends);
  let results = (outs Tcp_StreamType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tcp_CastOp : Tcp_Op<"cast", [Pure]> {
  let summary = "the Cast Engine: f32 to bf16 (round to nearest even), i32 to i8 (saturating)";
  let description = [{
    ```mlir
    %b = tcp.cast %v : !tcp.stream<f32, ...> -> !tcp.stream<bf16, ...>
    ```
    Only the element type changes; the flit is re-padded to 32 bytes.
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<StreamType>(type($input)) `->` custom<StreamType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_ToTrfOp : Tcp_Op<"to_trf", [Pure]> {
  let summary = "end a pass by storing the stream in the Tensor Register File";
  let description = [{
    ```mlir
    %w = tcp.to_trf %c : !stream -> !tcp.trf<bf16, cluster = "1 # 2", slice = "I / 32 # 256",
                                               lane = "I % 8", elem = "[I / 8 % 4, J]">
    ```
    The stream's `[time, packet]` order must equal the TRF's `[lane, elem]` order: lane 0 is
    filled first. Capacity: 64 KB per slice shared by the lanes. `{region = "first"}` or
    `{region = "second"}` places the tensor in one half of every lane (half the capacity), so
    that the next tensor can load into the other half while this one is read.
  }];
  let arguments = (ins Tcp_StreamType:$input, OptionalAttr<StrAttr>:$region);
  let results = (outs Tcp_TrfType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<StreamType>(type($input)) `->` custom<TrfType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_TrfJoinOp : Tcp_Op<"trf_join", [Pure]> {
  let summary = "two TRF tensors loaded by two passes, read as one with their lanes interleaved";
  let description = [{
    Lane l of `even` becomes lane 2l of the result and lane l of `odd` lane 2l + 1, so a
    tensor can be loaded in two halves: the first half's TRF load runs while the second half's
    weights still stream in, and a contraction reads the whole. Nothing moves: the two loads
    write where the result's lanes are (tcp-allocate-memory places `odd` one lane segment of
    the result after `even`). Both operands come straight from `tcp.to_trf`, are read only
    here, and have the same slices, element type and lane size; the result has twice their
    lanes.
    ```mlir
    %w = tcp.trf_join %even, %odd : !tcp.trf<bf16, ..., lane = "E % 2", elem = "L">,
                                    !tcp.trf<bf16, ..., lane = "E % 2", elem = "L">
                                 -> !tcp.trf<bf16, ..., lane = "H % 4", elem = "L">
    ```
  }];
  let arguments = (ins Tcp_TrfType:$even, Tcp_TrfType:$odd);
  let results = (outs Tcp_TrfType:$result);
  let assemblyFormat = [{
    $even `,` $odd attr-dict `:` custom<TrfType>(type($even)) `,` custom<TrfType>(type($odd))
      `->` custom<TrfType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_ToVrfOp : Tcp_Op<"to_vrf", [Pure]> {
  let summary = "end a pass by storing the stream in the Vector Register File";
  let description = [{
    ```mlir
    %m = tcp.to_vrf %c : !stream -> !tcp.vrf<f32, cluster = "1 # 2", slice = "R # 256", elem = "1 # 2">
    ```
    The stream's `[time, packet]` order must equal the VRF's element order. 8 KB per slice.
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_VrfType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<StreamType>(type($input)) `->` custom<VrfType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_ContractOp : Tcp_Op<"contract", [Pure]> {
  let summary = "the Contraction Engine: stream x TRF, reduced over packet and time";
  let description = [{
    ```mlir
    %y = tcp.contract %x, %w pack 2 : !xs, !wtrf -> !tcp.stream<f32, cluster = "1 # 2",
             slice = "I / 32 # 256", time = "I / 8 % 4", packet = "I % 8">
    ```
    The stream adapter packs `pack` (1 or 2) flits into one packet (the innermost time factor
    supplies the second flit); each cycle one packet multiplies every lane's TRF row and the
    packet reducer sums it. Stream time factors whose axis the TRF holds are contracted by the
    time reducer; TRF element factors the stream lacks are broadcast in time (innermost). The
    result's time is the kept factors in order, its packet the TRF lanes padded to 8
    (interleaved lane folding). With `{sequential}` the lane folder emits one flit per lane
    instead: the result's time is the kept factors followed by the lanes, its packet `1 # 8`.
    bf16 x bf16 -> f32 and i8 x i8 -> i32. Main context only.
  }];
  let arguments = (ins Tcp_StreamType:$input, Tcp_TrfType:$weights,
                       ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<2>]>:$pack,
                       UnitAttr:$sequential);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = [{
    $input `,` $weights `pack` $pack attr-dict `:` custom<StreamType>(type($input)) `,`
      custom<TrfType>(type($weights))
      `->` custom<StreamType>(type($result))
  }];
  let hasVerifier = 1;
}

def Tcp_CommitOp : Tcp_Op<"commit", [Pure]> {
  let summary = "end a Tensor Unit pass: write each flit's valid bytes to a DM tensor";
  let description = [{
    The commit adapter trims each flit to its valid bytes (8, 16, 24 or 32) and the commit
    sequencer writes them to the result's per-slice element mapping. `{cast}` converts f32 to
    bf16 in the commit adapter (main context only), which leaves the Vector Engine free.

    ```mlir
    %y = tcp.commit %b : !stream -> !ydm
    %z = tcp.commit %v {cast} : !f32stream -> !bf16dm
    ```
  }];
  let arguments = (ins Tcp_StreamType:$input, UnitAttr:$cast);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = [{
    $input attr-dict `:` custom<StreamType>(type($input)) `->` custom<DmType>(type($result))
  }];
  let hasVerifier = 1;
}

#endif // TCP_OPS_TD
