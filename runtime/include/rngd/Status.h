// The runtime's error channel: every failure is a Status with a message, never an abort.
#pragma once

#include <string>
#include <utility>

namespace rngd {

class Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status failure(std::string message) {
    Status s;
    s.ok_ = false;
    s.message_ = std::move(message);
    return s;
  }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const std::string &message() const { return message_; }

private:
  bool ok_ = true;
  std::string message_;
};

} // namespace rngd
