#include "opbase/collection_name.hpp"

#include <string>
#include <utility>

namespace opbase::collection {
namespace {

// How much of a rejected name the details echo back.
constexpr std::size_t kEchoedCharacters = 100;

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The first `count` characters of `text`, cut between UTF-8 sequences, never inside one.
std::string_view first_characters(std::string_view text, std::size_t count) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts_character = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_character && seen++ == count) return text.substr(0, i);
  }
  return text;
}

Status broken(std::string_view name, std::string message, std::string_view rule) {
  return Status::validation(
      std::move(message),
      {{"collection", std::string(first_characters(name, kEchoedCharacters))}, {"rule", rule}});
}

}  // namespace

Status check_collection_name(std::string_view name) {
  if (name.empty()) return broken(name, "collection name must not be empty", "non_empty");
  if (!is_lower(name.front()) && name.front() != '_') {
    return broken(name, "collection name must start with a lowercase letter or an underscore",
                  "first_character");
  }
  for (const char c : name) {
    if (!is_lower(c) && !is_digit(c) && c != '_') {
      return broken(name,
                    "collection name may contain only lowercase letters, digits and underscores",
                    "characters");
    }
  }
  if (name.size() > kMaxCollectionNameLength) {
    return broken(name,
                  "collection name must be at most " + std::to_string(kMaxCollectionNameLength) +
                      " characters",
                  "max_length");
  }
  return Status::ok();
}

}  // namespace opbase::collection
