// Structure-aware mutations for the fuzz targets that read MLIR text (linked into their libFuzzer
// executables only). libFuzzer's byte mutations rarely move a whole line, so 10 million
// executions of tcp_pipeline never made an op at module level that uses a name a later
// function defines (the parser's heap corruption, docs/reliability.md). Here two mutations in
// three work on statements instead: swap, duplicate, delete or move whole ones, and splice
// statements of another corpus input (the seeds: every kernel of the tree) into this one. A
// statement is a line, or the lines of one op whose brackets ( [ < are still open.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

using Statements = std::vector<std::string>;

/// The text as statements, each with its line ends; concatenating them gives the text back.
Statements split(const uint8_t *data, size_t size) {
  Statements statements;
  std::string current;
  int open = 0;
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    current.push_back(c);
    open += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (c == '\n' && open <= 0) {
      statements.push_back(std::move(current));
      current.clear();
      open = 0;
    }
  }
  if (!current.empty())
    statements.push_back(std::move(current));
  return statements;
}

size_t join(const Statements &statements, uint8_t *out, size_t maxSize) {
  size_t size = 0;
  for (const std::string &s : statements)
    size += s.size();
  if (size > maxSize)
    return 0;
  size_t at = 0;
  for (const std::string &s : statements) {
    std::memcpy(out + at, s.data(), s.size());
    at += s.size();
  }
  return size;
}

size_t pick(std::minstd_rand &rng, size_t count) { return rng() % count; }

/// One statement-level edit of `text`; false when it has too few statements.
bool mutateStatements(Statements &text, std::minstd_rand &rng) {
  if (text.size() < 2)
    return false;
  size_t a = pick(rng, text.size()), b = pick(rng, text.size());
  switch (rng() % 4) {
  case 0: // swap
    std::swap(text[a], text[b]);
    break;
  case 1: // duplicate a at b
    text.insert(text.begin() + b, text[a]);
    break;
  case 2: // delete
    text.erase(text.begin() + a);
    break;
  default: { // move a to b
    std::string moved = std::move(text[a]);
    text.erase(text.begin() + a);
    text.insert(text.begin() + std::min(b, text.size()), std::move(moved));
  }
  }
  return true;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  std::minstd_rand rng(seed);
  if (rng() % 3 != 0) {
    Statements text = split(data, size);
    if (mutateStatements(text, rng))
      if (size_t joined = join(text, data, maxSize))
        return joined;
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

/// Splices one to four consecutive statements of `second` into `first`, inserted or in place of
/// as many of its own.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *first, size_t firstSize,
                                            const uint8_t *second, size_t secondSize,
                                            uint8_t *out, size_t maxOutSize, unsigned seed) {
  std::minstd_rand rng(seed);
  Statements text = split(first, firstSize), donor = split(second, secondSize);
  if (donor.empty())
    return 0;
  size_t from = pick(rng, donor.size());
  size_t count = std::min<size_t>(1 + pick(rng, 4), donor.size() - from);
  size_t at = text.empty() ? 0 : pick(rng, text.size() + 1);
  if (rng() % 2 == 1 && at < text.size()) // replace instead of insert
    text.erase(text.begin() + at, text.begin() + std::min(at + count, text.size()));
  text.insert(text.begin() + at, donor.begin() + from, donor.begin() + from + count);
  return join(text, out, maxOutSize);
}
