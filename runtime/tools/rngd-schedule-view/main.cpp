// rngd-schedule-view S.json -o S.html: a static HTML page with an SVG timeline of a schedule
// (rngdc --dump-schedule) or a simulator trace (rngd-run --trace), one row per context and
// engine. The page needs no server and no script.
#include "rngd/Timeline.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

int usage(FILE *to) {
  std::fprintf(to, "usage: rngd-schedule-view SCHEDULE.json -o OUT.html\n");
  return to == stdout ? 0 : 1;
}

int fail(const std::string &message) {
  std::fprintf(stderr, "rngd-schedule-view: %s\n", message.c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h")
      return usage(stdout);
    if (a == "-o" && i + 1 < argc)
      output = argv[++i];
    else if (!a.empty() && a[0] == '-')
      return fail("unknown option '" + a + "'");
    else if (input.empty())
      input = a;
    else
      return fail("one input file expected, got '" + input + "' and '" + a + "'");
  }
  if (input.empty() || output.empty())
    return usage(stderr);
  std::ifstream in(input, std::ios::binary);
  if (!in)
    return fail("cannot read '" + input + "'");
  std::stringstream text;
  text << in.rdbuf();
  rngd::Timeline timeline;
  std::string why;
  if (!rngd::readTimeline(text.str(), timeline, why))
    return fail(input + ": " + why);
  std::ofstream out(output, std::ios::binary);
  out << rngd::htmlTimeline(timeline);
  if (!out)
    return fail("cannot write '" + output + "'");
  return 0;
}
