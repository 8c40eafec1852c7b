#include "opbase/json_text.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace opbase::json_text {
namespace {

using Byte = unsigned char;

// The unread part of the text. Every scanner advances `p` past what it accepted.
struct Cursor {
  const Byte* p;
  const Byte* end;

  bool at(Byte b) const { return p != end && *p == b; }
  std::ptrdiff_t left() const { return end - p; }
};

// ---------------------------------------------------------------------------------------------
// Byte classes, as tables so the hot loops do one load per byte.

// The bytes a run of plain string content stops at: the closing quote, an escape, a raw control
// character (refused) and the start of a multi-byte UTF-8 sequence (validated apart).
constexpr std::array<bool, 256> kStringStops = [] {
  std::array<bool, 256> stops{};
  for (int b = 0; b < 256; ++b) stops[b] = b < 0x20 || b >= 0x80 || b == '"' || b == '\\';
  return stops;
}();

// Hex digit values; -1 for anything else.
constexpr std::array<int8_t, 256> kHexValues = [] {
  std::array<int8_t, 256> values{};
  for (int b = 0; b < 256; ++b) values[b] = -1;
  for (int d = 0; d < 10; ++d) values['0' + d] = static_cast<int8_t>(d);
  for (int d = 0; d < 6; ++d) {
    values['a' + d] = static_cast<int8_t>(10 + d);
    values['A' + d] = static_cast<int8_t>(10 + d);
  }
  return values;
}();

bool is_digit(Byte b) { return b >= '0' && b <= '9'; }
bool is_blank(Byte b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }

// Compact JSON has no blanks at all: one test settles the common case.
void skip_blanks(Cursor& c) {
  if (c.p != c.end && *c.p > ' ') return;
  while (c.p != c.end && is_blank(*c.p)) ++c.p;
}

// ---------------------------------------------------------------------------------------------
// Strings.

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kLow7Bits = 0x7F7F7F7F7F7F7F7FULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Whether any of the 8 bytes in `word` is a string stop: cheap, exact about "any" (a borrow can
// flag a byte above a true stop, never one without), which is all the loop needs.
bool has_string_stop(std::uint64_t word) {
  const std::uint64_t quote = word ^ (kOnes * '"');
  const std::uint64_t backslash = word ^ (kOnes * '\\');
  // A byte's high bit ends up set if it is 0 after the xor (quote, backslash), below 0x20 before
  // the subtraction, or already >= 0x80 (the `word` term).
  return (((quote - kOnes) | (backslash - kOnes) | (word - kOnes * 0x20) | word) & kHighBits) != 0;
}

// The high bit of each byte of `word` that is zero; exact, as no byte carries into the next.
std::uint64_t zero_bytes(std::uint64_t word) {
  return ~(((word & kLow7Bits) + kLow7Bits) | word | kLow7Bits);
}

// The high bit of each byte of `word` that is a string stop, exactly.
std::uint64_t string_stops(std::uint64_t word) {
  const std::uint64_t controls = ~(((word & kLow7Bits) + kOnes * 0x60) | word) & kHighBits;
  return zero_bytes(word ^ (kOnes * '"')) | zero_bytes(word ^ (kOnes * '\\')) | controls |
         (word & kHighBits);
}

// Skips plain string content 8 bytes at a time, then to the stop itself: at once on
// little-endian machines (the first byte in memory is the lowest), bytewise elsewhere.
void skip_plain(Cursor& c) {
  while (c.left() >= 8) {
    std::uint64_t word;
    std::memcpy(&word, c.p, sizeof word);
    if (has_string_stop(word)) {
      if constexpr (std::endian::native == std::endian::little) {
        c.p += std::countr_zero(string_stops(word)) / 8;
        return;
      }
      break;
    }
    c.p += 8;
  }
  while (c.p != c.end && !kStringStops[*c.p]) ++c.p;
}

// One UTF-8 sequence of 2-4 bytes (c.p at its lead byte), with the ranges of RFC 3629 that
// nlohmann's lexer enforces: the second byte's range rules out overlongs (E0, F0), encoded
// surrogates (ED) and code points above U+10FFFF (F4).
bool scan_utf8(Cursor& c) {
  const Byte lead = *c.p;
  int continuations = 2;
  Byte low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuations = 1;
  } else if (lead == 0xE0) {
    low = 0xA0;
  } else if (lead == 0xED) {
    high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuations = 3;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else if (lead < 0xE1 || lead > 0xEF) {
    return false;  // a continuation byte, C0/C1 (always overlong) or F5-FF
  }
  if (c.left() <= continuations || c.p[1] < low || c.p[1] > high) return false;
  for (int i = 2; i <= continuations; ++i) {
    if ((c.p[i] & 0xC0) != 0x80) return false;
  }
  c.p += continuations + 1;
  return true;
}

// Four hex digits (the XXXX of \uXXXX) into `unit`.
bool read_hex4(Cursor& c, int& unit) {
  if (c.left() < 4) return false;
  unit = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = kHexValues[c.p[i]];
    if (digit < 0) return false;
    unit = unit * 16 + digit;
  }
  c.p += 4;
  return true;
}

bool is_high_surrogate(int unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool is_low_surrogate(int unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

// The rest of a \u escape (c.p after "\u"). nlohmann decodes the escapes to UTF-8, so it refuses
// the UTF-16 units that make no code point: a low surrogate alone, a high one not followed at
// once by a \u low one.
bool scan_unicode_escape(Cursor& c) {
  int unit = 0;
  if (!read_hex4(c, unit) || is_low_surrogate(unit)) return false;
  if (!is_high_surrogate(unit)) return true;
  if (c.left() < 2 || c.p[0] != '\\' || c.p[1] != 'u') return false;
  c.p += 2;
  return read_hex4(c, unit) && is_low_surrogate(unit);
}

// One escape, c.p at its backslash.
bool scan_escape(Cursor& c) {
  if (c.left() < 2) return false;
  const Byte escaped = c.p[1];
  c.p += 2;
  switch (escaped) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
      return true;
    case 'u':
      return scan_unicode_escape(c);
    default:
      return false;
  }
}

// A string, c.p at its opening quote.
bool scan_string(Cursor& c) {
  ++c.p;
  for (;;) {
    skip_plain(c);
    if (c.p == c.end) return false;
    const Byte b = *c.p;
    if (b == '"') {
      ++c.p;
      return true;
    }
    if (b == '\\') {
      if (!scan_escape(c)) return false;
    } else if (b < 0x20 || !scan_utf8(c)) {
      return false;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers.

// The digits of 2^1024 - 2^970, halfway between DBL_MAX and 2^1024: strtod (correctly rounded,
// ties to even, and DBL_MAX's mantissa is odd) makes this and anything above it infinite, and
// nlohmann refuses a number that converts to infinity. Its leading digit is at 10^308.
constexpr std::string_view kOverflowDigits =
    "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797"
    "75872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548"
    "45817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711"
    "559699508093042880177904174497792";
constexpr std::int64_t kOverflowLeadExponent = 308;

// A huge exponent only needs to stay huge: capping it keeps the arithmetic in range.
constexpr std::int64_t kExponentCap = 1'000'000'000'000'000;

// Where a number's parts are, once its grammar is checked.
struct Number {
  const Byte* int_begin;
  const Byte* int_end;
  const Byte* frac_begin = nullptr;  // empty fraction if absent
  const Byte* frac_end = nullptr;
  std::int64_t exponent = 0;
};

void skip_digits(Cursor& c) {
  while (c.p != c.end && is_digit(*c.p)) ++c.p;
}

// [eE][+-]?[0-9]+ (c.p after the 'e'), its value capped at +-kExponentCap.
bool scan_exponent(Cursor& c, std::int64_t& exponent) {
  const bool negative = c.at('-');
  if (negative || c.at('+')) ++c.p;
  if (c.p == c.end || !is_digit(*c.p)) return false;
  for (; c.p != c.end && is_digit(*c.p); ++c.p) {
    if (exponent < kExponentCap) exponent = exponent * 10 + (*c.p - '0');
  }
  if (negative) exponent = -exponent;
  return true;
}

// Compares digits [from, to) with kOverflowDigits from position `i` on: -1 below, 1 at or above
// (every limit digit matched and more digits follow), 0 equal so far.
int compare_with_limit(const Byte* from, const Byte* to, std::size_t& i) {
  for (; from != to; ++from, ++i) {
    if (i == kOverflowDigits.size()) return 1;
    const Byte limit = static_cast<Byte>(kOverflowDigits[i]);
    if (*from != limit) return *from < limit ? -1 : 1;
  }
  return 0;
}

// Whether strtod gives a finite value: compares the number's magnitude (power of ten of its
// first non-zero digit, then its digits) with kOverflowDigits. The sign does not matter.
bool is_finite(const Number& n) {
  const Byte* first = n.int_begin;
  while (first != n.int_end && *first == '0') ++first;
  const bool in_fraction = first == n.int_end;
  if (in_fraction) {
    first = n.frac_begin;
    while (first != n.frac_end && *first == '0') ++first;
    if (first == n.frac_end) return true;  // zero, whatever its exponent
  }
  const std::int64_t lead_exponent =
      n.exponent + (in_fraction ? -(first - n.frac_begin) - 1 : (n.int_end - first) - 1);
  if (lead_exponent != kOverflowLeadExponent) return lead_exponent < kOverflowLeadExponent;
  std::size_t i = 0;
  int order = compare_with_limit(first, in_fraction ? n.frac_end : n.int_end, i);
  if (order == 0 && !in_fraction) order = compare_with_limit(n.frac_begin, n.frac_end, i);
  // Equal so far: below the limit unless all its digits were matched (the limit ends in 2, so
  // running out early means below).
  return order < 0 || (order == 0 && i < kOverflowDigits.size());
}

// A number, c.p at its '-' or first digit.
bool scan_number(Cursor& c) {
  if (c.at('-')) ++c.p;
  Number n{c.p, c.p};
  if (c.at('0')) {
    ++c.p;
  } else if (c.p != c.end && is_digit(*c.p)) {
    skip_digits(c);
  } else {
    return false;
  }
  n.int_end = c.p;
  if (c.at('.')) {
    ++c.p;
    n.frac_begin = c.p;
    skip_digits(c);
    n.frac_end = c.p;
    if (n.frac_begin == n.frac_end) return false;
  }
  if (c.at('e') || c.at('E')) {
    ++c.p;
    if (!scan_exponent(c, n.exponent)) return false;
  }
  // Fewer than 309 integer digits (after the exponent) cannot reach 10^308: skip the slow check.
  const std::int64_t int_digits = n.int_end - n.int_begin;
  return int_digits - 1 + n.exponent < kOverflowLeadExponent || is_finite(n);
}

// true, false or null, c.p at its first letter.
bool scan_literal(Cursor& c) {
  std::string_view word;
  switch (*c.p) {
    case 't':
      word = "true";
      break;
    case 'f':
      word = "false";
      break;
    default:
      word = "null";
      break;
  }
  if (c.left() < static_cast<std::ptrdiff_t>(word.size()) ||
      std::memcmp(c.p, word.data(), word.size()) != 0) {
    return false;
  }
  c.p += word.size();
  return true;
}

// A string, number or literal, c.p at its first byte (not at end).
bool scan_scalar(Cursor& c) {
  switch (*c.p) {
    case '"':
      return scan_string(c);
    case 't':
    case 'f':
    case 'n':
      return scan_literal(c);
    default:
      return scan_number(c);
  }
}

// ---------------------------------------------------------------------------------------------
// Nesting, without recursion: nlohmann's accept keeps a stack too, so any depth is valid.

// The open containers, one bit each (1 = object). The first 256 levels live inline, so only
// deeper texts allocate.
class Nesting {
 public:
  bool empty() const { return depth_ == 0; }
  bool in_object() const { return (word(depth_ - 1) >> ((depth_ - 1) % 64)) & 1; }

  void push(bool object) {
    const std::size_t index = depth_ / 64;
    if (index >= kInlineWords && index - kInlineWords == spilled_.size()) spilled_.push_back(0);
    const std::uint64_t bit = std::uint64_t{1} << (depth_ % 64);
    std::uint64_t& w = word(depth_);
    w = object ? (w | bit) : (w & ~bit);
    ++depth_;
  }
  void pop() { --depth_; }

 private:
  static constexpr std::size_t kInlineWords = 4;

  std::uint64_t& word(std::size_t level) {
    const std::size_t index = level / 64;
    return index < kInlineWords ? inline_[index] : spilled_[index - kInlineWords];
  }
  std::uint64_t word(std::size_t level) const {
    const std::size_t index = level / 64;
    return index < kInlineWords ? inline_[index] : spilled_[index - kInlineWords];
  }

  std::array<std::uint64_t, kInlineWords> inline_{};
  std::vector<std::uint64_t> spilled_;
  std::size_t depth_ = 0;
};

// The colon after a key and the blanks around it; leaves c.p at the value.
bool scan_colon(Cursor& c) {
  skip_blanks(c);
  if (!c.at(':')) return false;
  ++c.p;
  skip_blanks(c);
  return true;
}

// An object member's key and colon, c.p at the key; leaves c.p at the value.
bool scan_key(Cursor& c) { return c.at('"') && scan_string(c) && scan_colon(c); }

// Starts a value, c.p at its first byte. A scalar or empty container is then `complete`; an
// opened container leaves c.p at its first value (after the key, in an object).
bool begin_value(Cursor& c, Nesting& nesting, bool& complete) {
  complete = true;
  if (c.p == c.end) return false;
  const Byte open = *c.p;
  if (open != '{' && open != '[') return scan_scalar(c);
  ++c.p;
  skip_blanks(c);
  if (c.at(open + 2)) {  // '}' is '{' + 2, ']' is '[' + 2
    ++c.p;
    return true;
  }
  complete = false;
  nesting.push(open == '{');
  return open == '[' || scan_key(c);
}

enum class After { kFail, kValue, kDone };

// What follows a complete value: closing brackets, then either nothing left open (kDone, c.p
// right after the last bracket, so the caller knows where the value ends) or a ',' (and, in an
// object, the next key) with c.p at the next value (kValue).
After end_value(Cursor& c, Nesting& nesting) {
  for (;;) {
    if (nesting.empty()) return After::kDone;
    skip_blanks(c);
    if (c.p == c.end) return After::kFail;
    const Byte b = *c.p++;
    if (b == ',') {
      skip_blanks(c);
      return !nesting.in_object() || scan_key(c) ? After::kValue : After::kFail;
    }
    if (b != (nesting.in_object() ? '}' : ']')) return After::kFail;
    nesting.pop();
  }
}

// One complete value, c.p at its first byte; leaves c.p right after it and `nesting` as it found
// it, empty.
bool scan_value(Cursor& c, Nesting& nesting) {
  for (;;) {
    bool complete = false;
    if (!begin_value(c, nesting, complete)) return false;
    if (!complete) continue;
    const After after = end_value(c, nesting);
    if (after != After::kValue) return after == After::kDone;
  }
}

// Blanks, then the end of the text. nlohmann reads a NUL where a token starts as the end of the
// input, so it accepts "{}\0junk". Not here: the host copies a valid text into its responses as it
// is, and the bytes after the NUL would go out with it.
bool at_end(Cursor& c) {
  skip_blanks(c);
  return c.p == c.end;
}

bool scan_document(Cursor& c) {
  Nesting nesting;
  skip_blanks(c);
  return scan_value(c, nesting) && at_end(c);
}

// nlohmann skips a BOM at the very start only, and refuses a text starting with a broken one.
bool skip_bom(Cursor& c) {
  if (!c.at(0xEF)) return true;
  if (c.left() < 3 || c.p[1] != 0xBB || c.p[2] != 0xBF) return false;
  c.p += 3;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Top-level members.

// The UTF-8 of code point `code` (at most U+10FFFF) into `out`; returns its length.
int encode_utf8(std::uint32_t code, Byte* out) {
  static constexpr Byte kLeads[] = {0, 0, 0xC0, 0xE0, 0xF0};
  const int length = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  for (int i = length - 1; i > 0; --i, code >>= 6) out[i] = static_cast<Byte>(0x80 | (code & 0x3F));
  out[0] = static_cast<Byte>(kLeads[length] | code);
  return length;
}

// The code point of a \u escape, c.p after its "\u". The key was validated: the digits are
// there and a high surrogate is followed by "\u" and a low one.
std::uint32_t decode_unicode_escape(Cursor& c) {
  int unit = 0;
  read_hex4(c, unit);
  if (!is_high_surrogate(unit)) return static_cast<std::uint32_t>(unit);
  int low = 0;
  c.p += 2;
  read_hex4(c, low);
  return 0x10000 + ((static_cast<std::uint32_t>(unit) - 0xD800) << 10) +
         (static_cast<std::uint32_t>(low) - 0xDC00);
}

// What the one-letter escapes stand for: \b \f \n \r \t, and '"', '\\' and '/' themselves.
constexpr std::array<Byte, 256> kSimpleEscapes = [] {
  std::array<Byte, 256> bytes{};
  for (int b = 0; b < 256; ++b) bytes[b] = static_cast<Byte>(b);
  bytes['b'] = '\b';
  bytes['f'] = '\f';
  bytes['n'] = '\n';
  bytes['r'] = '\r';
  bytes['t'] = '\t';
  return bytes;
}();

// The bytes a valid escape stands for (c.p at its backslash) into `out`; returns how many.
int decode_escape(Cursor& c, Byte* out) {
  const Byte escaped = c.p[1];
  c.p += 2;
  if (escaped == 'u') return encode_utf8(decode_unicode_escape(c), out);
  out[0] = kSimpleEscapes[escaped];
  return 1;
}

// Whether the valid key content [c.p, c.end), decoded as nlohmann decodes it, is `name`: byte by
// byte, so nothing is allocated.
bool decoded_key_is(Cursor c, std::string_view name) {
  std::size_t matched = 0;
  while (c.p != c.end) {
    Byte bytes[4];
    std::size_t count = 1;
    if (*c.p == '\\') {
      count = static_cast<std::size_t>(decode_escape(c, bytes));
    } else {
      bytes[0] = *c.p++;
    }
    if (name.size() - matched < count || std::memcmp(name.data() + matched, bytes, count) != 0) {
      return false;
    }
    matched += count;
  }
  return matched == name.size();
}

std::string_view as_view(const Byte* begin, const Byte* end) {
  return {reinterpret_cast<const char*>(begin), static_cast<std::size_t>(end - begin)};
}

// Whether a valid key's content (between its quotes) is `name`. Keys seldom hold an escape: then
// the raw bytes are the decoded ones.
bool key_is(const Byte* begin, const Byte* end, std::string_view name) {
  const std::string_view raw = as_view(begin, end);
  if (raw.find('\\') == std::string_view::npos) return raw == name;
  return decoded_key_is(Cursor{begin, end}, name);
}

// One member of the top-level object, c.p at its key; leaves c.p right after its value and
// `found` at that value if the key is `name` (a later duplicate overwrites it, as in nlohmann).
bool scan_member(Cursor& c, Nesting& nesting, std::span<const std::string_view> names,
                 std::span<std::optional<std::string_view>> found) {
  const Byte* key = c.p;
  if (!c.at('"') || !scan_string(c)) return false;
  const Byte* key_end = c.p - 1;
  if (!scan_colon(c)) return false;
  const Byte* value = c.p;
  if (!scan_value(c, nesting)) return false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (key_is(key + 1, key_end, names[i])) found[i] = as_view(value, c.p);
  }
  return true;
}

// The elements of the top-level container, c.p at its opening bracket; leaves c.p after `close`.
// `element` scans one (an object's member, an array's value) from its first byte. The container
// itself is not on the Nesting its elements are scanned with, so each element starts and ends with
// that stack empty, which tells where it ends.
template <typename Element>
bool scan_elements(Cursor& c, Byte close, Element&& element) {
  ++c.p;
  skip_blanks(c);
  if (c.at(close)) {
    ++c.p;
    return true;
  }
  for (;;) {
    if (!element(c)) return false;
    skip_blanks(c);
    if (c.p == c.end) return false;
    const Byte b = *c.p++;
    if (b == close) return true;
    if (b != ',') return false;
    skip_blanks(c);
  }
}

// The top-level object, c.p at its '{'.
bool scan_members(Cursor& c, std::span<const std::string_view> names,
                  std::span<std::optional<std::string_view>> found) {
  Nesting nesting;
  return scan_elements(c, '}', [&](Cursor& at) { return scan_member(at, nesting, names, found); });
}

// ---------------------------------------------------------------------------------------------
// Array elements.

// The top-level array, c.p at its '['.
bool scan_items(Cursor& c, std::vector<std::string_view>& items) {
  Nesting nesting;
  return scan_elements(c, ']', [&](Cursor& at) {
    const Byte* item = at.p;
    if (!scan_value(at, nesting)) return false;
    items.push_back(as_view(item, at.p));
    return true;
  });
}

// A cursor at the opening bracket `open` of the container `text` holds (after an optional BOM,
// as nlohmann::json::parse allows, and blanks), or nullopt when `text` starts otherwise.
std::optional<Cursor> at_container(std::string_view text, Byte open) {
  const Byte* begin = reinterpret_cast<const Byte*>(text.data());
  Cursor c{begin, begin + text.size()};
  if (!skip_bom(c)) return std::nullopt;
  skip_blanks(c);
  if (!c.at(open)) return std::nullopt;
  return c;
}

// The decoded content of the valid string [begin, end) (quotes excluded).
std::string decode_content(const Byte* begin, const Byte* end) {
  const std::string_view raw = as_view(begin, end);
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);  // nothing to decode
  std::string out;
  out.reserve(raw.size());
  Cursor c{begin, end};
  while (c.p != c.end) {
    if (*c.p != '\\') {
      out.push_back(static_cast<char>(*c.p++));
      continue;
    }
    Byte bytes[4];
    out.append(reinterpret_cast<const char*>(bytes),
               static_cast<std::size_t>(decode_escape(c, bytes)));
  }
  return out;
}

}  // namespace

bool is_valid(std::string_view text) noexcept {
  const Byte* begin = reinterpret_cast<const Byte*>(text.data());
  Cursor c{begin, begin + text.size()};
  return skip_bom(c) && scan_document(c);
}

bool is_object(std::string_view text) noexcept {
  const std::size_t first = text.find_first_not_of(" \t\n\r");
  return first != std::string_view::npos && text[first] == '{' && is_valid(text);
}

std::optional<std::string_view> top_level_member(std::string_view text,
                                                 std::string_view name) noexcept {
  std::optional<std::string_view> found;
  if (!top_level_members(text, {&name, 1}, {&found, 1})) return std::nullopt;
  return found;
}

bool top_level_members(std::string_view text, std::span<const std::string_view> names,
                       std::span<std::optional<std::string_view>> found) noexcept {
  for (std::optional<std::string_view>& value : found) value.reset();
  std::optional<Cursor> c = at_container(text, '{');
  if (c && scan_members(*c, names, found) && at_end(*c)) return true;
  for (std::optional<std::string_view>& value : found) value.reset();
  return false;
}

std::optional<std::vector<std::string_view>> array_items(std::string_view text) {
  std::optional<Cursor> c = at_container(text, '[');
  std::vector<std::string_view> items;
  if (!c || !scan_items(*c, items) || !at_end(*c)) return std::nullopt;
  return items;
}

std::optional<std::string> string_value(std::string_view text) {
  const Byte* begin = reinterpret_cast<const Byte*>(text.data());
  Cursor c{begin, begin + text.size()};
  if (!c.at('"') || !scan_string(c) || c.p != c.end) return std::nullopt;
  return decode_content(begin + 1, c.end - 1);
}

}  // namespace opbase::json_text
