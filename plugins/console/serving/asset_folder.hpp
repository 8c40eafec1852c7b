// AssetFolder: the console page's files (assets/ of this plugin), read once at start into
// memory: each with its content type and a strong ETag from its SHA-256. Only the kinds a page
// is made of are served (html, css, js, svg, png, ico, json, txt); a file of another kind, more
// than 256 files or more than 8 MiB in all stops the start with a message naming it, so a
// mistaken folder never gets published.
// Thread-safety: immutable after load(); lookups from any thread.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "opbase/status.hpp"

namespace opbase::console {

struct Asset {
  std::string content_type;
  std::string bytes;
  std::string etag;  // "\"<hex>\"", as sent
};

class AssetFolder {
 public:
  static Result<AssetFolder> load(const std::filesystem::path& folder);

  // The file at `relative` ("index.html", "js/app.js"), or null.
  const Asset* find(std::string_view relative) const;
  size_t size() const { return assets_.size(); }

 private:
  std::map<std::string, Asset, std::less<>> assets_;
};

}  // namespace opbase::console
