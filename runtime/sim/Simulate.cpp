// The command queue: issues commands in order and times them with rngd::QueueClock (the same
// clock the scheduler predicts with), blocks on waits, and stops with an error on hazards
// between commands running at once and on a Vector Engine shared by both contexts at once.
// A DMA's end depends on the DMAs issued while it runs (they share bandwidth), so hazards are
// checked once every time is known, in issue order.
#include "Machine.h"

#include <algorithm>
#include <new>

namespace rngd::sim {
namespace {

struct InFlight {
  size_t index;
  std::string label; // command #i `text`
  int64_t issued;    // the queue's time when it issued
  int64_t start, end;
  Effects effects;
  bool isDma = false;
  int64_t sameBankRun = 0;
  std::string sameBankWhat;
  QueueClock::DmaId dma = 0; // a DMA's id in the clock
  size_t traceOp = 0;        // its op in the trace, when recorded
};

/// Loaded config block index per unit (-1 = never loaded), indexed by isa::Unit.
struct Registers {
  int64_t unit[16] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  int64_t of(isa::Unit u) const { return unit[static_cast<size_t>(u) & 15]; }
};

/// A register bank (main has two, sub one) and the last pass that ran on it.
struct Bank {
  Registers regs;
  int64_t passEnd = 0;
  uint16_t passUnits = 0; // that pass's exec units
  std::string passLabel;
};

/// The typed view of the block loaded for `u`; `slot[i]` is block i's position in its unit's
/// table.
template <typename T>
const T *loaded(const std::vector<T> &table, const std::vector<size_t> &slot, const Registers &r,
                isa::Unit u) {
  int64_t i = r.of(u);
  return i >= 0 ? &table[slot[static_cast<size_t>(i)]] : nullptr;
}

class Queue {
public:
  Queue(const Env &env, SimResult &result)
      : env_(env), t_(env.target), result_(result), clock_(env.target) {
    // Typed views: each block decoded once into its unit's table.
    size_t n = env.exe.configs.size();
    slot_.resize(n);
    packed_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const ConfigBlock &c = env.exe.configs[i];
      switch (c.unit) {
      case isa::Unit::Fetch:
        slot_[i] = add(fetch_, isa::FetchConfig::fromValues(c.values));
        break;
      case isa::Unit::Vector:
        slot_[i] = add(vector_, isa::VectorConfig::fromValues(c.values));
        break;
      case isa::Unit::Cast:
        slot_[i] = add(cast_, isa::CastConfig::fromValues(c.values));
        break;
      case isa::Unit::Commit:
        slot_[i] = add(commit_, isa::CommitConfig::fromValues(c.values));
        break;
      case isa::Unit::Contract:
        slot_[i] = add(contract_, isa::ContractConfig::fromValues(c.values));
        break;
      case isa::Unit::TrfWrite:
        slot_[i] = add(trfWrite_, isa::TrfWriteConfig::fromValues(c.values));
        break;
      case isa::Unit::VrfWrite:
        slot_[i] = add(vrfWrite_, isa::VrfWriteConfig::fromValues(c.values));
        break;
      case isa::Unit::Switch:
        slot_[i] = add(switch_, isa::SwitchConfig::fromValues(c.values));
        break;
      case isa::Unit::Transpose:
        slot_[i] = add(transpose_, isa::TransposeConfig::fromValues(c.values));
        break;
      }
    }
  }

