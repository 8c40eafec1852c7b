#include "ferretdb_server.hpp"

#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "child_server.hpp"
#include "folder_server.hpp"

namespace opbase::test {

FerretDbServer::FerretDbServer(Backend backend) {
  const std::string binary = OPBASE_TEST_FERRETDB;
  if (binary.empty() || access(binary.c_str(), X_OK) != 0) {
    problem_ =
        "no FerretDB binary: packaging/deps.sh builds it into ~/.cache/opbase/ (then run cmake "
        "again, which finds it)";
    return;
  }
  server_ = std::make_unique<FolderServer>("opbase-ferretdb", [&](const std::string& folder) {
    std::vector<std::string> command{
        kSystemPython, std::string(OPBASE_TEST_SOURCE_DIR) + "/tests/support/ferretdb_server.py",
        binary, folder};
    if (backend == Backend::kPostgreSql) command.emplace_back("--postgresql");
    return command;
  });
  if (!server_->problem().empty()) {
    problem_ = "FerretDB: " + server_->problem() + " (its log is on standard error)";
  }
}

FerretDbServer::~FerretDbServer() = default;

std::string FerretDbServer::uri() const {
  if (server_ == nullptr || server_->port() <= 0) return "";
  return "mongodb://127.0.0.1:" + std::to_string(server_->port()) + "/";
}

const MongoTestServer& mongo_test_server() {
  static const MongoTestServer server = [] {
    const char* named = std::getenv("OPBASE_TEST_MONGODB_URI");
    if (named != nullptr && *named != '\0') return MongoTestServer{named, "", false};
    static FerretDbServer ferretdb;
    return MongoTestServer{ferretdb.uri(), ferretdb.problem(), true};
  }();
  return server;
}

}  // namespace opbase::test
