// Where clients reach this daemon (see base_url.hpp).
#include "urls/base_url.hpp"

#include "opbase/host_services.hpp"

namespace opbase::file {

Result<std::string> BaseUrl::get() const {
  if (!public_url_.empty()) return public_url_;
  const std::lock_guard lock(mutex_);
  if (listening_url_.empty()) {
    auto answer = server_url(host_);
    if (!answer) return answer.status();
    listening_url_ = std::move(*answer);
  }
  return listening_url_;
}

}  // namespace opbase::file
