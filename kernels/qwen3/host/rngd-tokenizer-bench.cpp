// rngd-tokenizer-bench TOKENIZER.json [FILE]: prints the encoder's speed in MB/s, on FILE or on
// a generated text (English prose, code, digits, Korean, Chinese, emoji; ~4 MB), first with an
// empty piece cache, then again with the cache filled. A benchmark, not a test.
#include "qwen3/host/Tokenizer.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

using rngd::qwen3::Tokenizer;

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: rngd-tokenizer-bench TOKENIZER.json [FILE]\n";
    return 1;
  }
  std::string text;
  if (argc == 3) {
    std::ifstream f(argv[2], std::ios::binary);
    if (!f) {
      std::cerr << "rngd-tokenizer-bench: error: cannot open " << argv[2] << "\n";
      return 1;
    }
    std::ostringstream s;
    s << f.rdbuf();
    text = s.str();
  } else {
    const char *parts[] = {"The quick brown fox jumps over the lazy dog; it's 12:30 and we'll see. ",
                           "for (int i = 0; i < n; ++i) {\n\t\tsum += a[i] * 31;    // accumulate\n}\n",
                           "안녕하세요, 만나서 반갑습니다. ", "今天天气很好，我们去公园散步吧。",
                           "こんにちは、世界！", "😀👍🏽🚀 ", "3.14159 2718281828 "};
    uint64_t x = 12345;
    while (text.size() < (4u << 20)) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      text += parts[(x >> 33) % 7];
      text += std::to_string((x >> 40) % 100000) + " ";
    }
  }
  Tokenizer tokenizer;
  std::string error;
  auto t0 = std::chrono::steady_clock::now();
  if (!tokenizer.loadFile(argv[1], error) || !tokenizer.canEncode()) {
    std::cerr << "rngd-tokenizer-bench: error: " << (error.empty() ? tokenizer.encoderError() : error) << "\n";
    return 1;
  }
  auto t1 = std::chrono::steady_clock::now();
  std::printf("load: %.2f s\n", std::chrono::duration<double>(t1 - t0).count());
  for (const char *pass : {"cold cache", "warm cache"}) {
    std::vector<int> ids;
    auto a = std::chrono::steady_clock::now();
    if (!tokenizer.encode(text, ids, error)) {
      std::cerr << "rngd-tokenizer-bench: error: " << error << "\n";
      return 1;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
    std::printf("encode (%s): %zu bytes -> %zu tokens in %.3f s: %.2f MB/s, %.0f tokens/s\n", pass,
                text.size(), ids.size(), s, text.size() / s / 1e6, ids.size() / s);
  }
  return 0;
}
