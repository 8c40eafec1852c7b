// The console plugin (docs/operations.md#the-management-console): the management console's page,
// served from this daemon at /console/ (serving/), and console.audit.list, the audit log for
// administrators. The page is one more client of the API: it signs in like any app and calls the
// administrators' ops with the token it keeps in memory.
//   console.enabled     false: no /console/ route (404) and no op; default true
//   console.assets_dir  the page's files; default: console-assets beside console.so (a build
//                       tree), else share/opbase/console of the install console.so is in
#include <filesystem>
#include <memory>

#include "opbase/admin_paging.hpp"
#include "opbase/host_services.hpp"
#include "opbase/plugin_files.hpp"
#include "opbase/sdk.hpp"
#include "serving/asset_answer.hpp"
#include "serving/asset_folder.hpp"

namespace opbase::console {
namespace {

using nlohmann::json;

class ConsolePlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    const std::string enabled = host().config_or("console.enabled", "true");
    if (enabled != "true" && enabled != "false") {
      return Status::validation("console.enabled must be true or false",
                                {{"key", "console.enabled"}});
    }
    if (enabled == "false") {
      host().info("console.enabled = false: the management console is not served");
      return Status::ok();
    }
    const std::string configured = host().config_or("console.assets_dir", "");
    auto assets = AssetFolder::load(
        configured.empty()
            ? folder_beside_plugin("console-assets", installed_data_folder("console"))
            : std::filesystem::path(configured));
    if (!assets) return assets.status();
    assets_ = std::make_unique<AssetFolder>(std::move(*assets));
    r.route("/console/", [this](RouteCall& call) { serve(call); });
    r.op("console.audit.list", Access::kAdmin,
         [this](const Request& request) { return audit_list(request); });
    return r.status();
  }

 private:
  void serve(RouteCall& call) const {
    const AssetAnswer answer =
        answer_asset(*assets_, call.method(), call.target(), call.header("If-None-Match"));
    (void)call.respond(answer.status, answer.content_type, answer.body, answer.headers);
  }

  // The project's audit log, newest first: {limit, offset} → the entries, meta.total.
  Result<Reply> audit_list(const Request& request) const {
    auto paging = AdminPaging::from(request.body);
    if (!paging) return paging.status();
    auto page = list_audit(host(), request.project_id, paging->limit, paging->offset);
    if (!page) return page.status();
    return Reply(std::move(page->entries)).with_meta({{"total", page->total}});
  }

  std::unique_ptr<AssetFolder> assets_;
};

}  // namespace
}  // namespace opbase::console

OPBASE_PLUGIN(opbase::console::ConsolePlugin, "console", "1.0.0")
