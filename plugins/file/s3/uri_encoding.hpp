// Percent-encoding as AWS Signature Version 4 wants it ("UriEncode" in the S3 API reference,
// docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html): the unreserved
// characters A-Z a-z 0-9 - _ . ~ stay, every other byte becomes %XX with uppercase hex digits (a
// space too: "%20", never "+"). The signature covers the encoded text, and S3 recomputes it from
// the URL it receives, so the URL is built with these same functions rather than with a general
// URL encoder that might differ in one character.
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opbase::file {

// Names with values, in the order given: query parameters, or header fields.
using NameValues = std::vector<std::pair<std::string, std::string>>;

// Whether '/' stays: it separates the segments of an object key's path, and it is data in a query
// parameter.
enum class Slash { kKeep, kEncode };

std::string uri_encode(std::string_view bytes, Slash slash);

// The canonical query string: names and values uri_encode'd ('/' encoded), the pairs sorted by
// encoded name (then by encoded value, for a name given twice) and joined as "name=value" with
// '&'. A parameter without a value is "name=" ("?lifecycle" is signed as "lifecycle="). Empty for
// no parameters.
std::string canonical_query(const NameValues& params);

}  // namespace opbase::file
