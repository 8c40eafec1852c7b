#include "translate/apertium_stream.hpp"

namespace opbase::ai {

namespace {

bool is_markup(char c) {
  switch (c) {
    case '\\':
    case '^':
    case '$':
    case '/':
    case '<':
    case '>':
    case '[':
    case ']':
    case '{':
    case '}':
      return true;
    default:
      return false;
  }
}

bool needs_superblank(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return c == '@' || c == '*' || c == '#' || c == '~' || (byte < 0x20 && c != '\t') || byte == 0x7F;
}

// Copies the superblank opening at stream[at] ('[') without its brackets and escapes; returns
// the index after its closing bracket.
size_t open_superblank(std::string_view stream, size_t at, std::string* out) {
  size_t i = at + 1;
  while (i < stream.size() && stream[i] != ']') {
    if (stream[i] == '\\' && i + 1 < stream.size()) ++i;
    out->push_back(stream[i]);
    ++i;
  }
  return i + 1;
}

}  // namespace

std::string to_stream(std::string_view text) {
  std::string stream;
  stream.reserve(text.size() + text.size() / 8 + 8);
  for (const char c : text) {
    if (c == '\0') continue;
    if (is_markup(c)) {
      stream.push_back('\\');
      stream.push_back(c);
    } else if (needs_superblank(c)) {
      stream += "[\\";
      stream.push_back(c);
      stream.push_back(']');
    } else {
      stream.push_back(c);
    }
  }
  return stream;
}

StreamText from_stream(std::string_view stream) {
  StreamText plain;
  plain.text.reserve(stream.size());
  size_t i = 0;
  while (i < stream.size()) {
    const char c = stream[i];
    if (c == '[') {
      i = open_superblank(stream, i, &plain.text);
    } else if (c == '\\' && i + 1 < stream.size()) {
      if (stream[i + 1] == '@') {
        ++plain.unknown_marks;  // the user's @ travels in superblanks, so this one is a mark
      } else {
        plain.text.push_back(stream[i + 1]);
      }
      i += 2;
    } else if (c == '*' || c == '#' || c == '@') {
      ++plain.unknown_marks;
      ++i;
    } else {
      plain.text.push_back(c);
      ++i;
    }
  }
  return plain;
}

}  // namespace opbase::ai
