// libFuzzer target: the console's route answers every request line and If-None-Match header a
// client sends (plugins/console/serving/asset_answer.hpp), over a folder of three files. The
// input is up to three lines: the method, the target and an If-None-Match value (absent when
// the line is missing). Beyond not crashing:
//   - the status is 200, 304, 404 or 405, and every answer carries the Content-Security-Policy;
//   - 405 exactly for a method other than GET;
//   - a 200 or 304 is one of the folder's files, at /console/ + its name (index.html also at
//     /console/), whatever follows a '?' or '#': no other path reaches a byte;
//   - 304 only when the header names the file's tag (or is "*"), and then no body.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include "serving/asset_answer.hpp"
#include "serving/asset_folder.hpp"

namespace {

namespace fs = std::filesystem;
using opbase::console::AssetAnswer;
using opbase::console::AssetFolder;

const AssetFolder& folder() {
  static const AssetFolder loaded = [] {
    const fs::path dir = fs::temp_directory_path() / ("console-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(dir / "js");
    std::ofstream(dir / "index.html") << "<!doctype html>";
    std::ofstream(dir / "js" / "main.js") << "1;";
    std::ofstream(dir / "console.css") << "body{}";
    auto assets = AssetFolder::load(dir);
    fs::remove_all(dir);
    if (!assets) std::abort();
    return std::move(*assets);
  }();
  return loaded;
}

void check(bool ok) {
  if (!ok) std::abort();
}

std::string_view next_line(std::string_view& text) {
  const size_t end = text.find('\n');
  const std::string_view line = text.substr(0, end);
  text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  return line;
}

bool has_header(const AssetAnswer& answer, std::string_view name) {
  for (const auto& [n, v] : answer.headers) {
    if (n == name && !v.empty()) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string_view method = next_line(input);
  const std::string_view target = next_line(input);
  std::optional<std::string> if_none_match;
  if (!input.empty()) if_none_match = std::string(next_line(input));

  const AssetAnswer answer = opbase::console::answer_asset(folder(), method, target, if_none_match);
  check(answer.status == 200 || answer.status == 304 || answer.status == 404 ||
        answer.status == 405);
  check(has_header(answer, "Content-Security-Policy"));
  check((answer.status == 405) == (method != "GET"));
  if (answer.status != 200 && answer.status != 304) return 0;

  const std::string_view path = target.substr(0, target.find_first_of("?#"));
  std::string_view name = path.substr(std::string_view("/console/").size());
  check(path.starts_with("/console/"));
  if (name.empty()) name = "index.html";
  const auto* asset = folder().find(name);
  check(asset != nullptr);
  if (answer.status == 200) check(answer.body == asset->bytes);
  if (answer.status == 304) {
    check(if_none_match.has_value() && answer.body.empty());
    check(if_none_match->find(asset->etag) != std::string::npos ||
          if_none_match->find('*') != std::string::npos);
  }
  return 0;
}