  Status run() {
    std::string unfit = isa::checkTargetEncoding(t_);
    if (!unfit.empty())
      return Status::failure(unfit);
    const auto &words = env_.exe.commands;
    for (size_t i = 0; i < words.size(); ++i) {
      std::string why;
      auto cmd = isa::decode(words[i], why);
      if (!cmd) // unreachable after validateExecutable; never index with an unchecked word
        return Status::failure("command #" + std::to_string(i) + ": " + why);
      op_ = TraceOp();
      op_.id = static_cast<int64_t>(i);
      op_.text = isa::formatCommand(*cmd);
      label_ = "command #" + std::to_string(i) + " `" + op_.text + "`";
      Status st = issueGuarded(i, *cmd);
      if (!st) {
        // A hazard among the earlier commands is the first thing that went wrong.
        Status hazards = checkHazards();
        return hazards ? st : hazards;
      }
      if (clock_.makespan() > env_.options.maxCycles)
        return Status::failure(label_ + " ends at cycle " + std::to_string(clock_.makespan()) +
                               ", past the simulator's cycle cap " +
                               std::to_string(env_.options.maxCycles));
      if (env_.options.recordTrace)
        result_.ops.push_back(std::move(op_));
    }
    Status st = checkHazards();
    if (!st)
      return st;
    if (clock_.makespan() > env_.options.maxCycles)
      return Status::failure("the kernel ends at cycle " + std::to_string(clock_.makespan()) +
                             ", past the simulator's cycle cap " +
                             std::to_string(env_.options.maxCycles));
    result_.makespan = clock_.makespan();
    return Status::success();
  }

private:
  template <typename T> static size_t add(std::vector<T> &table, T value) {
    table.push_back(std::move(value));
    return table.size() - 1;
  }

  /// issue(), with a host allocation that fails reported as this command's error.
  Status issueGuarded(size_t i, const isa::Command &c) {
    try {
      return issue(i, c);
    } catch (const std::bad_alloc &) {
      return Status::failure(label_ + ": out of host memory while simulating it (the "
                             "simulator's guards: SimOptions::maxWorkPerCommand " +
                             std::to_string(env_.options.maxWorkPerCommand) +
                             ", maxStreamBytesPerSlice " +
                             std::to_string(env_.options.maxStreamBytesPerSlice) + ")");
    }
  }

  Status issue(size_t i, const isa::Command &c) {
    switch (c.opcode) {
    case isa::Opcode::Config:
      return load(c);
    case isa::Opcode::Exec:
      return exec(i, c);
    case isa::Opcode::Wait:
      return c.waitOnTag ? waitTag(c) : waitContext(c);
    case isa::Opcode::Dma:
      return dma(i, c);
    }
    return Status::failure(label_ + ": unknown opcode");
  }

  int ctx(isa::Context c) const { return c == isa::Context::Sub ? 1 : 0; }
  Bank &bankOf(const isa::Command &c) {
    return banks_[c.context == isa::Context::Sub ? isa::kMainBanks : c.bank];
  }
  /// Block `i`'s register words (packed once, when a partial load first needs them).
  const std::vector<uint64_t> &packed(size_t i) {
    std::vector<uint64_t> &words = packed_[i];
    if (words.empty()) {
      const ConfigBlock &b = env_.exe.configs[i];
      std::string why; // the loader validated every block: packing cannot fail
      isa::packBlock(*isa::findUnit(b.unit), b.values, words, why);
    }
    return words;
  }
  static std::string bankName(const isa::Command &c) {
    return std::string(isa::contextName(c.context)) +
           (c.bank ? " bank " + std::to_string(c.bank) : "");
  }

