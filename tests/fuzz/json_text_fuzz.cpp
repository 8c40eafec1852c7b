// Differential fuzzing of the JSON validator (opbase/json_text.hpp): for any bytes, is_valid must
// say what nlohmann::json::accept says (a text holding a NUL byte refused: the one deliberate
// difference), and is_object what that plus "starts with '{'" says. top_level_member must give,
// for a few names, the raw text of the value nlohmann::json::parse finds under that name in an
// object (nothing when there is none): checked by parsing that text again. array_items must give,
// for an array, as many elements as nlohmann finds, each the raw text of the element at its place.
// string_value of a member's text must decode a string as nlohmann does.
// A disagreement traps; add the input to tests/unit/sdk/json_text_test.cpp's table once fixed.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "opbase/json_text.hpp"

namespace {

bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

// `doc` is nlohmann's parse of `text` when it accepted it, else null.
void check_member(std::string_view text, const nlohmann::json& doc, const std::string& name) {
  const std::optional<std::string_view> value = opbase::json_text::top_level_member(text, name);
  const bool expected = doc.is_object() && doc.contains(name);
  if (value.has_value() != expected) __builtin_trap();
  if (!value) return;
  if (value->empty() || value->data() < text.data() || value->end() > text.end() ||
      is_blank(value->front()) || is_blank(value->back())) {
    __builtin_trap();
  }
  if (nlohmann::json::parse(*value) != doc[name]) __builtin_trap();
  // A string value decodes as nlohmann decoded it; anything else is no string.
  const auto decoded = opbase::json_text::string_value(*value);
  if (decoded.has_value() != doc[name].is_string()) __builtin_trap();
  if (decoded && *decoded != doc[name].get<std::string>()) __builtin_trap();
}

void check_items(std::string_view text, const nlohmann::json& doc) {
  const auto items = opbase::json_text::array_items(text);
  if (items.has_value() != doc.is_array()) __builtin_trap();
  if (!items) return;
  if (items->size() != doc.size()) __builtin_trap();
  for (std::size_t i = 0; i < items->size(); ++i) {
    const std::string_view item = (*items)[i];
    if (item.empty() || item.data() < text.data() || item.end() > text.end() ||
        is_blank(item.front()) || is_blank(item.back())) {
      __builtin_trap();
    }
    if (nlohmann::json::parse(item) != doc[i]) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool accepted = nlohmann::json::accept(text) && text.find('\0') == std::string_view::npos;
  if (opbase::json_text::is_valid(text) != accepted) __builtin_trap();
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  const bool object = accepted && first != std::string_view::npos && text[first] == '{';
  if (opbase::json_text::is_object(text) != object) __builtin_trap();

  const nlohmann::json doc = accepted ? nlohmann::json::parse(text) : nlohmann::json();
  for (const char* name : {"sub", "a", ""}) check_member(text, doc, name);
  // The same names in one pass return what each returns alone.
  const std::string_view names[] = {"sub", "a", ""};
  std::optional<std::string_view> found[3];
  const bool read = opbase::json_text::top_level_members(text, names, found);
  if (read != doc.is_object()) __builtin_trap();
  for (int i = 0; i < 3; ++i) {
    if (found[i] != opbase::json_text::top_level_member(text, names[i])) __builtin_trap();
  }
  check_items(text, doc);
  // A name the text does hold, so that matches are common. nlohmann's objects are sorted, so
  // begin() is the smallest key, not the first in the text; both are worth checking.
  if (doc.is_object() && !doc.empty()) {
    check_member(text, doc, doc.begin().key());
    check_member(text, doc, std::prev(doc.end()).key());
  }
  return 0;
}
