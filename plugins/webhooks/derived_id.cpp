#include "derived_id.hpp"

#include <openssl/sha.h>

#include "opbase/hex.hpp"

namespace opbase::webhooks {

std::string derived_id(std::string_view prefix, int64_t time_ms, std::string_view content) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(content.data()), content.size(), digest);
  return std::string(prefix) + time_hex(time_ms) +
         hex_encode(std::string_view(reinterpret_cast<const char*>(digest), 10));
}

std::string message_id(std::string_view event_id, std::string_view endpoint_id, int64_t event_ms) {
  return derived_id("msg_", event_ms, std::string(event_id) + "/" + std::string(endpoint_id));
}

}  // namespace opbase::webhooks
