#ifndef TCP_ATTRS_TD
#define TCP_ATTRS_TD

include "TcpBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// The schedule: tcp-schedule's result, read by the lowering, the critical path and the JSON
//===----------------------------------------------------------------------===//

def Tcp_QueueMain : I32EnumAttrCase<"main", 0>;
def Tcp_QueueSub : I32EnumAttrCase<"sub", 1>;
def Tcp_QueueTdma : I32EnumAttrCase<"tdma", 2>;
def Tcp_Queue : I32EnumAttr<"Queue", "what a scheduled unit runs on or a wait waits for",
                            [Tcp_QueueMain, Tcp_QueueSub, Tcp_QueueTdma]> {
  let cppNamespace = "::rngd::tcp";
  let genSpecializedAttr = 0;
}

def Tcp_IssueStart : I32EnumAttrCase<"start", 0>;
def Tcp_IssueWaits : I32EnumAttrCase<"waits", 1>;
def Tcp_IssueQueue : I32EnumAttrCase<"queue", 2>;
def Tcp_IssueReason : I32EnumAttr<"IssueReason", "what let the queue issue a unit",
                                  [Tcp_IssueStart, Tcp_IssueWaits, Tcp_IssueQueue]> {
  let cppNamespace = "::rngd::tcp";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Mappings: what the tcp types place their tensors with
//===----------------------------------------------------------------------===//

def Tcp_MappingAttr : Tcp_Attr<"Mapping", "mapping"> {
  let summary = "a mapping expression, parsed once (docs/mapping.md)";
  let description = [{
    The placement of one level of a tcp type (`elem`, `cluster`, `slice`, `time`, `packet`,
    `lane`), e.g. `#tcp.mapping<"[I % 32, J]">`; inside a type it prints as its quoted text
    (`elem = "[I % 32, J]"`). The text is parsed into its syntax tree once, when the attribute
    is made (`getSyntax()`); every layout resolves that tree against the module's `tcp.axes`.
    C++ builds one from a `mapping::Expr` (`MappingAttr::get(context, expr)`).
  }];
  let parameters = (ins StringRefParameter<"the mapping's text">:$text);
  let genStorageClass = 0;
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "const ::rngd::mapping::Expr &":$expr), [{
      return $_get($_ctxt, expr.str());
    }]>
  ];
  let extraClassDeclaration = [{
    /// The text's syntax tree; empty (every resolve fails) when the text has a syntax error,
    /// which the parsers refuse (parseMappingText).
    const ::rngd::mapping::Syntax &getSyntax() const;
    /// The syntax error of the text, empty when it has none.
    ::llvm::StringRef getSyntaxError() const;
  }];
}

//===----------------------------------------------------------------------===//
// The allocation: tcp-allocate-memory's result on a kernel function
//===----------------------------------------------------------------------===//

def Tcp_PrefetchAll : I32EnumAttrCase<"All", 0, "all">;
def Tcp_PrefetchDouble : I32EnumAttrCase<"Double", 1, "double">;
def Tcp_Prefetch : I32EnumAttr<"Prefetch",
    "how far ahead tcp-schedule may load tensors from HBM: every load from the kernel's start "
    "(all of them fit), or each from the previous load's definition (double buffering)",
    [Tcp_PrefetchAll, Tcp_PrefetchDouble]> {
  let cppNamespace = "::rngd::tcp";
  let genSpecializedAttr = 0;
}
def Tcp_PrefetchAttr : EnumAttr<Tcp_Dialect, Tcp_Prefetch, "prefetch"> {
  let summary = "the prefetch tcp-allocate-memory chose: `tcp.prefetch = #tcp<prefetch all>`";
}

/// `[a, b, ...]`, empty allowed.
class Tcp_ListParameter<string of, string desc> : ArrayRefParameter<of, desc> {
  let parser = "::rngd::tcp::parseBracketList<" # of # ">($_parser)";
  let printer = "::rngd::tcp::printBracketList($_printer, $_self)";
}
/// The same, left out of the text when empty.
class Tcp_OptionalListParameter<string of, string desc> : OptionalArrayRefParameter<of, desc> {
  let parser = "::rngd::tcp::parseBracketList<" # of # ">($_parser)";
  let printer = "::rngd::tcp::printBracketList($_printer, $_self)";
}

