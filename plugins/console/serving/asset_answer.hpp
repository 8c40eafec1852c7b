// The answer of the console's route to one request (docs/operations.md#the-management-console):
//   GET /console/            index.html
//   GET /console/<file>      that file of the AssetFolder
// 304 when If-None-Match names the file's ETag, 404 for any other path, 405 (Allow: GET)
// for any other method. Every answer carries the page's security headers: a Content-Security-
// Policy that lets the page load and run only its own files and talk only to this daemon, no
// framing, no sniffing, no referrer; each file is revalidated on every load (no-cache), so an
// upgrade of the daemon is seen at once.
// Thread-safety: a pure function.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serving/asset_folder.hpp"

namespace opbase::console {

struct AssetAnswer {
  int status = 200;
  std::string content_type;
  std::string_view body;  // into the AssetFolder, or a static text
  std::vector<std::pair<std::string, std::string>> headers;
};

// `target` as sent (path and query); `if_none_match` the header, when sent.
AssetAnswer answer_asset(const AssetFolder& assets, std::string_view method,
                         std::string_view target, const std::optional<std::string>& if_none_match);

}  // namespace opbase::console
