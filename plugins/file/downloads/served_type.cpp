#include "downloads/served_type.hpp"

#include <algorithm>
#include <array>

#include "downloads/media_type.hpp"

namespace opbase::file {
namespace {

// WHATWG MIME Sniffing §4.6 "JavaScript MIME type", the list browsers run scripts of, then the
// stylesheet types.
constexpr std::array<std::string_view, 19> kActiveTypes = {"application/ecmascript",
                                                           "application/javascript",
                                                           "application/x-ecmascript",
                                                           "application/x-javascript",
                                                           "text/ecmascript",
                                                           "text/javascript",
                                                           "text/javascript1.0",
                                                           "text/javascript1.1",
                                                           "text/javascript1.2",
                                                           "text/javascript1.3",
                                                           "text/javascript1.4",
                                                           "text/javascript1.5",
                                                           "text/jscript",
                                                           "text/livescript",
                                                           "text/x-ecmascript",
                                                           "text/x-javascript",
                                                           "text/css",
                                                           "text/xsl",
                                                           "application/xslt+xml"};

}  // namespace

bool runs_in_page(std::string_view content_type) {
  const std::string essence = media_type_essence(content_type);
  return std::find(kActiveTypes.begin(), kActiveTypes.end(), essence) != kActiveTypes.end();
}

std::string served_content_type(std::string_view content_type) {
  return runs_in_page(content_type) ? std::string(kNeutralType) : std::string(content_type);
}

}  // namespace opbase::file
