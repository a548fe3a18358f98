#ifndef RNGD_BASE_TD
#define RNGD_BASE_TD

include "mlir/IR/OpBase.td"

def Rngd_Dialect : Dialect {
  let name = "rngd";
  let cppNamespace = "::rngd";
  let summary = "the RNGD command stream: one op per command word, descriptor and config block";
  let description = [{
    The `rngd` dialect is the text form of a compiled kernel. An `rngd.executable` holds the
    argument table, the DMA descriptors, the configuration blocks and the command words in
    queue order. `rngd-dump` prints an executable file in exactly this form and `rngdc`
    assembles it back to identical bytes. docs/isa.md documents every encoding.
  }];
}

class Rngd_Op<string mnemonic, list<Trait> traits = []> : Op<Rngd_Dialect, mnemonic, traits> {
  let hasCustomAssemblyFormat = 1;
}

#endif // RNGD_BASE_TD
