// Fuzzes the properties-file parser: any bytes must parse or fail with a message, never crash,
// and every parsed key must be non-empty and trimmed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/properties_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = opbase::host::parse_properties(text, "fuzz.properties");
  if (!parsed) {
    if (parsed.status().message().empty()) std::abort();
    return 0;
  }
  for (const auto& [key, value] : *parsed) {
    if (key.empty() || key.front() == ' ' || key.back() == ' ') std::abort();
    if (!value.empty() && (value.front() == ' ' || value.back() == ' ')) std::abort();
  }
  return 0;
}
