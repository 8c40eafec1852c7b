#include "s3_test_server.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "folder_server.hpp"

namespace opbase::test {
namespace {

// node from PATH, as packaging/deps.sh installs it; empty when there is none.
std::string find_node() {
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate =
        std::filesystem::path(dirs.substr(start, end - start)) / "node";
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

}  // namespace

S3TestServer::S3TestServer() {
  const std::string source = OPBASE_TEST_SOURCE_DIR;
  const std::string node = find_node();
  if (node.empty()) {
    problem_ = "node is not on PATH: packaging/deps.sh installs Node.js";
    return;
  }
  if (!std::filesystem::exists(source + "/tests/node_modules/@20minutes/s3rver/package.json")) {
    problem_ =
        "tests/node_modules/@20minutes/s3rver is missing: packaging/deps.sh installs it (or run "
        "`npm install` in tests/)";
    return;
  }
  server_ = std::make_unique<FolderServer>("opbase-s3rver", [&](const std::string& folder) {
    return std::vector<std::string>{node, source + "/tests/support/s3_server.js", folder};
  });
  if (!server_->problem().empty()) {
    problem_ = "s3rver (node tests/support/s3_server.js): " + server_->problem() +
               ": see its message on standard error; packaging/deps.sh installs Node.js and "
               "tests/node_modules";
  }
}

S3TestServer::~S3TestServer() = default;

int S3TestServer::port() const { return server_ != nullptr ? server_->port() : 0; }

const std::string& S3TestServer::directory() const {
  static const std::string kNone;
  return server_ != nullptr ? server_->directory() : kNone;
}

std::string S3TestServer::endpoint() const { return "http://127.0.0.1:" + std::to_string(port()); }

bool S3TestServer::has_object(std::string_view object_key) const {
  if (directory().empty() || object_key.empty()) return false;
  std::error_code ignored;
  return std::filesystem::is_regular_file(
      std::filesystem::path(directory()) / kBucket / (std::string(object_key) + "._S3rver_object"),
      ignored);
}

}  // namespace opbase::test
