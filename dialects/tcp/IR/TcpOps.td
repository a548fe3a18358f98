#ifndef TCP_OPS_TD
#define TCP_OPS_TD

include "TcpBase.td"
include "TcpTypes.td"
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
  let assemblyFormat = "$context $source attr-dict `:` type($source) `->` type($result)";
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
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tcp_VectorOp : Tcp_Op<"vector", [Pure, SameOperandsAndResultType]> {
  let summary = "one Vector Engine invocation: a chain of ALU stages on 32-bit elements";
  let description = [{
    ```mlir
    %v = tcp.vector %c [add_f 1.0, mul_f 2.0] : !stream
    ```
    Steps run in the Vector Engine's stage order; each ALU at most once. Supported steps:
    `add_i <int>` (FxpAdd), `add_f <float>` (FpFma), `mul_f <float>` (FpMul0). Operands are
    immediates. The stream must be `i32` or `f32`.
  }];
  let arguments = (ins Tcp_StreamType:$input, StrArrayAttr:$steps, ArrayAttr:$immediates);
  let results = (outs Tcp_StreamType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tcp_CastOp : Tcp_Op<"cast", [Pure]> {
  let summary = "the Cast Engine: f32 to bf16, round to nearest even";
  let description = [{
    ```mlir
    %b = tcp.cast %v : !tcp.stream<f32, ...> -> !tcp.stream<bf16, ...>
    ```
    Only the element type changes; the flit is re-padded to 32 bytes.
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_StreamType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tcp_CommitOp : Tcp_Op<"commit", [Pure]> {
  let summary = "end a Tensor Unit pass: write each flit's valid bytes to a DM tensor";
  let description = [{
    The commit adapter trims each flit to its valid bytes (8, 16, 24 or 32) and the commit
    sequencer writes them to the result's per-slice element mapping.

    ```mlir
    %y = tcp.commit %b : !stream -> !ydm
    ```
  }];
  let arguments = (ins Tcp_StreamType:$input);
  let results = (outs Tcp_DmType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // TCP_OPS_TD
