// FileRoute: the daemon's /files/ route (docs/api.md#the-files-route), which clients reach with
// the URLs the ops hand out, without an API key or a token: the URL is the credential.
//   PUT  /files/<project>/<key>?expires&nonce&signature   an upload (local backend)
//   GET, HEAD  the same with an empty nonce                 a download (local backend)
//   GET, HEAD  /files/<project>/<key>                       a public file: served (local) or
//                                                           redirected to a fresh URL (s3)
// Every refusal is the API's error envelope with details.reason; nothing partial is served.
//
// Thread-safety: handle() may run on many threads at once.
#pragma once

#include <set>
#include <string>

#include "backends/file_backend.hpp"
#include "local/local_folder.hpp"
#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/project_secret.hpp"
#include "opbase/route.hpp"
#include "settings.hpp"
#include "urls/signed_url.hpp"

namespace opbase::file {

class FileRoute {
 public:
  // `folder`: the local backend's, or nullptr on s3. `projects`: the daemon's projects; a URL
  // naming another is refused like a bad signature.
  FileRoute(const Host& host, const FileSettings& settings, const DocumentStore& store,
            ProjectSecret& secrets, const LocalFolder* folder, const FileBackend& backend,
            std::set<std::string, std::less<>> projects)
      : host_(host),
        settings_(settings),
        store_(store),
        secrets_(secrets),
        folder_(folder),
        backend_(backend),
        projects_(std::move(projects)) {}

  void handle(RouteCall& call) const;

 private:
  // The URL's signature and expiry, when it has them.
  Status check_grant(const FileTarget& target) const;
  // `refusal` answered 405 with Allow: what the route takes (PUT only on the local backend).
  void refuse_method(RouteCall& call, const Status& refusal) const;
  void upload(RouteCall& call, const FileTarget& target, const nlohmann::json& record) const;
  void download(RouteCall& call, const FileTarget& target, const nlohmann::json& record) const;

  const Host& host_;
  const FileSettings& settings_;
  const DocumentStore& store_;
  ProjectSecret& secrets_;
  const LocalFolder* folder_;
  const FileBackend& backend_;
  std::set<std::string, std::less<>> projects_;
};

}  // namespace opbase::file
