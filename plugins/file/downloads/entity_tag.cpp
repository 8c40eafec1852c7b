#include "downloads/entity_tag.hpp"

namespace opbase::file {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

void skip_spaces(std::string_view& text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
}

std::string_view trimmed(std::string_view text) {
  skip_spaces(text);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// etagc: '!', '#' to '~', and obs-text (any byte above 0x7F). Note ',' is one, so a list of tags
// cannot be split at commas before each tag is read.
bool is_tag_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte == 0x21 || (byte >= 0x23 && byte <= 0x7E) || byte >= 0x80;
}

// Takes the entity tag at the start of `text` off it; absent, and `text` left alone, if there
// is none there.
std::optional<EntityTag> take_entity_tag(std::string_view& text) {
  const size_t open = text.starts_with("W/") ? 2 : 0;
  if (text.size() <= open || text[open] != '"') return std::nullopt;
  const size_t close = text.find('"', open + 1);
  if (close == std::string_view::npos) return std::nullopt;
  const auto tag = read_entity_tag(text.substr(0, close + 1));
  if (tag) text.remove_prefix(close + 1);
  return tag;
}

}  // namespace

std::string entity_tag(std::string_view sha256_hex) {
  std::string tag = "\"";
  tag += sha256_hex;
  tag += '"';
  return tag;
}

std::optional<EntityTag> read_entity_tag(std::string_view text) {
  EntityTag tag;
  if (text.starts_with("W/")) {
    tag.weak = true;
    text.remove_prefix(2);
  }
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::nullopt;
  for (const char c : text.substr(1, text.size() - 2)) {
    if (!is_tag_char(c)) return std::nullopt;
  }
  tag.opaque = text;
  return tag;
}

bool none_match(std::string_view if_none_match, std::string_view etag) {
  std::string_view rest = trimmed(if_none_match);
  if (rest == "*") return false;
  const auto ours = read_entity_tag(etag);
  if (!ours) return true;
  bool matched = false;
  // #entity-tag: tags separated by commas, with spaces around them and empty elements allowed.
  for (;;) {
    while (!rest.empty() && (is_space(rest.front()) || rest.front() == ',')) rest.remove_prefix(1);
    if (rest.empty()) break;
    const auto tag = take_entity_tag(rest);
    if (!tag) return true;  // not a list of tags: ignore the header
    matched = matched || tag->opaque == ours->opaque;
    skip_spaces(rest);
    if (!rest.empty() && rest.front() != ',') return true;
  }
  return !matched;
}

}  // namespace opbase::file
