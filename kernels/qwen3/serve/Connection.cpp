#include "qwen3/serve/Connection.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdlib>

namespace rngd::qwen3::serve {

namespace {

/// The address's numeric host and port.
bool hostAndPort(const sockaddr_storage &a, std::string &host, int &port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    const auto &v4 = reinterpret_cast<const sockaddr_in &>(a);
    port = ntohs(v4.sin_port);
    host = inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text) ? text : "";
    return true;
  }
  if (a.ss_family == AF_INET6) {
    const auto &v6 = reinterpret_cast<const sockaddr_in6 &>(a);
    port = ntohs(v6.sin6_port);
    host = inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text) ? text : "";
    return true;
  }
  return false;
}

bool matches(int fd, const std::string &remoteAddr, int remotePort, int localPort) {
  sockaddr_storage peer{}, self{};
  socklen_t n = sizeof peer, m = sizeof self;
  if (getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &n) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&self), &m) != 0)
    return false;
  std::string host, ignored;
  int port = 0, local = 0;
  return hostAndPort(peer, host, port) && hostAndPort(self, ignored, local) &&
         port == remotePort && local == localPort && host == remoteAddr;
}

} // namespace

Connection::Connection(const std::string &remoteAddr, int remotePort, int localPort) {
  DIR *dir = opendir("/proc/self/fd");
  if (!dir)
    return;
  while (dirent *e = readdir(dir)) {
    char *end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end != e->d_name && *end == '\0' && fd != dirfd(dir) &&
        matches(int(fd), remoteAddr, remotePort, localPort)) {
      fd_ = int(fd);
      break;
    }
  }
  closedir(dir);
}

bool Connection::closed() const {
  if (fd_ < 0)
    return false;
  pollfd p{fd_, POLLIN | POLLRDHUP, 0};
  if (poll(&p, 1, 0) <= 0)
    return false;
  if (p.revents & (POLLRDHUP | POLLHUP | POLLERR))
    return true;
  char c;
  return recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

} // namespace rngd::qwen3::serve
