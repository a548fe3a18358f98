// Whether an HTTP client is still there. cpp-httplib 0.11 (Debian 12's) does not tell a
// handler when its client hangs up, so the handler finds its connection's socket (the one
// whose addresses the request names) and asks the kernel: a socket whose peer has closed reads
// end-of-file.
#pragma once

#include <string>

namespace rngd::qwen3::serve {

class Connection {
public:
  /// The open socket connected from remoteAddr:remotePort to localPort; -1 when none is.
  Connection(const std::string &remoteAddr, int remotePort, int localPort);
  /// True once the peer has closed or reset the connection (false if the socket is unknown).
  bool closed() const;

private:
  int fd_ = -1;
};

} // namespace rngd::qwen3::serve
