// The KV cache: a pool of fixed-size chunks in device HBM, and the chunk lists (block tables)
// of the sequences that use it, as vLLM's paged cache. A chunk holds `chunkPositions` key rows
// and as many value rows, [T, N, D] bf16, of every layer: layer L's keys of all chunks are one
// device buffer, chunk c at byte c x chunkBytes(), so a stage binds a chunk as a view
// (Kernel::bind(arg, buffer, offset)). A sequence takes chunks as it grows and returns them when
// it ends; an exhausted pool is an error naming the numbers, and never touches another
// sequence's chunks (docs/qwen3.md, "The KV cache").
#pragma once

#include "qwen3/host/Model.h"

#include "rngd/Runtime.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace rngd::qwen3 {

/// Thrown when a sequence needs a chunk and none is free.
class KvCacheFull : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class KvCache {
public:
  /// A pool of `chunks` chunks of `chunkPositions` positions for every layer of `cfg`: two
  /// buffers per layer, allocated (zero) on `device` now.
  KvCache(rngd::Device &device, const Qwen3Config &cfg, int chunkPositions, int chunks);
  KvCache(const KvCache &) = delete;
  KvCache &operator=(const KvCache &) = delete;

  int chunkPositions() const { return chunkPositions_; }
  int capacity() const { return int(users_.size()); }
  int chunksInUse() const { return used_; }
  /// The sequences that hold chunk c (0: free).
  int users(int chunk) const { return users_.at(size_t(chunk)); }
  /// Bytes of one layer's keys (or values) in one chunk.
  uint64_t chunkBytes() const { return chunkBytes_; }
  /// The device HBM a pool takes, as Device::allocate pads it.
  static uint64_t poolBytes(const Qwen3Config &cfg, int chunkPositions, int chunks,
                            const rngd::TargetModel &target);

  /// A free chunk (the lowest id), its rows zero; throws KvCacheFull when none is free.
  int acquire();
  /// One more sequence uses the chunk (a shared prefix); throws std::logic_error if it is not
  /// in use.
  void share(int chunk);
  /// One sequence fewer uses the chunk: the last returns it to the pool; throws
  /// std::logic_error if it is not in use.
  void release(int chunk);

  /// Layer L's keys ('k') or values ('v') of every chunk.
  rngd::Buffer &buffer(int layer, char kind);
  const rngd::Buffer &buffer(int layer, char kind) const;
  /// Where chunk c starts in a layer's buffer.
  uint64_t offset(int chunk) const { return uint64_t(chunk) * chunkBytes_; }

private:
  void checkChunk(int chunk, const char *what) const;
  std::vector<rngd::Buffer *> keys_, values_; // per layer
  int chunkPositions_;
  uint64_t chunkBytes_;
  std::vector<int> users_;  // per chunk: the sequences that hold it (0: free)
  std::vector<bool> dirty_; // per chunk: written since it was zero
  int used_ = 0;
};

/// One sequence's chunks in position order (its block table): positions [c x T, (c + 1) x T)
/// are in chunk chunks()[c]. Returns them to the pool when it ends or is cleared.
class KvSequence {
public:
  explicit KvSequence(KvCache &cache) : cache_(cache) {}
  KvSequence(const KvSequence &) = delete;
  KvSequence &operator=(const KvSequence &) = delete;
  ~KvSequence() { clear(); }

  /// Takes chunks until positions [0, positions) have one; throws KvCacheFull (keeping what it
  /// has) when the pool runs out.
  void reserve(int positions);
  /// The chunk of positions [index x T, (index + 1) x T); it must be reserved.
  int chunk(int index) const;
  const std::vector<int> &chunks() const { return chunks_; }
  /// Takes `from`'s first `chunks` chunks as its own first ones, shared (a common prefix: they
  /// are only read after this, the pool frees them when the last holder lets go). The sequence
  /// must hold no chunk yet.
  void share(const KvSequence &from, int chunks);
  /// Returns every chunk to the pool.
  void clear();

private:
  KvCache &cache_;
  std::vector<int> chunks_;
};

} // namespace rngd::qwen3
