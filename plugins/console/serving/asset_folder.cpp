// The console page's files in memory (see asset_folder.hpp).
#include "serving/asset_folder.hpp"

#include <fstream>
#include <iterator>
#include <optional>

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::console {
namespace {

constexpr size_t kMaxFiles = 256;
constexpr size_t kMaxBytes = 8 << 20;

std::optional<std::string> content_type_of(const std::filesystem::path& file) {
  static const std::map<std::string, std::string, std::less<>> kTypes = {
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".json", "application/json"},
      {".txt", "text/plain; charset=utf-8"}};
  const auto found = kTypes.find(file.extension().string());
  if (found == kTypes.end()) return std::nullopt;
  return found->second;
}

std::string etag_of(const std::string& bytes) {
  return "\"" + hex_encode(sha256(bytes).substr(0, 16)) + "\"";
}

Status refused(const std::filesystem::path& folder, const std::string& why) {
  return Status::validation("console assets in " + folder.string() + ": " + why,
                            {{"key", "console.assets_dir"}});
}

}  // namespace

Result<AssetFolder> AssetFolder::load(const std::filesystem::path& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return refused(folder, "no such folder");
  AssetFolder out;
  size_t total = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder, error)) {
    if (!entry.is_regular_file()) continue;
    const std::string relative = std::filesystem::relative(entry.path(), folder).generic_string();
    auto type = content_type_of(entry.path());
    if (!type) return refused(folder, relative + " is of a kind the console does not serve");
    std::ifstream in(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return refused(folder, relative + " cannot be read");
    total += bytes.size();
    if (out.assets_.size() == kMaxFiles || total > kMaxBytes) {
      return refused(folder, "more than 256 files or 8 MiB");
    }
    std::string etag = etag_of(bytes);
    out.assets_.emplace(relative, Asset{std::move(*type), std::move(bytes), std::move(etag)});
  }
  if (error) return refused(folder, error.message());
  if (!out.find("index.html")) return refused(folder, "no index.html");
  return out;
}

const Asset* AssetFolder::find(std::string_view relative) const {
  const auto found = assets_.find(relative);
  return found == assets_.end() ? nullptr : &found->second;
}

}  // namespace opbase::console
