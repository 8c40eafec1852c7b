#include "outbox/derived_id.hpp"

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::webhooks {

std::string derived_id(std::string_view prefix, int64_t time_ms, std::string_view content) {
  return std::string(prefix) + time_hex(time_ms) + hex_encode(sha256(content).substr(0, 10));
}

std::string message_id(std::string_view event_id, std::string_view endpoint_id, int64_t event_ms) {
  return derived_id("msg_", event_ms, std::string(event_id) + "/" + std::string(endpoint_id));
}

}  // namespace opbase::webhooks
