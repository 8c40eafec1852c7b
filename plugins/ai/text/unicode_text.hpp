// What the AI ops need to know of a text before any provider sees it: its length in Unicode code
// points (the unit of the content limit: docs/api.md#ai-request-checks) and whether it is blank.
// Request texts come from parsed JSON, so they are valid UTF-8 already.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace opbase::ai {

// Code points in UTF-8 text: the bytes that do not continue a sequence.
size_t code_points(std::string_view text);

// The code point starting at byte `at` of `text` and its length in bytes: U+FFFD and 1 for a
// bad lead byte, a bad continuation or a sequence cut short by the end of the text.
char32_t decode_utf8(std::string_view text, size_t at, size_t* length);

// Appends code point `point` to `out` as UTF-8.
void append_utf8(char32_t point, std::string* out);

// Unicode white space: ASCII spaces and controls, NEL, NBSP, the U+2000 spaces, ogham space,
// narrow and medium mathematical spaces, line and paragraph separators, ideographic space, BOM.
bool is_space(char32_t point);

// True for text with no code point other than Unicode white space (ASCII spaces and controls,
// NBSP, the U+2000 spaces, line and paragraph separators, ideographic space, and BOM).
bool is_blank(std::string_view text);

}  // namespace opbase::ai
