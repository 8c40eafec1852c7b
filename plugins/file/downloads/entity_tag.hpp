// Entity tags of stored files (RFC 9110 §8.8.3) and the If-None-Match precondition that uses
// them (§13.1.2). A file's bytes never change once stored and their SHA-256 is on the record,
// so the digest itself is the tag, and a strong one: equal tags mean equal bytes.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opbase::file {

// The strong ETag of a file whose SHA-256 is `sha256_hex` (64 lowercase hex digits, as
// requests/file_fields.hpp keeps it): the digest in double quotes.
std::string entity_tag(std::string_view sha256_hex);

// An entity tag as a client sent it: W/ or not, and the opaque tag, quotes included.
struct EntityTag {
  bool weak = false;
  std::string_view opaque;  // views the text it was read from
};

// `text` read as exactly one entity-tag: [W/]"<chars>", where the chars are printable ASCII but
// '"', or bytes above 0x7F. Nothing else, not even spaces around it; absent if it is not one.
std::optional<EntityTag> read_entity_tag(std::string_view text);

// The If-None-Match condition (§13.1.2) for the file whose tag is `etag`: false when the header
// `if_none_match` is "*" (the file exists) or lists a tag that matches `etag` by weak comparison
// (W/ ignored on both sides), so a GET or HEAD answers 304 Not Modified; true otherwise, and the
// file is served. A header that is not a list of entity tags is ignored (true): sending the file
// is never wrong, a 304 on a misread header could be.
bool none_match(std::string_view if_none_match, std::string_view etag);

}  // namespace opbase::file
