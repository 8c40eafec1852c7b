// The console's files (plugins/console/serving): a folder is read whole with content types and
// ETags, a kind the console does not serve or a folder without index.html stops the start; the
// route answers index.html at /console/, a file by its path (query ignored), 304 for a known
// ETag, 404 for anything else (no way out of the folder), 405 for another method, and every
// answer carries the security headers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "serving/asset_answer.hpp"
#include "serving/asset_folder.hpp"

namespace opbase::console {
namespace {

namespace fs = std::filesystem;

class ConsoleAssets : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("console-assets-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    write("index.html", "<!doctype html><title>x</title>");
    write("js/main.js", "console.log(1);");
    write("console.css", "body{}");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& relative, const std::string& text) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream(dir_ / relative) << text;
  }
  AssetFolder loaded() {
    auto folder = AssetFolder::load(dir_);
    EXPECT_TRUE(folder.is_ok()) << folder.status().to_string();
    return folder ? std::move(*folder) : AssetFolder();
  }
  static std::string header(const AssetAnswer& answer, const std::string& name) {
    for (const auto& [n, v] : answer.headers) {
      if (n == name) return v;
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(ConsoleAssets, TheFolderIsReadWithTypesAndEntityTags) {
  const AssetFolder folder = loaded();
  EXPECT_EQ(folder.size(), 3u);
  const Asset* script = folder.find("js/main.js");
  ASSERT_NE(script, nullptr);
  EXPECT_EQ(script->content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(script->bytes, "console.log(1);");
  EXPECT_EQ(script->etag.size(), 34u);
  EXPECT_NE(script->etag, folder.find("console.css")->etag);
  EXPECT_EQ(folder.find("missing.js"), nullptr);
}

TEST_F(ConsoleAssets, AFileOfAnotherKindOrNoIndexStopsTheStart) {
  write("secrets.properties", "a=b");
  auto refused = AssetFolder::load(dir_);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("secrets.properties"), std::string::npos);
  fs::remove(dir_ / "secrets.properties");
  fs::remove(dir_ / "index.html");
  EXPECT_FALSE(AssetFolder::load(dir_).is_ok());
  EXPECT_FALSE(AssetFolder::load(dir_ / "nowhere").is_ok());
}

TEST_F(ConsoleAssets, TheRouteAnswersFilesWithTheSecurityHeaders) {
  const AssetFolder folder = loaded();
  const AssetAnswer index = answer_asset(folder, "GET", "/console/", std::nullopt);
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.body, "<!doctype html><title>x</title>");
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  const std::string csp = header(index, "Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_EQ(header(index, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(header(index, "Cache-Control"), "no-cache");

  const AssetAnswer script = answer_asset(folder, "GET", "/console/js/main.js?v=2#x", std::nullopt);
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.body, "console.log(1);");
  const std::string etag = header(script, "ETag");
  const AssetAnswer again = answer_asset(folder, "GET", "/console/js/main.js", "W/\"x\", " + etag);
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(answer_asset(folder, "GET", "/console/js/main.js", "\"other\"").status, 200);
}

TEST_F(ConsoleAssets, AnythingElseIsRefused) {
  const AssetFolder folder = loaded();
  for (const char* target : {"/console/nope.js", "/console/../index.html", "/console/js/",
                             "/console//index.html", "/other/index.html"}) {
    const AssetAnswer answer = answer_asset(folder, "GET", target, std::nullopt);
    EXPECT_EQ(answer.status, 404) << target;
    EXPECT_FALSE(header(answer, "Content-Security-Policy").empty()) << target;
  }
  const AssetAnswer posted = answer_asset(folder, "POST", "/console/", std::nullopt);
  EXPECT_EQ(posted.status, 405);
  EXPECT_EQ(header(posted, "Allow"), "GET");
}

}  // namespace
}  // namespace opbase::console
