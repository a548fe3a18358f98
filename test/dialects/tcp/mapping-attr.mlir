// RUN: rngd-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// A mapping is typed IR (#tcp.mapping): its text is parsed once, when the attribute is made,
// and the tcp types hold it (printed there as the quoted text). A syntax error is refused at
// the text.

// CHECK: func.func @f() attributes {t.m = #tcp.mapping<"[I / 8 % 4, J]">}
func.func @f() attributes {t.m = #tcp.mapping<"[I / 8 % 4, J]">} {
  return
}

// -----

// expected-error @+1 {{invalid mapping "H / ": }}
func.func @g() attributes {t.m = #tcp.mapping<"H / ">} {
  return
}

// -----

// The types keep their text form.
// CHECK: func.func @h(%arg0: !tcp.hbm<bf16, "[I, J]">)
func.func @h(%x: !tcp.hbm<bf16, "[I, J]">) {
  return
}
