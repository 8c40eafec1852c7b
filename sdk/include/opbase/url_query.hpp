// The query of a request target ("/path?a=1&b=x%20y"): the value of one parameter, decoded from
// its percent-escapes and '+' for a space, the way browsers encode a form or a URL built with
// URLSearchParams. For the few credentials and cursors a URL carries (an API key on an event
// stream, a signed URL's fields). Pure; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opbase {

// The first parameter named `name` in the query of `target` (after its first '?'), decoded;
// nullopt when there is none, or when its value holds a malformed escape ("%" not followed by
// two hex digits). A parameter without '=' has the value "".
std::optional<std::string> url_query_value(std::string_view target, std::string_view name);

// `text` with its percent-escapes and '+' decoded; nullopt for a malformed escape.
std::optional<std::string> url_decode(std::string_view text);

}  // namespace opbase
