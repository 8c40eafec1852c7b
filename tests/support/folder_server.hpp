// FolderServer: a helper server in a child process (ChildServer) that keeps its data in a fresh
// temporary folder of its own: the folder is made first and handed to the command, and the
// server stops before the folder goes. The servers of the real peers (S3TestServer,
// FerretDbServer) are one each, with the checks and the settings of their own.
//
//   FolderServer server("opbase-s3rver", [&](const std::string& folder) {
//     return std::vector<std::string>{node, script, folder};
//   });
//   if (!server.problem().empty()) ...   // the folder could not be made, or no PORT line came
//
// Thread-safety: one owner starts and destroys it; the const members may be called from any
// thread while it lives.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace opbase::test {

class ChildServer;
class TempDir;

class FolderServer {
 public:
  using Command = std::function<std::vector<std::string>(const std::string& folder)>;

  // Makes a folder named after `prefix` and starts command(folder) through ChildServer.
  FolderServer(std::string_view prefix, const Command& command);
  ~FolderServer();
  FolderServer(const FolderServer&) = delete;
  FolderServer& operator=(const FolderServer&) = delete;

  // "" when the server runs; else what went wrong.
  const std::string& problem() const { return problem_; }
  // The port on 127.0.0.1 it listens on; 0 when it does not run.
  int port() const;
  // The server's folder; "" when it could not be made.
  const std::string& directory() const;

 private:
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ChildServer> server_;
  std::string problem_;
};

}  // namespace opbase::test
