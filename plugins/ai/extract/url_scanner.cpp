#include "extract/url_scanner.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "extract/utf8.hpp"

namespace opbase::ai::extract {

namespace {

constexpr double kConfidence = 0.97;
constexpr std::array<std::string_view, 4> kStarts = {"https://", "http://", "ftp://", "www."};

bool starts_with_ignoring_case(std::string_view text, size_t at, std::string_view prefix) {
  if (text.size() - at < prefix.size()) return false;
  return ascii_lower(text.substr(at, prefix.size())) == prefix;
}

// Bytes a URL may hold: printable ASCII other than blanks, quotes and angle brackets, and any
// non-ASCII byte except those of typographic quotes and blanks (checked by the caller).
bool is_url_byte(unsigned char c) {
  if (c >= 0x80) return true;
  return c > 0x20 && c < 0x7F && c != '"' && c != '<' && c != '>' && c != '`' && c != '\\' &&
         c != '{' && c != '}' && c != '|' && c != '^';
}

size_t raw_end(std::string_view text, size_t at) {
  while (at < text.size()) {
    const Decoded decoded = decode_at(text, at);
    const bool quote = decoded.point >= 0x2018 && decoded.point <= 0x201F;
    if (decoded.point >= 0x80 && (quote || is_space(decoded.point))) break;
    if (decoded.point < 0x80 && !is_url_byte(static_cast<unsigned char>(decoded.point))) break;
    at += decoded.size;
  }
  return at;
}

// Trailing ".,;:!?'" end the sentence; a ')' or ']' ends the URL only when the URL opened
// fewer than it closes. The brackets are counted once, so a long run of them stays linear.
size_t trim_end(std::string_view text, size_t begin, size_t end) {
  const std::string_view body = text.substr(begin, end - begin);
  long parens =
      std::count(body.begin(), body.end(), ')') - std::count(body.begin(), body.end(), '(');
  long squares =
      std::count(body.begin(), body.end(), ']') - std::count(body.begin(), body.end(), '[');
  while (end > begin) {
    const char last = text[end - 1];
    const bool sentence = last == '.' || last == ',' || last == ';' || last == ':' || last == '!' ||
                          last == '?' || last == '\'';
    const bool unmatched = (last == ')' && parens > 0) || (last == ']' && squares > 0);
    if (!sentence && !unmatched) break;
    if (last == ')') --parens;
    if (last == ']') --squares;
    --end;
  }
  return end;
}

// The scheme and host in lower case, the rest as written; "https://" before a bare "www.".
std::string normalise(std::string_view url) {
  std::string prefix;
  if (starts_with_ignoring_case(url, 0, "www.")) prefix = "https://";
  const size_t scheme_end = url.find("://");
  const size_t host_begin = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
  size_t host_end = url.find_first_of("/?#", host_begin);
  if (host_end == std::string_view::npos) host_end = url.size();
  return prefix + ascii_lower(url.substr(0, host_end)) + std::string(url.substr(host_end));
}

// A host with a dot and a letter after it, so "http://" alone or "www." alone is no URL.
bool has_host(std::string_view url) {
  const size_t scheme_end = url.find("://");
  const size_t host_begin = scheme_end == std::string_view::npos ? 4 : scheme_end + 3;
  size_t host_end = url.find_first_of("/?#", host_begin);
  if (host_end == std::string_view::npos) host_end = url.size();
  const std::string_view host = url.substr(host_begin, host_end - host_begin);
  const size_t dot = host.find('.');
  return host.size() >= 3 && (dot != std::string_view::npos || host.starts_with("localhost"));
}

}  // namespace

std::vector<FoundEntity> scan_urls(std::string_view text, const Claims& claims) {
  std::vector<FoundEntity> found;
  size_t at = 0;
  while (at < text.size()) {
    const bool boundary = at == 0 || !is_letter(decode_before(text, at).point);
    std::string_view start;
    for (const auto candidate : kStarts) {
      if (boundary && starts_with_ignoring_case(text, at, candidate)) start = candidate;
      if (!start.empty()) break;
    }
    if (start.empty()) {
      ++at;
      continue;
    }
    const size_t end = trim_end(text, at, raw_end(text, at + start.size()));
    const std::string_view url = text.substr(at, end - at);
    if (end > at + start.size() && has_host(url) && !claims.any(at, end)) {
      FoundEntity entity;
      entity.type = EntityType::kUrl;
      entity.begin = at;
      entity.end = end;
      entity.confidence = kConfidence;
      entity.fields["value"] = normalise(url);
      found.push_back(std::move(entity));
      at = end;
      continue;
    }
    at += start.size();
  }
  return found;
}

}  // namespace opbase::ai::extract
