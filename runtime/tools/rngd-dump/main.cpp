// rngd-dump FILE: prints an executable as rngd dialect MLIR (the text rngdc assembles back to
// identical bytes). A malformed file is reported on stderr with exit status 1.
#include "rngd/Runtime.h"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fprintf(argc == 2 ? stdout : stderr, "usage: rngd-dump FILE.rngd\n");
    return argc == 2 ? 0 : 1;
  }
  rngd::Executable exe;
  rngd::Status st = rngd::loadExecutableFile(argv[1], exe);
  if (!st) {
    std::fprintf(stderr, "rngd-dump: %s: %s\n", argv[1], st.message().c_str());
    return 1;
  }
  std::string text = rngd::printExecutable(exe);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
