// Chrome trace / Perfetto JSON from a schedule (rngdc --dump-schedule) or a simulator trace
// (rngd-run --trace): both list ops with a context, engines and start/end cycles. Open the
// result in chrome://tracing or ui.perfetto.dev.
#pragma once

#include <string>

namespace rngd {

/// One track per context (tdma, main, sub) and per engine (dma0..7, fetch, contract, ...);
/// cycles are shown as nanoseconds (1 GHz). Returns false with a message for input that is not
/// a schedule or trace.
bool chromeTrace(const std::string &scheduleOrTraceJson, std::string &out, std::string &why);

} // namespace rngd
