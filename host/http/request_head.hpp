// RequestHead: the request line and header fields of one HTTP/1.1 request, parsed strictly from
// the bytes before the blank line. Strict because the daemon may sit behind a proxy: any request
// two parsers could read differently (two different Content-Lengths, Content-Length beside
// Transfer-Encoding, a bare LF, a folded or malformed field) is refused rather than guessed at,
// so no second request can be smuggled inside the first.
//
// What is refused, each with its own message:
//   - a request line that is not `METHOD SP /target SP HTTP/1.x` (target "*" only for OPTIONS);
//   - a line not ended by CRLF, a field line folded onto the next (obs-fold), a field name that is
//     not an RFC 9110 token or is followed by white space before the colon, a field value with a
//     control character (NUL, CR, LF, DEL, ...);
//   - more than kMaxFields fields;
//   - Content-Length that is not all digits, too big, or repeated with another value;
//   - Transfer-Encoding other than exactly "chunked", or with Content-Length, or on HTTP/1.0.
//
// Thread-safety: a value type; parse_request_head is a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opbase::host::http {

inline constexpr size_t kMaxFields = 100;

struct RequestHead {
  std::string method;
  std::string target;                                       // as sent: path and query
  int minor_version = 1;                                    // HTTP/1.<minor_version>
  std::vector<std::pair<std::string, std::string>> fields;  // names as sent, values trimmed

  std::optional<uint64_t> content_length;
  bool chunked = false;
  bool expect_continue = false;  // Expect: 100-continue
  // Whether the client asks to keep the connection: HTTP/1.1 unless "Connection: close",
  // HTTP/1.0 only with "Connection: keep-alive".
  bool keep_alive = true;

  // The path, without the query.
  std::string_view path() const;
  // The value of the first field named `name` (any case), or "" when there is none.
  std::string_view field(std::string_view name) const;
  // How many fields are named `name` (any case).
  size_t field_count(std::string_view name) const;
  // Whether the request carries a body: a Content-Length above 0, or chunks.
  bool has_body() const { return chunked || content_length.value_or(0) > 0; }
};

struct HeadParse {
  std::optional<RequestHead> head;  // set on success
  std::string error;                // why the bytes are not a request we serve, on failure
};

// Parses `bytes`: everything up to and including the CRLF CRLF that ends the head. Leading empty
// lines (CRLF) before the request line are skipped, as RFC 9112 allows.
HeadParse parse_request_head(std::string_view bytes);

// The length of the head at the start of `buffer` (up to and including CRLF CRLF), or 0 when the
// blank line has not arrived yet. `searched`: how much of `buffer` an earlier call already looked
// through without finding it, so bytes arriving one at a time are not searched again and again.
size_t head_length(std::string_view buffer, size_t searched = 0);

bool equals_ignoring_case(std::string_view a, std::string_view b);

}  // namespace opbase::host::http
