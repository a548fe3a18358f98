// Building one stage's tcp module in C++: the placement generator's layer over the dialect's
// builders. A stage declares its axes, names its types (the aliases the printed stage uses),
// takes its HBM arguments and adds ops in program order, each result under the SSA name it
// prints with. finish() adds the return and verifies the module against the target.
//
//   StageBuilder b(context, target, "embedding");
//   Expr h = b.axis("H", 1024);
//   mlir::Type row = b.hbm("h", b.bf16(), h);
//   mlir::Value in = b.input("input", row), out = b.output("out", row);
//   b.dmaInto(in, out);
//   llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> module = b.finish();
#pragma once

#include "dialects/tcp/IR/TcpDialect.h"
#include "dialects/tcp/Mapping/Mapping.h"
#include "rngd/machine/TargetModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rngd::placement {

using mapping::Expr;

/// One Vector Engine step: its ALU name and operand (none, an immediate, `stash` or a VRF
/// tensor), plus the addend of `fma_f`.
struct Step {
  std::string name;
  enum class Operand { None, Float, Int, Stash, Vrf } operand = Operand::None;
  float value = 0;
  int32_t integer = 0;
  std::optional<float> addend;
  mlir::Value vrf;

  static Step op(const std::string &name);
  static Step imm(const std::string &name, float value);
  static Step immInt(const std::string &name, int32_t value);
  static Step stash(const std::string &name);
  static Step vrfOf(const std::string &name, mlir::Value vrf);
  static Step fma(float scale, float addend);
};

class StageBuilder {
public:
  StageBuilder(mlir::MLIRContext *context, const TargetModel &target, llvm::StringRef stage);

  const TargetModel &target() const { return target_; }
  mlir::MLIRContext *context() { return context_; }

  /// Appends a paragraph to the stage's header comment (what rngd-stagegen prints above the
  /// module): what the stage computes and how it is placed, with this shape's numbers.
  void describe(const std::string &paragraph);
  const std::string &header() const { return header_; }

  /// Declares an axis in the module's `tcp.axes` and returns it. Sizes are positive.
  Expr axis(llvm::StringRef name, int64_t size);

  mlir::Type bf16();
  mlir::Type f32();
  mlir::Type i32();
  /// Types, each printed under `alias` (an identifier that does not end in a digit).
  mlir::Type hbm(llvm::StringRef alias, mlir::Type element, const Expr &elem);
  mlir::Type dm(llvm::StringRef alias, mlir::Type element, const Expr &cluster, const Expr &slice,
                const Expr &elem);
  mlir::Type stream(llvm::StringRef alias, mlir::Type element, const Expr &cluster,
                    const Expr &slice, const Expr &time, const Expr &packet);
  mlir::Type trf(llvm::StringRef alias, mlir::Type element, const Expr &cluster,
                 const Expr &slice, const Expr &lane, const Expr &elem);
  mlir::Type vrf(llvm::StringRef alias, mlir::Type element, const Expr &cluster,
                 const Expr &slice, const Expr &elem);

  /// The entry function's HBM arguments, in the order of the calls; `name` is the argument's
  /// tcp.name (what the host binds).
  mlir::Value input(llvm::StringRef name, mlir::Type type);
  mlir::Value output(llvm::StringRef name, mlir::Type type);
  mlir::Value inout(llvm::StringRef name, mlir::Type type);

