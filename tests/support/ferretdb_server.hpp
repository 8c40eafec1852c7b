// FerretDbServer: the one way tests start a MongoDB-compatible server, the real peer of the
// MongoDB driver: FerretDB (github.com/FerretDB/FerretDB at tests/support/ferretdb.version, built
// by packaging/deps.sh into the user's cache, where CMake finds it) over its SQLite backend, or
// over a PostgreSQL cluster of its own (Debian's postgresql; the backend of the many-daemon
// tests), in a child process through FolderServer (tests/support/ferretdb_server.py), on
// 127.0.0.1, a free port and a fresh temporary folder of its own. It stops and its folder is
// removed when the object goes. docs/operations.md lists what FerretDB does differently from
// MongoDB.
//
// When the binary is missing or the server does not start, problem() says what and how to get
// it, so a test fails with a clear message instead of a refused connection:
//
//   static void SetUpTestSuite() { server_ = std::make_unique<test::FerretDbServer>(); }
//   void SetUp() override { ASSERT_EQ(server_->problem(), "") << "no MongoDB server"; }
//   options.uri = server_->uri();   // "mongodb://127.0.0.1:<port>/"
//
// Thread-safety: one owner starts and destroys it; the const members may be called from any
// thread while it lives.
#pragma once

#include <memory>
#include <string>

namespace opbase::test {

class FolderServer;

class FerretDbServer {
 public:
  enum class Backend { kSqlite, kPostgreSql };

  // Starts the server, waiting at most 20 s for it to accept connections (the PostgreSQL
  // cluster is made and started first); check problem().
  explicit FerretDbServer(Backend backend = Backend::kSqlite);
  ~FerretDbServer();
  FerretDbServer(const FerretDbServer&) = delete;
  FerretDbServer& operator=(const FerretDbServer&) = delete;

  // "" when the server runs; else what is missing or went wrong, and what installs it.
  const std::string& problem() const { return problem_; }
  // "mongodb://127.0.0.1:<port>/"; "" when it does not run.
  std::string uri() const;

 private:
  std::unique_ptr<FolderServer> server_;
  std::string problem_;
};

// The MongoDB-compatible server of this test process: the one OPBASE_TEST_MONGODB_URI names
// (MongoDB itself, say), or else a FerretDbServer started on the first call and kept until the
// process ends. `problem` says why there is none.
struct MongoTestServer {
  std::string uri;
  std::string problem;
  bool is_ferretdb = false;  // FerretDB's differences from MongoDB apply (docs/operations.md)
};
const MongoTestServer& mongo_test_server();

}  // namespace opbase::test
