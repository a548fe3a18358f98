#include "qwen3/host/KvCache.h"

#include "qwen3/host/CheckStatus.h"

#include <algorithm>
#include <string>

namespace rngd::qwen3 {

uint64_t KvCache::poolBytes(const Qwen3Config &cfg, int chunkPositions, int chunks,
                            const rngd::TargetModel &target) {
  const uint64_t align = uint64_t(target.hbmArgumentAlignment);
  const uint64_t bytes = uint64_t(chunks) * uint64_t(chunkPositions) * uint64_t(cfg.kvDim()) * 2;
  return 2 * uint64_t(cfg.numLayers) * ((bytes + align - 1) / align * align);
}

KvCache::KvCache(rngd::Device &device, const Qwen3Config &cfg, int chunkPositions, int chunks)
    : chunkPositions_(chunkPositions),
      chunkBytes_(uint64_t(chunkPositions) * uint64_t(cfg.kvDim()) * 2),
      users_(size_t(std::max(chunks, 0)), 0), dirty_(users_.size(), false) {
  if (chunkPositions < 1 || chunks < 1)
    throw std::invalid_argument("a KV cache needs at least one chunk of one position, got " +
                                std::to_string(chunks) + " of " +
                                std::to_string(chunkPositions));
  for (int L = 0; L < cfg.numLayers; ++L)
    for (char kind : {'k', 'v'}) {
      rngd::Buffer *b = nullptr;
      const std::string name = layerTensorName(L, std::string(1, kind) + "_cache");
      check(device.allocate(name, chunkBytes_ * uint64_t(chunks), b), "the KV cache's " + name);
      (kind == 'k' ? keys_ : values_).push_back(b);
    }
}

int KvCache::acquire() {
  auto free = std::find(users_.begin(), users_.end(), 0);
  if (free == users_.end())
    throw KvCacheFull("the KV cache is full: all " + std::to_string(capacity()) +
                      " chunks of " + std::to_string(chunkPositions_) + " positions are in use");
  const int chunk = int(free - users_.begin());
  if (dirty_[size_t(chunk)]) {
    const std::vector<uint8_t> zero(chunkBytes_, 0);
    for (auto *list : {&keys_, &values_})
      for (rngd::Buffer *b : *list)
        check(b->write(zero.data(), chunkBytes_, offset(chunk)), "clearing " + b->name());
  }
  users_[size_t(chunk)] = 1;
  dirty_[size_t(chunk)] = true;
  ++used_;
  return chunk;
}

void KvCache::checkChunk(int chunk, const char *what) const {
  if (chunk < 0 || chunk >= capacity() || users_[size_t(chunk)] == 0)
    throw std::logic_error(std::string(what) + " KV chunk " + std::to_string(chunk) +
                           ", which is not in use (the pool has " + std::to_string(capacity()) +
                           ")");
}

void KvCache::share(int chunk) {
  checkChunk(chunk, "sharing");
  ++users_[size_t(chunk)];
}

void KvCache::release(int chunk) {
  checkChunk(chunk, "releasing");
  if (--users_[size_t(chunk)] == 0)
    --used_;
}

rngd::Buffer &KvCache::buffer(int layer, char kind) {
  return const_cast<rngd::Buffer &>(static_cast<const KvCache &>(*this).buffer(layer, kind));
}

const rngd::Buffer &KvCache::buffer(int layer, char kind) const {
  if (layer < 0 || layer >= int(keys_.size()) || (kind != 'k' && kind != 'v'))
    throw std::logic_error("no KV cache buffer for layer " + std::to_string(layer) + " '" +
                           std::string(1, kind) + "'");
  return *(kind == 'k' ? keys_ : values_)[size_t(layer)];
}

void KvSequence::reserve(int positions) {
  const int T = cache_.chunkPositions();
  while (int64_t(chunks_.size()) * T < positions)
    chunks_.push_back(cache_.acquire());
}

int KvSequence::chunk(int index) const {
  if (index < 0 || index >= int(chunks_.size()))
    throw std::logic_error("KV chunk " + std::to_string(index) + " of a sequence that holds " +
                           std::to_string(chunks_.size()));
  return chunks_[size_t(index)];
}

void KvSequence::share(const KvSequence &from, int chunks) {
  if (&from.cache_ != &cache_ || chunks < 0 || chunks > int(from.chunks_.size()))
    throw std::logic_error("sharing " + std::to_string(chunks) + " KV chunks of a sequence that "
                           "holds " + std::to_string(from.chunks_.size()) +
                           " (or of another pool)");
  if (!chunks_.empty())
    throw std::logic_error("a sequence shares chunks only before it holds any");
  for (int i = 0; i < chunks; ++i) {
    cache_.share(from.chunks_[size_t(i)]);
    chunks_.push_back(from.chunks_[size_t(i)]);
  }
}

void KvSequence::clear() {
  for (int c : chunks_)
    cache_.release(c);
  chunks_.clear();
}

} // namespace rngd::qwen3
