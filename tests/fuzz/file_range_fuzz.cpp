// libFuzzer target: a download reads the Range, If-Range and If-None-Match headers every client
// sends (downloads/byte_range.hpp, downloads/entity_tag.hpp), and builds Content-Disposition
// from a stored name (downloads/content_disposition.hpp). The input is up to four lines: the
// file's size, a Range value, an If-None-Match value and an entity tag (the file's own when the
// line is missing). Beyond not crashing:
//   - a range served lies inside the file: 0 <= first <= last < size, never for an empty file;
//     a range refused or served had the bytes unit; spaces around the header change nothing;
//   - a plain "bytes=a-b", "bytes=a-" or "bytes=-n" of small numbers gets what RFC 9110 says;
//   - If-Range allows a range only for exactly our strong tag;
//   - a tag always matches itself, weak or strong, in If-None-Match, and W/ on our tag changes
//     nothing; a header that matched is "*" or holds our tag, and still matches with another tag
//     added to its list;
//   - Content-Disposition is printable ASCII, whatever the name and type.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "downloads/byte_range.hpp"
#include "downloads/content_disposition.hpp"
#include "downloads/entity_tag.hpp"

namespace {

using opbase::file::RangeAnswer;
using opbase::file::RangeKind;

void check(bool holds) {
  if (!holds) std::abort();
}

// The next line of `input`, taken off it.
std::string_view next_line(std::string_view& input) {
  const size_t end = input.find('\n');
  const std::string_view line = input.substr(0, end);
  input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
  return line;
}

bool same(const RangeAnswer& a, const RangeAnswer& b) {
  if (a.kind != b.kind) return false;
  return a.kind != RangeKind::kPartial ||
         (a.range.first == b.range.first && a.range.last == b.range.last);
}

bool starts_with_bytes_unit(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  if (text.size() < 6 || text[5] != '=') return false;
  for (size_t i = 0; i < 5; ++i) {
    if ((text[i] | 0x20) != "bytes"[i]) return false;
  }
  return true;
}

// Digits that fit an int64_t easily, read; absent for anything else.
std::optional<int64_t> small_number(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.front() == '-') {
    return std::nullopt;
  }
  return value;
}

// RFC 9110's answer to "bytes=<spec>" when the spec is plain small numbers; absent otherwise.
std::optional<RangeAnswer> expected(std::string_view range, int64_t size) {
  if (!range.starts_with("bytes=")) return std::nullopt;
  const std::string_view spec = range.substr(6);
  const size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view a = spec.substr(0, dash), b = spec.substr(dash + 1);
  if (a.empty()) {
    const auto n = small_number(b);
    if (!n) return std::nullopt;
    if (*n == 0) return RangeAnswer{RangeKind::kUnsatisfiable, {}};
    if (size == 0) return RangeAnswer{RangeKind::kWhole, {}};
    return RangeAnswer{RangeKind::kPartial, {*n >= size ? 0 : size - *n, size - 1}};
  }
  const auto first = small_number(a);
  const auto last = b.empty() ? std::optional<int64_t>(INT64_MAX) : small_number(b);
  if (!first || !last) return std::nullopt;
  if (*last < *first) return RangeAnswer{RangeKind::kWhole, {}};
  if (*first >= size) return RangeAnswer{RangeKind::kUnsatisfiable, {}};
  return RangeAnswer{RangeKind::kPartial, {*first, *last < size ? *last : size - 1}};
}

void check_range(std::string_view range, int64_t size) {
  const RangeAnswer answer = opbase::file::read_byte_range(range, size);
  if (answer.kind == RangeKind::kPartial) {
    check(size > 0 && 0 <= answer.range.first && answer.range.first <= answer.range.last &&
          answer.range.last < size);
    const std::string header = opbase::file::content_range(answer.range, size);
    check(header.starts_with("bytes ") && header.ends_with("/" + std::to_string(size)));
  }
  if (answer.kind != RangeKind::kWhole) check(starts_with_bytes_unit(range));
  const std::string padded = " \t" + std::string(range) + "\t ";
  check(same(opbase::file::read_byte_range(padded, size), answer));
  if (const auto oracle = expected(range, size)) check(same(*oracle, answer));
}

void check_tags(std::string_view if_none_match, std::string_view etag) {
  const bool condition = opbase::file::none_match(if_none_match, etag);
  if (const auto ours = opbase::file::read_entity_tag(etag)) {
    check(!opbase::file::none_match(etag, etag));
    check(opbase::file::if_range_allows(etag, etag) == !ours->weak);
    if (!ours->weak) {
      const std::string weak = "W/" + std::string(etag);
      check(!opbase::file::none_match(weak, etag));
      check(opbase::file::none_match(if_none_match, weak) == condition);
    }
  }
  // A header that matched was "*" or a list holding our tag; a list stays a list with one more.
  const bool star = if_none_match.find('*') != std::string_view::npos;
  if (!condition && !star) {
    const auto ours = opbase::file::read_entity_tag(etag);
    check(ours && if_none_match.find(ours->opaque) != std::string_view::npos);
    check(!opbase::file::none_match(std::string(if_none_match) + ", \"other\"", etag));
  }
  // If-Range: only exactly our tag, strong, with nothing but spaces around it.
  if (opbase::file::if_range_allows(if_none_match, etag)) {
    std::string_view text = if_none_match;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    check(text == etag && !etag.starts_with("W/"));
  }
}

void check_disposition(std::string_view name, std::string_view type) {
  for (const char c : opbase::file::content_disposition(name, type)) {
    check(c >= 0x20 && c < 0x7F);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string_view size_line = next_line(input);
  int64_t file_size = 0;
  const auto [end, error] =
      std::from_chars(size_line.data(), size_line.data() + size_line.size(), file_size);
  if (error != std::errc() || file_size < 0) file_size = static_cast<int64_t>(size_line.size());
  const std::string_view range = next_line(input);
  const std::string_view if_none_match = next_line(input);
  const std::string own =
      opbase::file::entity_tag("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
  const std::string_view etag = input.empty() ? std::string_view(own) : next_line(input);

  check_range(range, file_size);
  check_range(range, 0);
  check_tags(if_none_match, etag);
  check_tags(range, own);
  check_disposition(range, if_none_match);
  return 0;
}
