#ifndef TCP_BASE_TD
#define TCP_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpAsmInterface.td"

def Tcp_Dialect : Dialect {
  let name = "tcp";
  let cppNamespace = "::rngd::tcp";
  let summary = "Tensor Contraction Processor kernels: mapped tensors, DMA and Tensor Unit passes";
  let description = [{
    The `tcp` dialect is what rngdc kernels are written in. Tensors carry a *mapping* that
    places every logical element on the hardware: HBM tensors are row-major over an element
    mapping; DM tensors map onto clusters, slices and per-slice elements; streams are the
    per-cycle data of one Tensor Unit pass (cluster, slice, time, packet).

    Mappings are strings in the furiosa-opt notation over axes that the module declares in
    `tcp.axes` (e.g. `module attributes {tcp.axes = {H = 1024}}`): `A`, `[A, B]`, `A / n`,
    `A % n`, `E # n`, `E = n`, `1`.

    A Tensor Unit pass is a chain of single-use stream ops on one context, in pipeline order:
    `tcp.fetch` -> `tcp.collect` -> `tcp.vector` -> `tcp.cast` -> `tcp.commit`. There are no
    composite ops: GEMV, RMSNorm or softmax are compositions of passes in the kernel file.

    Entry-function arguments are HBM buffers with `tcp.arg = "in" | "out" | "inout"`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

    /// The alias `type` prints under (`!name = ...`), for modules built in C++ (the stage
    /// generator names its types); types without one print in full, as before.
    void setTypeAlias(::mlir::Type type, ::llvm::StringRef name);
    ::llvm::StringRef getTypeAlias(::mlir::Type type) const;

    ::llvm::DenseMap<::mlir::Type, std::string> typeAliases;
  }];
}

// Every op's results print under the name of the op's location when it is a NameLoc: the
// names that C++-built modules (the stage generator) give their values.
class Tcp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tcp_Dialect, mnemonic, !listconcat(traits, [OpAsmOpInterface])> {
  let extraClassDeclaration = [{
    void getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      ::rngd::tcp::nameResultsFromLocation(getOperation(), setNameFn);
    }
  }];
}
class Tcp_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tcp_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Tcp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tcp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TCP_BASE_TD
