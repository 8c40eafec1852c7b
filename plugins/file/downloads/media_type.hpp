// The essence of a media type (RFC 9110 §8.3.1, WHATWG MIME Sniffing "essence"): its
// type/subtype without parameters, as a browser compares it when it decides what a response
// may do.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace opbase::file {

// "type/subtype" of `content_type`, parameters and surrounding spaces or tabs dropped,
// lowercased: " Text/JavaScript; charset=utf-8" is "text/javascript".
std::string media_type_essence(std::string_view content_type);

// Whether `essence` is `type`/<some subtype>: "audio/ogg" has the type "audio", "audio/" not.
bool has_media_type(std::string_view essence, std::string_view type);

}  // namespace opbase::file