  Status load(const isa::Command &c) {
    const ConfigBlock &block = env_.exe.configs[c.index];
    const isa::UnitSpec *spec = isa::findUnit(block.unit);
    Bank &bank = bankOf(c);
    op_.name = "rngd.load";
    op_.context = "queue";
    op_.engines = {spec->name};
    // A bank's registers of a unit its running pass does not list may be loaded meanwhile.
    if (bank.passEnd > clock_.now() && (bank.passUnits & isa::execBit(block.unit)))
      return Status::failure(label_ + " loads the " + spec->name + " registers of context " +
                             bankName(c) + " while " + bank.passLabel +
                             " (running until cycle " + std::to_string(bank.passEnd) +
                             ") uses them");
    int64_t &current = bank.regs.unit[static_cast<size_t>(block.unit) & 15];
    if (block.partialMask) { // the words it does not write must hold the block's values already
      if (current < 0)
        return Status::failure(label_ + " loads words " + hexString(block.partialMask) + " of the " +
                               spec->name + " registers of context " + bankName(c) +
                               ", which hold no block yet");
      const std::vector<uint64_t> &have = packed(static_cast<size_t>(current));
      const std::vector<uint64_t> &want = packed(c.index);
      for (size_t w = 0; w < want.size(); ++w)
        if (!(block.partialMask >> w & 1) && have[w] != want[w])
          return Status::failure(label_ + " loads words " + hexString(block.partialMask) +
                                 " of block " + std::to_string(c.index) + " (" + spec->name +
                                 "), but register word " + std::to_string(w) + " holds " +
                                 hexString(have[w]) + " from block " + std::to_string(current) +
                                 ", not the block's " + hexString(want[w]));
    }
    current = static_cast<int64_t>(c.index);
    op_.start = clock_.now();
    clock_.load(block.partialMask ? block.partialMask : isa::wholeBlockMask(*spec));
    op_.end = clock_.now();
    return Status::success();
  }

  Status exec(size_t i, const isa::Command &c) {
    int k = ctx(c.context);
    Bank &bank = bankOf(c);
    const Registers &r = bank.regs;
    PassConfig pc;
    pc.context = c.context;
    pc.bank = c.bank;
    pc.units = c.units;
    pc.fetch = loaded(fetch_, slot_, r, isa::Unit::Fetch);
    pc.switchUnit = loaded(switch_, slot_, r, isa::Unit::Switch);
    pc.contract = loaded(contract_, slot_, r, isa::Unit::Contract);
    pc.vector = loaded(vector_, slot_, r, isa::Unit::Vector);
    pc.cast = loaded(cast_, slot_, r, isa::Unit::Cast);
    pc.transpose = loaded(transpose_, slot_, r, isa::Unit::Transpose);
    pc.commit = loaded(commit_, slot_, r, isa::Unit::Commit);
    pc.trfWrite = loaded(trfWrite_, slot_, r, isa::Unit::TrfWrite);
    pc.vrfWrite = loaded(vrfWrite_, slot_, r, isa::Unit::VrfWrite);
    op_.name = "rngd.exec";
    op_.context = isa::contextName(c.context);
    for (unsigned bit = 0; bit < isa::kUnitBits; ++bit)
      if (c.units & (1u << bit))
        op_.engines.push_back(isa::unitBitName(bit));
    PassOutcome out;
    Status st = runPass(env_, label_, pc, out);
    if (!st)
      return st;
    QueueClock::Interval span = clock_.exec(k, out.cycles);
    // Main and sub share the Vector (and Cast) Engine: the schedule must serialise them.
    int other = 1 - k;
    if (out.usesVectorEngine && vectorUser_[other] && ctxEnd_[other] > span.start)
      return Status::failure(label_ + " uses the Vector Engine from cycle " +
                             std::to_string(span.start) + " while " + ctxLabel_[other] +
                             " (running until cycle " + std::to_string(ctxEnd_[other]) +
                             ") uses it from the other context");
    int64_t issued = clock_.now() - t_.commandIssueCycles;
    InFlight f{i,     label_, issued, span.start, span.end, std::move(out.effects),
               false, out.sameBankRun, out.sameBankWhat};
    op_.start = span.start;
    op_.end = span.end;
    ctxEnd_[k] = span.end;
    bank.passEnd = span.end;
    bank.passUnits = c.units;
    bank.passLabel = label_;
    ctxLabel_[k] = label_;
    ctxPending_[k] = true;
    vectorUser_[k] = out.usesVectorEngine;
    record(f);
    inFlight_.push_back(std::move(f));
    return Status::success();
  }

