// The Content-Type a download from the daemon is served with. Files are user content on the
// daemon's own origin, where the management console's CSP (`script-src 'self'`) admits any
// script of that origin: a `<script src>` or `<link rel=stylesheet>` naming a file would run or
// apply it as the daemon's own. Browsers run a response as script only when its type is a
// JavaScript type, and apply it as a stylesheet only when it is text/css (an XSLT sheet only
// when it is an XSLT type), since every download is also sent with X-Content-Type-Options:
// nosniff. So those types are served as plain text, which nothing runs; the record keeps the
// type as uploaded. Documents (HTML, SVG, XML) keep their type: opened, they are an attachment
// in a sandbox (Content-Security-Policy: sandbox), and as an image (SVG) they run nothing.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace opbase::file {

// What a download serves as.
inline constexpr std::string_view kNeutralType = "text/plain; charset=utf-8";

// Whether a page would run or apply a response of `content_type` (parameters allowed, any case):
// the JavaScript types of WHATWG MIME Sniffing (text/javascript, application/javascript,
// application/ecmascript, text/jscript, text/javascript1.0 to 1.5, ...), text/css, and the XSLT
// types text/xsl and application/xslt+xml.
bool runs_in_page(std::string_view content_type);

// The stored `content_type` as served: kNeutralType when it runs_in_page, else unchanged.
std::string served_content_type(std::string_view content_type);

}  // namespace opbase::file
