// rngd-tokenize TOKENIZER.json [--lines | --json-lines] [--decode]
// Encodes standard input with a Hugging Face tokenizer.json and prints the ids comma separated;
// --lines encodes each line (without its newline) separately, one output line per input line;
// --json-lines reads one JSON string per line (so a string may hold newlines); --decode reads
// ids (comma or white-space separated; per line with --lines) and prints the text.
#include "qwen3/host/Tokenizer.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using rngd::qwen3::Tokenizer;

namespace {

const char *kUsage =
    "usage: rngd-tokenize TOKENIZER.json [--lines | --json-lines] [--decode]\n"
    "  reads standard input; prints token ids comma separated (or text with --decode)\n"
    "  --lines       one input line (without its newline) -> one output line\n"
    "  --json-lines  each input line is a JSON string (encode only)\n"
    "  --decode      input: ids separated by commas or white space; output: the text\n";

[[noreturn]] void die(const std::string &message) {
  std::cerr << "rngd-tokenize: error: " << message << "\n";
  std::exit(1);
}

std::string joinIds(const std::vector<int> &ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i)
    out += (i ? "," : "") + std::to_string(ids[i]);
  return out;
}

std::vector<int> parseIds(const std::string &text, const std::string &where) {
  std::vector<int> ids;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ',' || std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    long long v = 0;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) && v < (1LL << 31))
      v = v * 10 + (text[j++] - '0');
    if (j == i || v >= (1LL << 31) ||
        (j < text.size() && text[j] != ',' && !std::isspace(static_cast<unsigned char>(text[j]))))
      die(where + ": '" + text.substr(i, 20) + "' is not a token id");
    ids.push_back(int(v));
    i = j;
  }
  return ids;
}

} // namespace

int main(int argc, char **argv) {
  std::string path;
  bool lines = false, jsonLines = false, decode = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--lines")
      lines = true;
    else if (a == "--json-lines")
      jsonLines = true;
    else if (a == "--decode")
      decode = true;
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (!a.empty() && a[0] == '-')
      die("unknown option " + a + "\n" + kUsage);
    else if (path.empty())
      path = a;
    else
      die("more than one tokenizer file (" + path + ", " + a + ")");
  }
  if (path.empty())
    die(std::string("no tokenizer file\n") + kUsage);
  if (jsonLines && (lines || decode))
    die("--json-lines encodes only and excludes --lines");

  Tokenizer tokenizer;
  std::string error;
  if (!tokenizer.loadFile(path, error))
    die(error);
  if (!decode && !tokenizer.canEncode())
    die(tokenizer.encoderError() + " (" + path + ")");

  auto encodeLine = [&](const std::string &text, const std::string &where) {
    std::vector<int> ids;
    if (!tokenizer.encode(text, ids, error))
      die(where + ": " + error);
    std::cout << joinIds(ids) << "\n";
  };
  auto decodeText = [&](const std::string &text, const std::string &where) {
    std::string out;
    if (!tokenizer.decode(parseIds(text, where), out, error))
      die(where + ": " + error);
    std::cout << out;
  };

  if (lines || jsonLines) {
    std::string line;
    for (size_t n = 1; std::getline(std::cin, line); ++n) {
      std::string where = "stdin line " + std::to_string(n);
      if (jsonLines) {
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_string())
          die(where + ": not a JSON string");
        encodeLine(j.get<std::string>(), where);
      } else if (decode) {
        decodeText(line, where);
        std::cout << "\n";
      } else {
        encodeLine(line, where);
      }
    }
    return 0;
  }
  std::string all((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  if (decode)
    decodeText(all, "stdin");
  else
    encodeLine(all, "stdin");
  return 0;
}
