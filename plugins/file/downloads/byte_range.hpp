// The answer to a download's Range header (RFC 9110 §14): the whole file, one range of it (206
// Partial Content) or nothing (416 Range Not Satisfiable), and If-Range, which says whether the
// Range header may be used at all.
//
// Only a single "bytes" range is served. Several ranges would need a multipart/byteranges body;
// RFC 9110 §14.2 lets a server ignore Range altogether, so a header with more than one range is
// answered with the whole file (200), which every client must handle anyway. A header we cannot
// read — another unit, bad syntax, a range whose last byte comes before its first — is ignored
// the same way: sending the whole file is never wrong, only larger.
//
// The caller evaluates Range only for GET (§14.2: GET is the only method range handling is
// defined for, so HEAD must ignore it), and only after If-None-Match has not already answered
// 304 (entity_tag.hpp).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace opbase::file {

// Bytes first to last of a file, both included: first <= last < size.
struct ByteRange {
  int64_t first = 0;
  int64_t last = 0;
};

enum class RangeKind {
  kWhole,          // 200 with the whole file
  kPartial,        // 206 with `range`, and Content-Range: content_range(range, size)
  kUnsatisfiable,  // 416 with no body, and Content-Range: unsatisfied_content_range(size)
};

struct RangeAnswer {
  RangeKind kind = RangeKind::kWhole;
  ByteRange range;  // kPartial only
};

// What to send for the Range header `range` (absent: no header) of a GET of a file of `size`
// bytes (size >= 0). Of one range-spec:
//   bytes=a-b  bytes a to b, b clamped to the last byte; a past the end is unsatisfiable;
//   bytes=a-   bytes a to the end, the same way;
//   bytes=-n   the last n bytes (all of them when n >= size); -0 is unsatisfiable.
// The unit is case-insensitive; spaces and tabs may surround the header, each range and each
// comma, as RFC 9110's list syntax allows, and nowhere else (not around '=' or '-'). Numbers too
// large for int64_t are only "larger than any file" (RFC 9110 asks recipients to expect them): a
// first byte that large is past the end (416), a last byte or suffix that large reaches the end. An
// empty file has no byte to send: an a-b or a- range is unsatisfiable (416), as RFC 9110 says, and
// a suffix -n (n > 0), the one form it calls satisfiable there, gets the whole, empty, file: no
// Content-Range can name a range of zero bytes.
RangeAnswer read_byte_range(std::optional<std::string_view> range, int64_t size);

// The Content-Range of a 206: "bytes <first>-<last>/<size>".
std::string content_range(const ByteRange& range, int64_t size);

// The Content-Range of a 416: "bytes */<size>", so the client learns the size.
std::string unsatisfied_content_range(int64_t size);

// Whether the If-Range header `if_range` (absent: no header) lets Range be used for the file
// whose entity tag is `etag` (entity_tag.hpp). Absent: yes. An entity tag: only if it matches
// `etag` by strong comparison (neither weak, same opaque tag). An HTTP-date, or anything else:
// no, because we do not compare dates; the client then gets the whole file, which is always a
// correct answer to a stale range.
bool if_range_allows(std::optional<std::string_view> if_range, std::string_view etag);

}  // namespace opbase::file
