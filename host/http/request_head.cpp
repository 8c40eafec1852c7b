#include "http/request_head.hpp"

#include <algorithm>
#include <cctype>

namespace opbase::host::http {
namespace {

// RFC 9110 tchar: the characters of a method and a field name.
bool is_token_char(unsigned char c) {
  if (std::isalnum(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
      return true;
    default:
      return false;
  }
}

bool is_token(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return is_token_char(static_cast<unsigned char>(c));
  });
}

// A field value may hold visible characters, bytes above 0x7f, spaces and tabs; no controls.
bool is_field_value(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c == '\t' || (c >= 0x20 && c != 0x7f);
  });
}

// A request target: origin-form, printable ASCII without spaces.
bool is_target(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c > 0x20 && c < 0x7f;
  });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits off the next line ended by CRLF. A bare LF or CR inside the line is an error.
std::optional<std::string_view> next_line(std::string_view& rest, std::string& error) {
  const size_t end = rest.find("\r\n");
  if (end == std::string_view::npos) {
    error = "a line of the request head does not end with CRLF";
    return std::nullopt;
  }
  const std::string_view line = rest.substr(0, end);
  if (line.find_first_of("\r\n") != std::string_view::npos) {
    error = "the request head holds a bare CR or LF";
    return std::nullopt;
  }
  rest.remove_prefix(end + 2);
  return line;
}

bool parse_request_line(std::string_view line, RequestHead& head, std::string& error) {
  const size_t first = line.find(' ');
  const size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos) {
    error = "the request line is not 'METHOD /path HTTP/1.1'";
    return false;
  }
  const std::string_view method = line.substr(0, first);
  const std::string_view target = line.substr(first + 1, second - first - 1);
  const std::string_view version = line.substr(second + 1);
  if (!is_token(method)) {
    error = "the request method is not a token";
    return false;
  }
  const bool asterisk = target == "*" && method == "OPTIONS";
  if (!is_target(target) || (target.front() != '/' && !asterisk)) {
    error = "the request target must be a path starting with '/'";
    return false;
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    error = "the HTTP version must be HTTP/1.1 or HTTP/1.0";
    return false;
  }
  head.method = std::string(method);
  head.target = std::string(target);
  head.minor_version = version.back() - '0';
  return true;
}

bool parse_field_line(std::string_view line, RequestHead& head, std::string& error) {
  if (line.front() == ' ' || line.front() == '\t') {
    error = "a header field is folded onto a second line";
    return false;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    error = "a header line has no ':'";
    return false;
  }
  const std::string_view name = line.substr(0, colon);
  if (!is_token(name)) {
    error = "a header name is not a token (or has white space before its ':')";
    return false;
  }
  const std::string_view value = trim(line.substr(colon + 1));
  if (!is_field_value(value)) {
    error = "the value of header '" + std::string(name) + "' holds a control character";
    return false;
  }
  if (head.fields.size() == kMaxFields) {
    error = "the request has more than " + std::to_string(kMaxFields) + " header fields";
    return false;
  }
  head.fields.emplace_back(std::string(name), std::string(value));
  return true;
}

// Content-Length: digits only, at most 18 of them (no overflow); repeats must agree.
bool take_content_length(std::string_view value, RequestHead& head, std::string& error) {
  if (value.empty() || value.size() > 18 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    error = "the Content-Length header is not a whole number of bytes";
    return false;
  }
  uint64_t length = 0;
  for (char c : value) length = length * 10 + static_cast<uint64_t>(c - '0');
  if (head.content_length && *head.content_length != length) {
    error = "the request has two different Content-Length headers";
    return false;
  }
  head.content_length = length;
  return true;
}

bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    if (equals_ignoring_case(trim(list.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

// What the framing and connection fields say, checked for conflicts once all are read.
bool read_framing(RequestHead& head, std::string& error) {
  int transfer_encodings = 0;
  for (const auto& [name, value] : head.fields) {
    if (equals_ignoring_case(name, "Content-Length")) {
      if (!take_content_length(value, head, error)) return false;
    } else if (equals_ignoring_case(name, "Transfer-Encoding")) {
      ++transfer_encodings;
      if (!equals_ignoring_case(value, "chunked")) {
        error = "the only Transfer-Encoding served is 'chunked'";
        return false;
      }
      head.chunked = true;
    } else if (equals_ignoring_case(name, "Connection")) {
      if (has_token(value, "close")) head.keep_alive = false;
      if (head.minor_version == 0 && has_token(value, "keep-alive")) head.keep_alive = true;
    } else if (equals_ignoring_case(name, "Expect")) {
      head.expect_continue = equals_ignoring_case(value, "100-continue");
    }
  }
  if (transfer_encodings > 1) {
    error = "the request has more than one Transfer-Encoding header";
    return false;
  }
  if (head.chunked && head.content_length) {
    error = "the request has both Content-Length and Transfer-Encoding";
    return false;
  }
  if (head.chunked && head.minor_version == 0) {
    error = "HTTP/1.0 requests cannot use Transfer-Encoding";
    return false;
  }
  return true;
}

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view RequestHead::path() const {
  const std::string_view all = target;
  return all.substr(0, all.find('?'));
}

std::string_view RequestHead::field(std::string_view name) const {
  for (const auto& [field_name, value] : fields) {
    if (equals_ignoring_case(field_name, name)) return value;
  }
  return {};
}

size_t RequestHead::field_count(std::string_view name) const {
  size_t count = 0;
  for (const auto& [field_name, value] : fields) {
    if (equals_ignoring_case(field_name, name)) ++count;
  }
  return count;
}

size_t head_length(std::string_view buffer, size_t searched) {
  // Leading CRLFs (RFC 9112 lets a server skip them) must not read as the blank line.
  size_t start = 0;
  while (buffer.substr(start, 2) == "\r\n") start += 2;
  // The blank line may straddle what was searched and what is new.
  start = std::max(start, searched > 3 ? searched - 3 : 0);
  const size_t end = buffer.find("\r\n\r\n", start);
  return end == std::string_view::npos ? 0 : end + 4;
}

HeadParse parse_request_head(std::string_view bytes) {
  HeadParse result;
  RequestHead head;
  while (bytes.substr(0, 2) == "\r\n") bytes.remove_prefix(2);
  auto line = next_line(bytes, result.error);
  if (!line) return result;
  if (!parse_request_line(*line, head, result.error)) return result;
  head.keep_alive = head.minor_version == 1;
  while (true) {
    line = next_line(bytes, result.error);
    if (!line) return result;
    if (line->empty()) break;  // the blank line that ends the head
    if (!parse_field_line(*line, head, result.error)) return result;
  }
  if (!bytes.empty()) {
    result.error = "bytes follow the blank line that ends the request head";
    return result;
  }
  if (!read_framing(head, result.error)) return result;
  result.head = std::move(head);
  return result;
}

}  // namespace opbase::host::http
