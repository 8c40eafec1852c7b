// The file plugin (docs/api.md#files): the six file.* ops over records in the project's store,
// the bytes in a backend (files.backend: a folder under storage.path served on the daemon's
// /files/ route, or an S3-compatible store reached with presigned URLs), the administrators'
// file.settings.* ops on the project's file limits and their file.admin.list and
// file.usage.list, and one background
// thread that purges stale uploads and finishes removals (housekeeping/file_purge.hpp).

#include <chrono>
#include <memory>
#include <set>

#include "backends/backend_choice.hpp"
#include "housekeeping/file_purge.hpp"
#include "housekeeping/purge_round.hpp"
#include "opbase/background_worker.hpp"
#include "opbase/host_services.hpp"
#include "opbase/project_secret.hpp"
#include "opbase/sdk.hpp"
#include "ops/file_admin_ops.hpp"
#include "ops/file_ops.hpp"
#include "quota/project_limits.hpp"
#include "quota/usage_ledger.hpp"
#include "routes/file_route.hpp"
#include "settings.hpp"
#include "urls/base_url.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

// Uploads and downloads hold a lane thread for as long as their bytes flow, waiting on the
// network and the disk, not the CPU: many threads, and a queue for bursts beyond them.
constexpr int kLaneThreads = 64;
constexpr int kLaneQueue = 1024;

class FilePlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto settings = FileSettings::from(host());
    if (!settings) return settings.status();
    settings_ = std::move(*settings);
    store_ = std::make_unique<DocumentStore>(host());
    // Keys are unique across the whole store: this one names its plugin.
    secrets_ = std::make_unique<ProjectSecret>(*store_, "file_keys", "file_url_secret");
    ledger_ = std::make_unique<UsageLedger>(*store_);
    base_url_ = std::make_unique<BaseUrl>(host(), settings_.public_url);
    auto chosen = choose_backend(host(), settings_, *secrets_, [this] { return base_url_->get(); });
    if (!chosen) return chosen.status();
    folder_ = std::move(chosen->folder);
    backend_ = std::move(chosen->backend);
    auto projects = list_projects();
    if (!projects) return projects.status();
    projects_ = *projects;
    purge_ = std::make_unique<FilePurge>(*store_, *backend_, *ledger_, settings_.pending_ttl_s,
                                         settings_.upload_url_ttl_s);
    limits_ = std::make_unique<ProjectLimits>(*store_, settings_);
    ops_ = std::make_unique<FileOps>(host(), settings_, *store_, *backend_, *ledger_, *limits_,
                                     [this] { return base_url_->get(); });
    route_ = std::make_unique<FileRoute>(host(), settings_, *store_, *secrets_, folder_.get(),
                                         *backend_, projects_);
    register_all(r);
    if (Status s = r.status(); !s) return s;
    purger_ = std::make_unique<BackgroundWorker>("file-purge", [this] {
      purge_round(host(), *purge_, projects_);
      return std::chrono::milliseconds(settings_.purge_interval_s * 1000);
    });
    return Status::ok();
  }

  void shutdown() override {
    if (purger_) purger_->stop();
  }

 private:
  void register_all(Registrar& r) {
    using Op = Result<Reply> (FileOps::*)(const Request&) const;
    // Finalize, failure and delete may wait on the object store: they run on the lane.
    r.size_lane(kLaneThreads, kLaneQueue);
    const std::pair<const char*, Op> plain[] = {{"file.presign_upload", &FileOps::presign_upload},
                                                {"file.get", &FileOps::get},
                                                {"file.update", &FileOps::update}};
    for (const auto& [name, method] : plain) {
      const Op op = method;  // clang 14 cannot capture a structured binding
      r.op(name, Access::kUser, [this, op](const Request& q) { return (ops_.get()->*op)(q); });
    }
    const std::pair<const char*, Op> waiting[] = {
        {"file.finalize_upload", &FileOps::finalize_upload},
        {"file.report_upload_failure", &FileOps::report_upload_failure},
        {"file.delete", &FileOps::remove}};
    for (const auto& [name, method] : waiting) {
      const Op op = method;
      r.lane_op(name, Access::kUser, [this, op](const Request& q) { return (ops_.get()->*op)(q); });
    }
    const std::pair<const char*, Op> admin[] = {
        {"file.settings.get", &FileOps::settings},
        {"file.settings.update", &FileOps::change_settings}};
    for (const auto& [name, method] : admin) {
      const Op op = method;
      r.op(name, Access::kAdmin, [this, op](const Request& q) { return (ops_.get()->*op)(q); });
    }
    admin_ops_ = std::make_unique<FileAdminOps>(*store_);
    using AdminOp = Result<Reply> (FileAdminOps::*)(const Request&) const;
    const std::pair<const char*, AdminOp> lists[] = {{"file.admin.list", &FileAdminOps::list},
                                                     {"file.usage.list", &FileAdminOps::usage}};
    for (const auto& [name, method] : lists) {
      const AdminOp op = method;
      r.op(name, Access::kAdmin,
           [this, op](const Request& q) { return (admin_ops_.get()->*op)(q); });
    }
    r.route("/files/", [this](RouteCall& call) { route_->handle(call); });
  }

  Result<std::set<std::string, std::less<>>> list_projects() const {
    auto listed = opbase::list_projects(host());
    if (!listed) return listed.status();
    return std::set<std::string, std::less<>>(listed->begin(), listed->end());
  }

  FileSettings settings_;
  std::unique_ptr<DocumentStore> store_;
  std::unique_ptr<ProjectSecret> secrets_;
  std::unique_ptr<BaseUrl> base_url_;
  std::unique_ptr<UsageLedger> ledger_;
  std::unique_ptr<ProjectLimits> limits_;
  std::unique_ptr<LocalFolder> folder_;  // the local backend's; null on s3
  std::unique_ptr<FileBackend> backend_;
  std::set<std::string, std::less<>> projects_;
  std::unique_ptr<FilePurge> purge_;
  std::unique_ptr<FileOps> ops_;
  std::unique_ptr<FileAdminOps> admin_ops_;
  std::unique_ptr<FileRoute> route_;
  std::unique_ptr<BackgroundWorker> purger_;  // last: its rounds use everything above
};

}  // namespace
}  // namespace opbase::file

OPBASE_PLUGIN(opbase::file::FilePlugin, "file", "0.1.0")