def Tcp_WaitList : Tcp_ListParameter<"::rngd::tcp::Wait",
    "waits issued before the unit, in order: `tag N` (a DMA tag), `main` or `sub`">;

/// `true` or `false`, left out of the text when false.
class Tcp_FlagParameter<string desc> : DefaultValuedParameter<"bool", "false", desc> {
  let parser = "::rngd::tcp::parseFlag($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

def Tcp_ScheduleAttr : Tcp_Attr<"Schedule", "schedule"> {
  let summary = "where and when tcp-schedule issued a DMA or a Tensor Unit pass";
  let description = [{
    Set by `tcp-schedule` on every DMA op and on the last op of every Tensor Unit pass, under
    the name `tcp.schedule`; `convert-tcp-to-rngd`, `rngdc --critical-path` and the schedule
    JSON read it through `rngd::tcp::getSchedule`. Times are predicted cycles.

    ```mlir
    tcp.commit %b : !s -> !dm {tcp.schedule = #tcp.schedule<order = 1, queue = main,
        start = 756, end = 771, waits = [tag 0], why = waits, after = 0,
        load_masks = [16383, 2047, 1, 16383], early_loads = [fetch, vector, cast, commit]>}
    ```

    A DMA (`queue = tdma`) lists one entry per descriptor in `engines`, `tags`,
    `part_starts`, `part_ends` and `part_after` (the DMA whose part on that engine it started
    behind, -1 if none), and the parts' loop sizes in `chunks` when the scheduler re-cut it. A
    pass (`main` or `sub`) names its register `bank`, the words each configuration block loads
    (`load_masks`, 0: not loaded) and the blocks it loads before its waits (`early_loads`);
    the first pass on a bank may load them earlier still, before the waits of the unit issued
    `loads_before` (its registers are free from the kernel's start).
  }];
  let parameters = (ins
    "int64_t":$order,
    EnumParameter<Tcp_Queue>:$queue,
    "int64_t":$start,
    "int64_t":$end,
    Tcp_WaitList:$waits,
    DefaultValuedParameter<"::rngd::tcp::IssueReason", "::rngd::tcp::IssueReason::start",
                           "what let the queue issue it">:$why,
    DefaultValuedParameter<"int64_t", "-1", "the unit (issue order) `why` names">:$after,
    Tcp_OptionalListParameter<"int64_t", "DMA: each descriptor's engine">:$engines,
    Tcp_OptionalListParameter<"int64_t", "DMA: each descriptor's tag">:$tags,
    Tcp_OptionalListParameter<"int64_t", "DMA: the parts' loop sizes, when re-cut">:$chunks,
    Tcp_OptionalListParameter<"int64_t", "DMA: each descriptor's start">:$part_starts,
    Tcp_OptionalListParameter<"int64_t", "DMA: each descriptor's end">:$part_ends,
    Tcp_OptionalListParameter<"int64_t", "DMA: the unit each part started behind">:$part_after,
    DefaultValuedParameter<"int64_t", "0", "pass: its context's register bank">:$bank,
    Tcp_OptionalListParameter<"int64_t", "pass: the words each block loads">:$load_masks,
    Tcp_OptionalListParameter<"::rngd::tcp::ConfigUnit", "pass: blocks loaded before its waits">:$early_loads,
    Tcp_FlagParameter<"pass: no DMA may overlap it (the same-bank rule)">:$holds_dma,
    DefaultValuedParameter<"int64_t", "-1",
        "pass: the unit (issue order) before whose waits its early loads go, -1: its own">:$loads_before
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isDma() const { return getQueue() == ::rngd::tcp::Queue::tdma; }
  }];
}

def Tcp_FinalWaitsAttr : Tcp_Attr<"FinalWaits", "final_waits"> {
  let summary = "the waits that end a scheduled kernel";
  let description = [{
    Set by `tcp-schedule` on the entry function as `tcp.final_waits`: the kernel ends when
    everything it started has ended.

    ```mlir
    func.func @k(...) attributes {tcp.final_waits = #tcp.final_waits<[tag 0, tag 1]>}
    ```
  }];
  let parameters = (ins Tcp_WaitList:$waits);
  let assemblyFormat = "`<` $waits `>`";
  let genVerifyDecl = 1;
}

#endif // TCP_ATTRS_TD
