#include "downloads/byte_range.hpp"

#include <algorithm>
#include <limits>

#include "downloads/entity_tag.hpp"

namespace opbase::file {
namespace {

constexpr RangeAnswer kWhole{RangeKind::kWhole, {}};
constexpr RangeAnswer kUnsatisfiable{RangeKind::kUnsatisfiable, {}};

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether the decimal `a` is less than the decimal `b`, at any length: compared as text, so two
// numbers too large for int64_t still compare right.
bool less_than(std::string_view a, std::string_view b) {
  a.remove_prefix(std::min(a.find_first_not_of('0'), a.size()));
  b.remove_prefix(std::min(b.find_first_not_of('0'), b.size()));
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// The decimal `digits`, or the largest int64_t if it is larger: past the end of any file, which
// is all a range needs to know of such a number.
int64_t saturated(std::string_view digits) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t value = 0;
  for (const char c : digits) {
    const int digit = c - '0';
    if (value > (kMax - digit) / 10) return kMax;
    value = value * 10 + digit;
  }
  return value;
}

bool is_bytes_unit(std::string_view unit) {
  constexpr std::string_view kBytes = "bytes";
  return unit.size() == kBytes.size() &&
         std::equal(unit.begin(), unit.end(), kBytes.begin(),
                    [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a) == b; });
}

// The last `digits` bytes: "-n".
RangeAnswer suffix_range(std::string_view digits, int64_t size) {
  if (!is_digits(digits)) return kWhole;
  const int64_t length = saturated(digits);
  if (length == 0) return kUnsatisfiable;
  if (size == 0) return kWhole;  // all of nothing: no Content-Range can say that
  return {RangeKind::kPartial, {size - std::min(length, size), size - 1}};
}

// One range-spec: "a-b", "a-" or "-n".
RangeAnswer answer_for(std::string_view spec, int64_t size) {
  const size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return kWhole;
  const std::string_view first = spec.substr(0, dash), last = spec.substr(dash + 1);
  if (first.empty()) return suffix_range(last, size);
  if (!is_digits(first) || !(last.empty() || is_digits(last))) return kWhole;
  if (!last.empty() && less_than(last, first)) return kWhole;  // invalid (§14.1.1): ignored
  const int64_t first_byte = saturated(first);
  if (first_byte >= size) return kUnsatisfiable;
  const int64_t last_byte = last.empty() ? size - 1 : std::min(saturated(last), size - 1);
  return {RangeKind::kPartial, {first_byte, last_byte}};
}

}  // namespace

RangeAnswer read_byte_range(std::optional<std::string_view> range, int64_t size) {
  if (!range) return kWhole;
  const std::string_view value = trimmed(*range);
  const size_t equals = value.find('=');
  if (equals == std::string_view::npos || !is_bytes_unit(value.substr(0, equals))) return kWhole;
  // The range-set: range-specs hold no comma, so it splits at commas; empty elements do not
  // count (RFC 9110 §5.6.1).
  std::optional<std::string_view> only;
  std::string_view rest = value.substr(equals + 1);
  for (;;) {
    const size_t comma = rest.find(',');
    const std::string_view spec = trimmed(rest.substr(0, comma));
    if (!spec.empty()) {
      if (only) return kWhole;  // several ranges: not served, see the header
      only = spec;
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return only ? answer_for(*only, size) : kWhole;
}

std::string content_range(const ByteRange& range, int64_t size) {
  return "bytes " + std::to_string(range.first) + "-" + std::to_string(range.last) + "/" +
         std::to_string(size);
}

std::string unsatisfied_content_range(int64_t size) { return "bytes */" + std::to_string(size); }

bool if_range_allows(std::optional<std::string_view> if_range, std::string_view etag) {
  if (!if_range) return true;
  const auto theirs = read_entity_tag(trimmed(*if_range));
  const auto ours = read_entity_tag(etag);
  return theirs && ours && !theirs->weak && !ours->weak && theirs->opaque == ours->opaque;
}

}  // namespace opbase::file
