// The console plugin (docs/operations.md#the-management-console): the management console's page,
// served from this daemon at /console/ (serving/), and console.audit.list, the audit log for
// administrators (ops/audit_ops.hpp). The page is one more client of the API: it signs in like
// any app and calls the administrators' ops with the token it keeps in memory. Its keys:
// settings.hpp.
#include <filesystem>
#include <memory>

#include "opbase/plugin_files.hpp"
#include "opbase/sdk.hpp"
#include "ops/audit_ops.hpp"
#include "serving/asset_answer.hpp"
#include "serving/asset_folder.hpp"
#include "settings.hpp"

namespace opbase::console {
namespace {

class ConsolePlugin final : public Plugin {
 public:
  Status init(Registrar& r) override {
    auto settings = ConsoleSettings::from(host());
    if (!settings) return settings.status();
    if (!settings->enabled) {
      host().info("console.enabled = false: the management console is not served");
      return Status::ok();
    }
    auto assets = AssetFolder::load(
        settings->assets_dir.empty()
            ? folder_beside_plugin("console-assets", installed_data_folder("console"))
            : std::filesystem::path(settings->assets_dir));
    if (!assets) return assets.status();
    assets_ = std::make_unique<AssetFolder>(std::move(*assets));
    r.route("/console/", [this](RouteCall& call) { serve(call); });
    r.op("console.audit.list", Access::kAdmin,
         [this](const Request& request) { return audit_list(host(), request); });
    return r.status();
  }

 private:
  void serve(RouteCall& call) const {
    const AssetAnswer answer =
        answer_asset(*assets_, call.method(), call.target(), call.header("If-None-Match"));
    (void)call.respond(answer.status, answer.content_type, answer.body, answer.headers);
  }

  std::unique_ptr<AssetFolder> assets_;
};

}  // namespace
}  // namespace opbase::console

OPBASE_PLUGIN(opbase::console::ConsolePlugin, "console", "1.0.0")
