// The KV cache pool and sequences' chunk lists: grow, free, reuse, exhaustion.
#include "qwen3/host/KvCache.h"

#include "../qwen3/Helpers.h"

#include <catch2/catch.hpp>

using namespace rngd::qwen3;

using rngd::qwen3::test::tinyConfig; // 2 layers, 2 kv heads of dim 16: a chunk of 4
                                     // positions is 4 x 32 bf16 = 256 bytes a layer

TEST_CASE("KV cache: a pool of chunks, one key and one value buffer per layer", "[kvcache]") {
  rngd::Device device;
  const Qwen3Config cfg = tinyConfig();
  KvCache cache(device, cfg, 4, 3);
  CHECK(cache.capacity() == 3);
  CHECK(cache.chunksInUse() == 0);
  CHECK(cache.chunkBytes() == 256);
  CHECK(device.bufferCount() == 4);
  CHECK(device.hbmUsed() == KvCache::poolBytes(cfg, 4, 3, device.target()));
  CHECK(cache.buffer(1, 'v').bytes() == 3 * 256);
  CHECK(cache.offset(2) == 512);
  CHECK_THROWS_WITH(cache.buffer(2, 'k'), "no KV cache buffer for layer 2 'k'");
  CHECK_THROWS_WITH(KvCache(device, cfg, 4, 0),
                    "a KV cache needs at least one chunk of one position, got 0 of 4");
}

TEST_CASE("KV cache: sequences grow, free, reuse; exhaustion leaves others intact",
          "[kvcache]") {
  rngd::Device device;
  KvCache cache(device, tinyConfig(), 4, 3);
  KvSequence a(cache), b(cache);
  a.reserve(1);
  CHECK(a.chunks() == std::vector<int>{0});
  a.reserve(4); // the limit of one chunk
  CHECK(a.chunks().size() == 1);
  a.reserve(5); // one past it
  CHECK(a.chunks() == std::vector<int>{0, 1});
  b.reserve(4);
  CHECK(b.chunks() == std::vector<int>{2});
  CHECK(cache.chunksInUse() == 3);

  // b's rows, then an exhausted pool: b keeps its chunk and its rows.
  const std::vector<uint16_t> rows(128, 0x3f80);
  REQUIRE(cache.buffer(0, 'k').write(rows.data(), 256, cache.offset(b.chunk(0))).ok());
  CHECK_THROWS_AS(a.reserve(9), KvCacheFull);
  CHECK_THROWS_WITH(a.reserve(9),
                    "the KV cache is full: all 3 chunks of 4 positions are in use");
  CHECK(a.chunks().size() == 2);
  std::vector<uint16_t> back(128);
  REQUIRE(cache.buffer(0, 'k').read(back.data(), 256, cache.offset(b.chunk(0))).ok());
  CHECK(back == rows);

  // b ends: its chunk is reused by a, with its rows zero again.
  b.clear();
  CHECK(cache.chunksInUse() == 2);
  a.reserve(9);
  CHECK(a.chunks() == std::vector<int>{0, 1, 2});
  REQUIRE(cache.buffer(0, 'k').read(back.data(), 256, cache.offset(2)).ok());
  CHECK(back == std::vector<uint16_t>(128, 0));
  CHECK_THROWS_WITH(a.chunk(3), "KV chunk 3 of a sequence that holds 3");
  CHECK_THROWS_WITH(cache.release(7), "releasing KV chunk 7, which is not in use (the pool has 3)");
}

TEST_CASE("KV cache: a sequence's end returns its chunks", "[kvcache]") {
  rngd::Device device;
  KvCache cache(device, tinyConfig(), 4, 2);
  {
    KvSequence s(cache);
    s.reserve(8);
    CHECK(cache.chunksInUse() == 2);
  }
  CHECK(cache.chunksInUse() == 0);
  KvSequence t(cache);
  t.reserve(8);
  CHECK(t.chunks() == std::vector<int>{0, 1});
}
