#include "folder_server.hpp"

#include "child_server.hpp"
#include "temp_dir.hpp"

namespace opbase::test {

FolderServer::FolderServer(std::string_view prefix, const Command& command)
    : dir_(std::make_unique<TempDir>(prefix)) {
  if (dir_->path().empty()) {
    problem_ = "could not make a temporary folder for the server";
    return;
  }
  server_ = std::make_unique<ChildServer>(command(dir_->path()));
  if (server_->port() <= 0) problem_ = "the server did not start";
}

FolderServer::~FolderServer() {
  server_.reset();  // stopped before its folder goes
  dir_.reset();
}

int FolderServer::port() const { return server_ != nullptr ? server_->port() : 0; }

const std::string& FolderServer::directory() const { return dir_->path(); }

}  // namespace opbase::test