  // Ops, in program order; `name` is the result's SSA name.
  mlir::Value dma(llvm::StringRef name, mlir::Value source, mlir::Type result);
  void dmaInto(mlir::Value source, mlir::Value dest);
  mlir::Value dmaGather(llvm::StringRef name, mlir::Value source, mlir::Value offsets,
                        mlir::Type result);
  void dmaScatter(mlir::Value source, mlir::Value dest, mlir::Value offsets);
  mlir::Value view(llvm::StringRef name, mlir::Value source, int64_t offset, mlir::Type result);
  mlir::Value dmView(llvm::StringRef name, mlir::Value source, int64_t offset,
                     std::optional<int64_t> slices, mlir::Type result);
  mlir::Value dmJoin(llvm::StringRef name, mlir::ValueRange parts, mlir::Type result);
  mlir::Value reinterpret(llvm::StringRef name, mlir::Value source, mlir::Type result);
  mlir::Value fetch(llvm::StringRef name, tcp::Context context, mlir::Value source,
                    mlir::Type result);
  mlir::Value collect(llvm::StringRef name, mlir::Value stream);
  mlir::Value switchOp(llvm::StringRef name, tcp::SwitchMode mode, mlir::Value input,
                       mlir::Type result);
  mlir::Value transpose(llvm::StringRef name, mlir::Value input, mlir::Type result);
  /// The result type defaults to the input's.
  mlir::Value vector(llvm::StringRef name, mlir::Value input, const std::vector<Step> &steps,
                     mlir::Type result = {});
  mlir::Value cast(llvm::StringRef name, mlir::Value input, mlir::Type result);
  mlir::Value commit(llvm::StringRef name, mlir::Value input, mlir::Type result,
                     bool castToBf16 = false);
  mlir::Value toTrf(llvm::StringRef name, mlir::Value input, mlir::Type result,
                    llvm::StringRef region = {});
  mlir::Value trfJoin(llvm::StringRef name, mlir::Value even, mlir::Value odd, mlir::Type result);
  mlir::Value toVrf(llvm::StringRef name, mlir::Value input, mlir::Type result);
  mlir::Value vrfView(llvm::StringRef name, mlir::Value source, int64_t offset, mlir::Type result);
  mlir::Value contract(llvm::StringRef name, mlir::Value input, mlir::Value weights, int64_t pack,
                       mlir::Type result, bool sequential = false);

  /// Builds what follows as a second stage's part of this kernel (a fused stage): the axes it
  /// declares print as `axisPrefix` + name (every mapping it writes renamed alike), its type
  /// aliases and SSA names take `namePrefix`, and an input it takes under a name in `bound` is
  /// that value (an earlier part's output, through a view of the input's type) instead of a
  /// new argument. The part's arguments keep their names.
  void beginPart(llvm::StringRef axisPrefix, llvm::StringRef namePrefix,
                 llvm::StringMap<mlir::Value> bound);
  /// The argument named `name` (its tcp.name), or a null value.
  mlir::Value argumentNamed(llvm::StringRef name) const;
  /// The axes declared so far, as printed (a part's with its prefix).
  mapping::AxisEnv axisEnv() const;
  /// A DM type over an earlier part's axes, as written: in a part, its mappings are not renamed
  /// (a part's tensor spelt over the module's other axes, for a copy between the two).
  mlir::Type dmOuter(llvm::StringRef alias, mlir::Type element, const Expr &cluster,
                     const Expr &slice, const Expr &elem);

  /// Adds the return, sets the axes and verifies: the module, or the verifier's messages.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> finish();

private:
  mlir::Value argument(llvm::StringRef name, mlir::Type type, llvm::StringRef kind);
  mlir::Location loc(llvm::StringRef name);
  mlir::Type named(llvm::StringRef alias, mlir::Type type);
  tcp::MappingAttr map(const Expr &expr);
  std::string partName(llvm::StringRef name) const { return namePrefix_ + name.str(); }

  // The part being built (beginPart): its prefixes, its axes' own names, its bound inputs.
  std::string axisPrefix_, namePrefix_;
  std::set<std::string> partAxes_;
  llvm::StringMap<mlir::Value> bound_;
  std::string error_; // a naming clash found while building, reported by finish()

  mlir::MLIRContext *context_;
  const TargetModel &target_;
  std::string stage_;
  std::string header_;
  mlir::OpBuilder builder_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  mlir::Block *body_ = nullptr;
  std::vector<mlir::NamedAttribute> axes_;
  std::vector<mlir::Type> argTypes_;
  std::vector<mlir::DictionaryAttr> argAttrs_;
  std::vector<mlir::Operation *> ops_;
};

/// An llvm::Error saying which placement rule a size fails, with the numbers:
/// "projection: <rule>: <detail>".
llvm::Error placementError(llvm::StringRef stage, llvm::StringRef rule, const llvm::Twine &detail);

} // namespace rngd::placement