  Status dma(size_t i, const isa::Command &c) {
    op_.name = "rngd.dma";
    op_.context = "tdma";
    if (tagPending_[c.tag])
      return Status::failure(label_ + " uses tag " + std::to_string(c.tag) + " while " +
                             tagLabel_[c.tag] + " (tag " + std::to_string(c.tag) +
                             ") has not been waited for");
    const isa::Descriptor &d = env_.exe.descriptors[c.index];
    op_.engines = {"dma" + std::to_string(d.engine)};
    DmaOutcome out;
    Status st = runDma(env_, label_, d, out);
    if (!st)
      return st;
    int64_t issued = clock_.now();
    QueueClock::DmaId id = clock_.dma(d.engine, out.cycles, out.traffic);
    InFlight f{i, label_, issued, -1, -1, std::move(out.effects), true, 0, ""};
    f.dma = id;
    f.traceOp = result_.ops.size(); // the op this command records (times filled in later)
    tagPending_[c.tag] = true;
    tagDma_[c.tag] = id;
    tagLabel_[c.tag] = label_;
    record(f);
    inFlight_.push_back(std::move(f));
    return Status::success();
  }

  Status waitContext(const isa::Command &c) {
    int k = ctx(c.context);
    op_.name = "rngd.wait";
    op_.context = "queue";
    if (!ctxPending_[k])
      return Status::failure(label_ + ": nothing is pending on context " +
                             isa::contextName(c.context) + " (no exec since the last wait)");
    ctxPending_[k] = false;
    return blockUntil(ctxEnd_[k]);
  }

  Status waitTag(const isa::Command &c) {
    op_.name = "rngd.wait";
    op_.context = "queue";
    if (!tagPending_[c.tag])
      return Status::failure(label_ + ": no DMA with tag " + std::to_string(c.tag) +
                             " is pending");
    tagPending_[c.tag] = false;
    op_.start = clock_.now();
    clock_.waitDma(tagDma_[c.tag]);
    op_.end = clock_.now();
    return Status::success();
  }

  Status blockUntil(int64_t end) {
    op_.start = clock_.now();
    clock_.wait(end);
    op_.end = clock_.now();
    return Status::success();
  }

  // Runs every DMA to its end, gives DMAs their times (and trace ops), then checks each
  // command against the earlier ones running at the same time, in issue order.
  Status checkHazards() {
    clock_.finish();
    for (InFlight &f : inFlight_) {
      if (!f.isDma)
        continue;
      QueueClock::Interval span = clock_.dmaSpan(f.dma);
      f.start = span.start;
      f.end = span.end;
      if (env_.options.recordTrace && f.traceOp < result_.ops.size()) {
        result_.ops[f.traceOp].start = span.start;
        result_.ops[f.traceOp].end = span.end;
      }
    }
    std::vector<const InFlight *> running; // earlier commands that may overlap later ones
    for (const InFlight &mine : inFlight_) {
      // Anything that ended before this command issued ends before every later one starts.
      running.erase(std::remove_if(running.begin(), running.end(),
                                   [&](const InFlight *o) { return o->end <= mine.issued; }),
                    running.end());
      Status st = checkAgainst(mine, running);
      if (!st)
        return st;
      running.push_back(&mine);
    }
    return Status::success();
  }

