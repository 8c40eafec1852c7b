#include "outbox/json_string.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace opbase::webhooks {

std::string json_string(std::string_view text) {
  const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
  });
  if (!plain) return nlohmann::json(text).dump();
  std::string out;
  out.reserve(text.size() + 2);
  return out.append(1, '"').append(text).append(1, '"');
}

}  // namespace opbase::webhooks
