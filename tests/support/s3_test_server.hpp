// S3TestServer: the one way tests start the S3-compatible store of the file plugin's S3 tests:
// s3rver (tests/support/s3_server.js on npm @20minutes/s3rver, which checks Signature Version 4 as
// S3 does) in a child process, through FolderServer, on 127.0.0.1, a free port and a fresh
// temporary folder of its own, with one bucket (kBucket) and fixed credentials. The store stops
// and its folder is removed when the object goes.
//
// node is found on PATH and the module in tests/node_modules, both as packaging/deps.sh installs
// them. When one is missing or the store does not start, problem() says what and how to get it,
// so a test fails with a clear message instead of a refused connection:
//
//   static void SetUpTestSuite() { server_ = std::make_unique<test::S3TestServer>(); }
//   void SetUp() override { ASSERT_EQ(server_->problem(), "") << "no S3 store to test against"; }
//   settings.endpoint = server_->endpoint();   // "http://127.0.0.1:<port>"
//
// Starting node takes most of a second, so a suite may share one store; each test then uses its
// own object keys.
//
// Thread-safety: one owner starts and destroys it; the const members may be called from any
// thread while it lives.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace opbase::test {

class FolderServer;

class S3TestServer {
 public:
  // What s3_server.js serves: its one bucket and the credentials it takes (any region works).
  static constexpr const char* kBucket = "test-bucket";
  static constexpr const char* kAccessKey = "S3RVER";
  static constexpr const char* kSecretKey = "S3RVER";
  static constexpr const char* kRegion = "us-east-1";

  // Starts the store, waiting at most 20 s for it to listen; check problem().
  S3TestServer();
  ~S3TestServer();
  S3TestServer(const S3TestServer&) = delete;
  S3TestServer& operator=(const S3TestServer&) = delete;

  // "" when the store runs; else what is missing or went wrong, and what installs it.
  const std::string& problem() const { return problem_; }

  // The port on 127.0.0.1 it listens on; 0 when it does not run.
  int port() const;
  // "http://127.0.0.1:<port>", the endpoint to configure (path-style addressing).
  std::string endpoint() const;

  // The folder the store keeps its objects in.
  const std::string& directory() const;
  // Whether the bucket holds an object named `object_key` (e.g. "opbase/test/<key>"), read from
  // the store's folder as s3rver lays it out (<dir>/<bucket>/<key>._S3rver_object), so a test can
  // see an object without signing a request.
  bool has_object(std::string_view object_key) const;

 private:
  std::unique_ptr<FolderServer> server_;
  std::string problem_;
};

}  // namespace opbase::test
