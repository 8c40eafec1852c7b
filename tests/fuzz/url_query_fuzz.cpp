// libFuzzer target: the query parameters of a request target (opbase/url_query.hpp), read on
// every endpoint route's request (the API key of an event stream). Any bytes must give a value
// or nothing, never a crash; a decoded value is never longer than its text; and any value,
// percent-encoded into a query beside other parameters, reads back as itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "opbase/hex.hpp"
#include "opbase/url_query.hpp"

namespace {

// Every byte as %XX: the plainest encoding, which any decoder must read.
std::string percent_encoded(std::string_view text) {
  std::string out;
  for (const char c : text) out += "%" + opbase::hex_encode(std::string_view(&c, 1));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  for (const std::string_view name : {"api_key", "a", ""}) {
    if (const auto value = opbase::url_query_value(input, name)) {
      if (value->size() > input.size()) std::abort();
    }
  }
  if (const auto decoded = opbase::url_decode(input); decoded && decoded->size() > input.size()) {
    std::abort();
  }
  const std::string target = "/api/k/realtime?x=1&api_key=" + percent_encoded(input) + "&y=2";
  const auto read = opbase::url_query_value(target, "api_key");
  if (!read || *read != input) std::abort();
  return 0;
}
