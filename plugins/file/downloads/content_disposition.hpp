// The Content-Disposition of a download (RFC 6266): whether the browser shows the file or saves
// it, and under which name.
//
// Files are user content served from the daemon's own origin, so a file the browser would run
// (HTML, SVG, XML, JavaScript...) must never be shown in place: it could act as the daemon's
// origin. Only types a browser displays without running anything are inline; everything else is
// an attachment. The route also sends X-Content-Type-Options: nosniff, so the browser keeps to
// the stored type instead of guessing one.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace opbase::file {

// Whether a file of `content_type` (a media type, parameters allowed, any case) may be shown
// inline: image/png, image/jpeg, image/gif, image/webp, image/avif, any audio/ or video/ type,
// text/plain and application/pdf (browsers show PDF in a sandboxed viewer, apart from the
// page's origin). Never image/svg+xml or text/html, which can carry script, nor anything unknown.
bool safe_inline(std::string_view content_type);

// The Content-Disposition value for a download of the file `name` (UTF-8, 1-255 bytes, no '/',
// '\' or control character: requests/file_fields.hpp) of `content_type`:
//   inline|attachment; filename="<fallback>"; filename*=UTF-8''<name percent-encoded>
// filename* (RFC 8187) carries the exact name to browsers, which all read it; the quoted
// fallback is for the rest: ASCII only, with each non-ASCII character, '"', '\', '%' and any
// control replaced by '_'. The value is printable ASCII whatever `name` holds, so it can never
// break the header.
std::string content_disposition(std::string_view name, std::string_view content_type);

}  // namespace opbase::file