  // A command conflicts with an earlier one running at the same time: RAW (it reads what that
  // one writes), WAR (writes what it reads), WAW (writes the same).
  Status checkAgainst(const InFlight &mine, const std::vector<const InFlight *> &earlier) {
    for (const InFlight *op : earlier) {
      const InFlight &o = *op;
      if (o.end <= mine.start || mine.end <= o.start)
        continue;
      std::string until = " (in flight until cycle " + std::to_string(o.end) + ")";
      if (auto r = overlap(mine.effects.reads, o.effects.writes))
        return Status::failure(mine.label + " reads " + *r + " while " + o.label + until +
                               " writes it");
      if (auto r = overlap(mine.effects.writes, o.effects.reads))
        return Status::failure(mine.label + " writes " + *r + " while " + o.label + until +
                               " reads it");
      if (auto r = overlap(mine.effects.writes, o.effects.writes))
        return Status::failure(mine.label + " writes " + *r + " while " + o.label + until +
                               " also writes it");
      // A pass with >= 64 consecutive same-bank accesses starves a concurrent DMA (NoC timeout).
      const InFlight *pass = mine.isDma ? &o : &mine;
      const InFlight *dma = mine.isDma ? &mine : &o;
      if (mine.isDma != o.isDma && pass->sameBankRun >= t_.sameBankAccessLimit)
        return Status::failure(pass->label + ": " + pass->sameBankWhat + " (limit: fewer than " +
                               std::to_string(t_.sameBankAccessLimit) + ") while " +
                               dma->label + " runs concurrently");
    }
    return Status::success();
  }

  void record(const InFlight &f) {
    if (!env_.options.recordTrace)
      return;
    op_.reads = traceRanges(f.effects.reads);
    op_.writes = traceRanges(f.effects.writes);
  }

  const Env &env_;
  const TargetModel &t_;
  SimResult &result_;
  std::vector<size_t> slot_;
  std::vector<isa::FetchConfig> fetch_;
  std::vector<isa::VectorConfig> vector_;
  std::vector<isa::CastConfig> cast_;
  std::vector<isa::CommitConfig> commit_;
  std::vector<isa::ContractConfig> contract_;
  std::vector<isa::TrfWriteConfig> trfWrite_;
  std::vector<isa::VrfWriteConfig> vrfWrite_;
  std::vector<isa::SwitchConfig> switch_;
  std::vector<isa::TransposeConfig> transpose_;

  QueueClock clock_;
  Bank banks_[isa::kMainBanks + 1]; // main's banks, then sub's
  std::vector<std::vector<uint64_t>> packed_; // per block: its words, once a load compares them
  int64_t ctxEnd_[2] = {0, 0};
  bool ctxPending_[2] = {false, false};
  bool vectorUser_[2] = {false, false}; // the context's last pass used the Vector Engine
  std::string ctxLabel_[2];
  bool tagPending_[isa::kMaxTag + 1] = {};
  QueueClock::DmaId tagDma_[isa::kMaxTag + 1] = {};
  std::string tagLabel_[isa::kMaxTag + 1];
  std::vector<InFlight> inFlight_; // every engine command, in issue order
  TraceOp op_;
  std::string label_;
};

} // namespace

Status simulate(const Executable &exe, const HbmSpace &hbm, DataMemory &dm,
                const SimOptions &options, SimResult &result, const TargetModel &target) {
  result = SimResult();
  if (hbm.bytes < exe.hbmBytes)
    return Status::failure("HBM buffer of " + std::to_string(hbm.bytes) +
                           " bytes is smaller than the kernel's " + std::to_string(exe.hbmBytes));
  uint64_t end = 0;
  for (const HbmBinding &b : hbm.bound) {
    if (b.offset < end || b.offset > exe.hbmBytes || b.bytes > exe.hbmBytes - b.offset)
      return Status::failure("HBM binding [" + std::to_string(b.offset) + ", +" +
                             std::to_string(b.bytes) + ") overlaps another or leaves the kernel's " +
                             std::to_string(exe.hbmBytes) + " bytes");
    end = b.offset + b.bytes;
  }
  if (dm.sliceCount() != target.totalSlices() || dm.sliceBytes() != target.dmBytesPerSlice)
    return Status::failure("data memory geometry does not match the target");
  // Executables built in memory get the loader's checks too: every index below is then valid.
  std::string why;
  if (!validateExecutable(exe, why))
    return Status::failure(why);
  Env env{exe, target, hbm, dm, options};
  try {
    return Queue(env, result).run();
  } catch (const std::bad_alloc &) {
    return Status::failure("out of host memory while simulating");
  }
}

} // namespace rngd::sim
