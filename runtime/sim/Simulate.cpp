// The command queue: issues commands in order and times them with rngd::QueueClock (the same
// clock the scheduler predicts with), blocks on waits, and stops with an error on hazards
// between in-flight commands and on a Vector Engine shared by both contexts at once.
#include "Machine.h"

#include <algorithm>
#include <new>

namespace rngd::sim {
namespace {

struct InFlight {
  size_t index;
  std::string label; // command #i `text`
  int64_t end;
  Effects effects;
  bool isDma = false;
  int64_t sameBankRun = 0;
  std::string sameBankWhat;
};

struct Registers {
  int64_t fetch = -1, vector = -1, cast = -1, commit = -1; // loaded config block indices
};

class Queue {
public:
  Queue(const Env &env, SimResult &result)
      : env_(env), t_(env.target), result_(result), clock_(env.target) {
    for (const ConfigBlock &c : env.exe.configs) {
      fetch_.push_back(c.unit == isa::Unit::Fetch ? isa::FetchConfig::fromValues(c.values)
                                                  : isa::FetchConfig{});
      vector_.push_back(c.unit == isa::Unit::Vector ? isa::VectorConfig::fromValues(c.values)
                                                    : isa::VectorConfig{});
      cast_.push_back(c.unit == isa::Unit::Cast ? isa::CastConfig::fromValues(c.values)
                                                : isa::CastConfig{});
      commit_.push_back(c.unit == isa::Unit::Commit ? isa::CommitConfig::fromValues(c.values)
                                                    : isa::CommitConfig{});
    }
  }

  Status run() {
    if (t_.totalSlices() > int64_t(isa::kSliceBitmapWords) * 64)
      return Status::failure("target has more slices than a 512-bit slice bitmap covers");
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
      Status st = issue(i, *cmd);
      if (!st)
        return st;
      if (clock_.makespan() > env_.options.maxCycles)
        return Status::failure(label_ + " ends at cycle " + std::to_string(clock_.makespan()) +
                               ", past the simulator's cycle cap " +
                               std::to_string(env_.options.maxCycles));
      prune();
      if (env_.options.recordTrace)
        result_.ops.push_back(std::move(op_));
    }
    result_.makespan = clock_.makespan();
    return Status::success();
  }

private:
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

  Status load(const isa::Command &c) {
    const ConfigBlock &block = env_.exe.configs[c.index];
    const isa::UnitSpec *spec = isa::findUnit(block.unit);
    int k = ctx(c.context);
    op_.name = "rngd.load";
    op_.context = "queue";
    op_.engines = {spec->name};
    if (ctxEnd_[k] > clock_.now())
      return Status::failure(label_ + " loads the " + spec->name + " registers of context " +
                             isa::contextName(c.context) + " while " + ctxLabel_[k] +
                             " (running until cycle " + std::to_string(ctxEnd_[k]) +
                             ") uses them");
    Registers &r = regs_[k];
    int64_t idx = static_cast<int64_t>(c.index);
    switch (block.unit) {
    case isa::Unit::Fetch:
      r.fetch = idx;
      break;
    case isa::Unit::Vector:
      r.vector = idx;
      break;
    case isa::Unit::Cast:
      r.cast = idx;
      break;
    case isa::Unit::Commit:
      r.commit = idx;
      break;
    }
    op_.start = clock_.now();
    clock_.load(static_cast<int64_t>(isa::wordCount(*spec)));
    op_.end = clock_.now();
    return Status::success();
  }

  Status exec(size_t i, const isa::Command &c) {
    int k = ctx(c.context);
    const Registers &r = regs_[k];
    PassConfig pc;
    pc.context = c.context;
    pc.units = c.units;
    pc.fetch = r.fetch >= 0 ? &fetch_[r.fetch] : nullptr;
    pc.vector = r.vector >= 0 ? &vector_[r.vector] : nullptr;
    pc.cast = r.cast >= 0 ? &cast_[r.cast] : nullptr;
    pc.commit = r.commit >= 0 ? &commit_[r.commit] : nullptr;
    op_.name = "rngd.exec";
    op_.context = isa::contextName(c.context);
    for (unsigned bit = 0; bit < 8; ++bit)
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
    InFlight f{i, label_, span.end, std::move(out.effects), false, out.sameBankRun,
               out.sameBankWhat};
    st = checkHazards(f, span.start);
    if (!st)
      return st;
    op_.start = span.start;
    op_.end = span.end;
    ctxEnd_[k] = span.end;
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
    QueueClock::Interval span = clock_.dma(d.engine, out.cycles);
    InFlight f{i, label_, span.end, std::move(out.effects), true, 0, ""};
    st = checkHazards(f, span.start);
    if (!st)
      return st;
    op_.start = span.start;
    op_.end = span.end;
    tagPending_[c.tag] = true;
    tagEnd_[c.tag] = span.end;
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
    return blockUntil(tagEnd_[c.tag]);
  }

  Status blockUntil(int64_t end) {
    op_.start = clock_.now();
    clock_.wait(end);
    op_.end = clock_.now();
    return Status::success();
  }

  // A command starting at `start` conflicts with any earlier command still running then:
  // RAW (it reads what that one writes), WAR (writes what it reads), WAW (writes the same).
  Status checkHazards(const InFlight &mine, int64_t start) {
    for (const InFlight &o : inFlight_) {
      if (o.end <= start)
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

  void prune() {
    size_t w = 0;
    for (size_t r = 0; r < inFlight_.size(); ++r)
      if (inFlight_[r].end > clock_.now()) {
        if (w != r)
          inFlight_[w] = std::move(inFlight_[r]);
        ++w;
      }
    inFlight_.resize(w);
  }

  const Env &env_;
  const TargetModel &t_;
  SimResult &result_;
  std::vector<isa::FetchConfig> fetch_;
  std::vector<isa::VectorConfig> vector_;
  std::vector<isa::CastConfig> cast_;
  std::vector<isa::CommitConfig> commit_;

  QueueClock clock_;
  Registers regs_[2];
  int64_t ctxEnd_[2] = {0, 0};
  bool ctxPending_[2] = {false, false};
  bool vectorUser_[2] = {false, false}; // the context's last pass used the Vector Engine
  std::string ctxLabel_[2];
  bool tagPending_[isa::kMaxTag + 1] = {};
  int64_t tagEnd_[isa::kMaxTag + 1] = {};
  std::string tagLabel_[isa::kMaxTag + 1];
  std::vector<InFlight> inFlight_;
  TraceOp op_;
  std::string label_;
};

} // namespace

Status simulate(const Executable &exe, uint8_t *hbm, uint64_t hbmBytes, DataMemory &dm,
                const SimOptions &options, SimResult &result, const TargetModel &target) {
  result = SimResult();
  if (hbmBytes < exe.hbmBytes)
    return Status::failure("HBM buffer of " + std::to_string(hbmBytes) +
                           " bytes is smaller than the kernel's " + std::to_string(exe.hbmBytes));
  if (dm.sliceCount() != target.totalSlices() || dm.sliceBytes() != target.dmBytesPerSlice)
    return Status::failure("data memory geometry does not match the target");
  // Executables built in memory get the loader's checks too: every index below is then valid.
  std::string why;
  if (!validateExecutable(exe, why))
    return Status::failure(why);
  Env env{exe, target, hbm, exe.hbmBytes, dm, options};
  try {
    return Queue(env, result).run();
  } catch (const std::bad_alloc &) {
    return Status::failure("out of host memory while simulating");
  }
}

} // namespace rngd::sim
