// Differential fuzzing of the JSON validator (opbase/json_text.hpp): for any bytes, is_valid must
// say what nlohmann::json::accept says (a text holding a NUL byte refused: the one deliberate
// difference), and is_object what that plus "starts with '{'" says.
// A disagreement traps; add the input to tests/unit/json_text_test.cpp's table once fixed.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "opbase/json_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool accepted =
      nlohmann::json::accept(text) && text.find('\0') == std::string_view::npos;
  if (opbase::json_text::is_valid(text) != accepted) __builtin_trap();
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  const bool object = accepted && first != std::string_view::npos && text[first] == '{';
  if (opbase::json_text::is_object(text) != object) __builtin_trap();
  return 0;
}
