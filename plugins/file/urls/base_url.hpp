// BaseUrl: where clients reach this daemon, for the URLs the local backend signs and the ops
// answer: files.public_url when set, otherwise the address the daemon listens on, asked of the
// host on first use (the daemon knows its port only once it listens) and kept.
// Thread-safety: get() may be called from any thread.
#pragma once

#include <mutex>
#include <string>

#include "opbase/host.hpp"
#include "opbase/status.hpp"

namespace opbase::file {

class BaseUrl {
 public:
  BaseUrl(const Host& host, std::string public_url)
      : host_(host), public_url_(std::move(public_url)) {}

  Result<std::string> get() const;

 private:
  const Host& host_;
  const std::string public_url_;
  mutable std::mutex mutex_;
  mutable std::string listening_url_;
};

}  // namespace opbase::file
