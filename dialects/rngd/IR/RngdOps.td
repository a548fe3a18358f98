#ifndef RNGD_OPS_TD
#define RNGD_OPS_TD

include "RngdBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/EnumAttr.td"

// The command queue contexts (rngd::isa::Context numbers them alike).
def Rngd_Context : I32EnumAttr<"Context", "a command queue context", [
    I32EnumAttrCase<"main", 0>, I32EnumAttrCase<"sub", 1>]> {
  let cppNamespace = "::rngd";
}

// A command word: its ISA form (`getCommand`), which its verifier checks field by field against
// the ISA's limits (rngd::isa::checkCommand), so that every command that verifies encodes.
class Rngd_CommandOp<string mnemonic> : Rngd_Op<mnemonic, [HasParent<"ExecutableOp">]> {
  let extraClassDeclaration = [{
    ::rngd::isa::Command getCommand();
  }];
  let hasVerifier = 1;
}

def Rngd_ExecutableOp : Rngd_Op<"executable", [Symbol, SymbolTable, NoTerminator,
    SingleBlock, IsolatedFromAbove, NoRegionArguments,
    DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "a compiled kernel: header fields and, in order, its records and commands";
  let description = [{
    ```mlir
    rngd.executable @embedding target "rngd-1chip" hash 0x1d2c3b4a compiler "rngdc 0.1.0"
        flags 0 makespan 1026 hbm 4096 {
      rngd.arg @input in bf16 [1024] "H" offset 0 bytes 2048
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target, I64Attr:$target_hash,
                       StrAttr:$compiler, I64Attr:$flags, I64Attr:$makespan, I64Attr:$hbm);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Rngd_ArgOp : Rngd_Op<"arg", [HasParent<"ExecutableOp">, Symbol]> {
  let summary = "one kernel argument: an HBM buffer with its kind, dtype, shape and place";
  let description = [{
    ```mlir
    rngd.arg @input in bf16 [1024] "H" offset 0 bytes 2048
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$kind, StrAttr:$dtype,
                       DenseI64ArrayAttr:$shape, StrAttr:$mapping, I64Attr:$offset,
                       I64Attr:$bytes);
}

def Rngd_DescriptorOp : Rngd_Op<"descriptor", [HasParent<"ExecutableOp">]> {
  let summary = "a DMA descriptor: paired loop nests over source and destination addresses";
  let description = [{
    ```mlir
    rngd.descriptor 0 engine 0 src 0xc000000000 dst 0x10000000 packet 8 limits [256]
        src_strides [8] dst_strides [4194304]
    rngd.descriptor 1 engine 0 src 0x10000000 dst 0xc000000000 packet 2048 limits [1]
        src_strides [0] dst_strides [0] scatter index 0xc000100000 count 1 loop 0
    ```
    `gather` / `scatter`: iteration i of loop `loop` takes that side's address term from the
    i32 byte offset at `index + 4 i` (HBM) instead of i x stride. The fields, their keywords
    and widths are runtime/include/rngd/IsaDescriptor.def's; the parser, printer and verifier
    iterate that table.
  }];
  // One attribute per row of rngd/IsaDescriptor.def under the row's name (ODS cannot read the
  // .def; the parser sets them by those names, so a mismatch fails every descriptor's checks).
  let arguments = (ins I64Attr:$index, DefaultValuedAttr<I64Attr, "0">:$kind, I64Attr:$engine,
                       I64Attr:$src, I64Attr:$dst, I64Attr:$packet_bytes,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$src_strides,
                       DenseI64ArrayAttr:$dst_strides,
                       DefaultValuedAttr<I64Attr, "0">:$index_address,
                       DefaultValuedAttr<I64Attr, "0">:$index_count,
                       DefaultValuedAttr<I64Attr, "0">:$indirect_loop);
  let extraClassDeclaration = [{
    /// The fields as the text form holds them, by the table's rows.
    ::rngd::isa::DescriptorValues getDescriptorValues();
    /// The descriptor as the ISA encodes it (fields checked by the verifier).
    ::rngd::isa::Descriptor getIsaDescriptor();
  }];
  let hasVerifier = 1;
}

def Rngd_ConfigOp : Rngd_Op<"config", [HasParent<"ExecutableOp">]> {
  let summary = "a configuration block: the register fields of one unit";
  let description = [{
    ```mlir
    rngd.config 0 cast {mode = 1}
    rngd.config 1 fetch words 0x3f {base = 0, ...}
    ```
    Fields are listed in the unit's table order (docs/isa.md); arrays in brackets. `words`
    makes a partial block: its load writes only the 64-bit register words the mask names
    (bit w = word w); the others must already hold the block's values.
  }];
  let arguments = (ins I64Attr:$index, StrAttr:$unit, DenseI64ArrayAttr:$values,
                       OptionalAttr<I64Attr>:$words);
  let hasVerifier = 1;
}

def Rngd_LoadOp : Rngd_CommandOp<"load"> {
  let summary = "command word: load a configuration block into its unit on a context";
  let description = [{
    ```mlir
    rngd.load 4 main
    rngd.load 5 main bank 1
    ```
    The main context has two register banks (bank 0 when `bank` is absent), sub one.
  }];
  let arguments = (ins I64Attr:$config, Rngd_Context:$context,
                       DefaultValuedAttr<I64Attr, "0">:$bank);
}

def Rngd_ExecOp : Rngd_CommandOp<"exec"> {
  let summary = "command word: start a Tensor Unit pass on the listed units";
  let description = [{
    ```mlir
    rngd.exec main bank 1 [fetch, collect, vector, commit]
    ```
    The pass reads the registers of the context's bank (bank 0 when `bank` is absent).
  }];
  let arguments = (ins Rngd_Context:$context, I64Attr:$units,
                       DefaultValuedAttr<I64Attr, "0">:$bank);
}

def Rngd_WaitOp : Rngd_CommandOp<"wait"> {
  let summary = "command word: block the queue until a context's pass or a DMA tag completes";
  let description = [{
    ```mlir
    rngd.wait main
    rngd.wait tag 3
    ```
  }];
  let arguments = (ins OptionalAttr<Rngd_Context>:$context, OptionalAttr<I64Attr>:$tag);
}

def Rngd_DmaOp : Rngd_CommandOp<"dma"> {
  let summary = "command word: start the DMA of a descriptor under a tag";
  let arguments = (ins I64Attr:$descriptor, I64Attr:$tag);
}

#endif // RNGD_OPS_TD
