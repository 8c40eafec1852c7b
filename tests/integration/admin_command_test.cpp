// admin_command_test: `opbase admin create` (docs/api.md#invites-and-administrators) run as a user
// runs it, through the one helper that starts the binary (DaemonProcess::spawn, with the
// sub-command after the helper's --config and --set options). The command's own behaviour (options,
// environment, exit codes, what it prints) is tested against the fake auth plugin, which provides
// "auth.admin_create" (tests/plugins/fake_auth): it returns {"_userkey": "u-admin", "email":
// <email>}, refuses "taken@example.com", and logs the email and display name it was given. The
// last test runs it with the real auth plugin, whose admin then signs in over HTTP.
// Thread-safety: each test runs on the one gtest thread.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "daemon_process.hpp"
#include "temp_dir.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kPassword = "Pw-9f3k-never-shown";

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

struct CommandRun {
  std::optional<int> status;
  std::string out;
  std::string err;
};

// The fake auth plugin, and the helper's project "test".
DaemonOptions with_fake_auth() {
  DaemonOptions options;
  options.plugins = {test_plugin_path("auth")};
  return options;
}

// Runs `opbase ... admin create <args>` and waits for it to exit.
CommandRun admin_create(const std::vector<std::string>& args,
                        DaemonOptions options = with_fake_auth()) {
  options.extra_args = {"admin", "create"};
  options.extra_args.insert(options.extra_args.end(), args.begin(), args.end());
  auto process = DaemonProcess::spawn(options);
  CommandRun run{process->wait_exit(20s), process->output(), process->log()};
  EXPECT_TRUE(run.status.has_value()) << "admin create did not exit; stderr:\n" << run.err;
  EXPECT_FALSE(contains(run.out, "listening on")) << "it served HTTP:\n" << run.out;
  return run;
}

TEST(AdminCreate, CreatesTheAdminAndPrintsOneLine) {
  const CommandRun run =
      admin_create({"--project", "test", "--email", "ann@example.com", "--password", kPassword});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "admin created: u-admin ann@example.com\n");
  // The display name defaults to the address's local part.
  EXPECT_TRUE(contains(run.err, "admin_create email=ann@example.com display_name=ann")) << run.err;
  EXPECT_FALSE(contains(run.err, kPassword)) << run.err;
}

TEST(AdminCreate, TakesTheDisplayNameAndThePasswordFromTheEnvironment) {
  DaemonOptions options = with_fake_auth();
  options.env["OPBASE_ADMIN_PASSWORD"] = kPassword;
  const CommandRun run = admin_create(
      {"--project=test", "--email=bo@example.com", "--display-name", "Bo Admin"}, options);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "admin created: u-admin bo@example.com\n");
  EXPECT_TRUE(contains(run.err, "display_name=Bo Admin")) << run.err;
  EXPECT_FALSE(contains(run.err, kPassword)) << run.err;
}

TEST(AdminCreate, TheProjectIsDefaultUnlessGiven) {
  DaemonOptions options = with_fake_auth();
  options.use_default_project = true;  // generated on first start, as on a fresh install
  const CommandRun run =
      admin_create({"--email", "cy@example.com", "--password", kPassword}, options);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "admin created: u-admin cy@example.com\n");
}

TEST(AdminCreate, BadUsageExitsTwoWithAUsageLine) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--project", "test", "--password", kPassword},
        std::vector<std::string>{"--project", "test", "--email", "ann@example.com"},
        std::vector<std::string>{"--project", "test", "--email", "", "--password", kPassword}}) {
    const CommandRun run = admin_create(args);
    EXPECT_EQ(run.status, 2) << run.err;
    EXPECT_TRUE(contains(run.err, "usage: ")) << run.err;
    EXPECT_TRUE(contains(run.err, "OPBASE_ADMIN_PASSWORD")) << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_FALSE(contains(run.err, kPassword)) << run.err;
  }
}

TEST(AdminCreate, OtherAdminCommandsAreBadUsage) {
  DaemonOptions options = with_fake_auth();
  options.extra_args = {"admin", "delete", "--email", "ann@example.com"};
  auto process = DaemonProcess::spawn(options);
  EXPECT_EQ(process->wait_exit(20s), 2) << process->log();
  EXPECT_TRUE(contains(process->log(), "the admin command is 'create'")) << process->log();
}

TEST(AdminCreate, UnknownProjectExitsOneNamingIt) {
  const CommandRun run =
      admin_create({"--project", "nosuch", "--email", "ann@example.com", "--password", kPassword});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_TRUE(contains(run.err, "error: VALIDATION_ERROR: no project 'nosuch' is configured"))
      << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(AdminCreate, TheServicesErrorExitsOne) {
  const CommandRun run =
      admin_create({"--project", "test", "--email", "taken@example.com", "--password", kPassword});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_TRUE(contains(run.err, "error: EMAIL_ALREADY_EXISTS: an account with this e-mail exists"))
      << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(AdminCreate, WithoutTheAuthPluginExitsOneSayingSo) {
  DaemonOptions options;
  options.plugins = {"echo"};
  const CommandRun run = admin_create(
      {"--project", "test", "--email", "ann@example.com", "--password", kPassword}, options);
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_TRUE(contains(run.err, "error: UNKNOWN_OPERATION: ")) << run.err;
  EXPECT_TRUE(contains(run.err, "enable the auth plugin")) << run.err;
}

TEST(AdminCreate, ABadSettingExitsOneNamingTheKey) {
  DaemonOptions options = with_fake_auth();
  options.config["mail.transport"] = "fax";
  const CommandRun run = admin_create(
      {"--project", "test", "--email", "ann@example.com", "--password", kPassword}, options);
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_TRUE(contains(run.err, "error: VALIDATION_ERROR: configuration key mail.transport"))
      << run.err;
}

TEST(AdminCreate, ServerOnlyRunsWithoutTheAdminOptions) {
  DaemonOptions options;
  options.extra_args = {"--email", "ann@example.com"};
  auto process = DaemonProcess::spawn(options);
  EXPECT_EQ(process->wait_exit(20s), 64) << process->log();
  EXPECT_TRUE(contains(process->log(), "belong to 'admin create'")) << process->log();
}

TEST(AdminCreate, TheRealAuthPluginsAdminSignsInWithTheAdminRole) {
  const TempDir storage;
  ASSERT_FALSE(storage.path().empty());
  DaemonOptions options;
  options.plugins = {"auth"};
  options.config["storage.path"] = storage.path();
  const std::vector<std::string> args = {"--project",        "test",       "--email",
                                         "root@example.com", "--password", kPassword};
  const CommandRun run = admin_create(args, options);
  ASSERT_EQ(run.status, 0) << run.err;
  std::smatch printed;
  ASSERT_TRUE(
      std::regex_match(run.out, printed, std::regex("admin created: (\\S+) root@example.com\n")))
      << run.out;
  EXPECT_FALSE(contains(run.err, kPassword)) << run.err;

  const CommandRun again = admin_create(args, options);
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_TRUE(contains(again.err, "error: EMAIL_ALREADY_EXISTS")) << again.err;
  const CommandRun weak = admin_create(
      {"--project", "test", "--email", "two@example.com", "--password", "short"}, options);
  EXPECT_EQ(weak.status, 1) << weak.err;
  EXPECT_TRUE(contains(weak.err, "error: WEAK_PASSWORD")) << weak.err;

  auto daemon = DaemonProcess::start(options);
  const HttpResponse in = daemon->call({{"op", "auth.signin"},
                                        {"grant_type", "password"},
                                        {"email", "root@example.com"},
                                        {"password", kPassword}});
  ASSERT_EQ(in.status, 200) << in.body;
  const nlohmann::json profile = in.json()["data"]["user_profile"];
  EXPECT_EQ(profile["_userkey"], printed[1].str());
  EXPECT_EQ(profile["roles"], nlohmann::json({"user", "admin"}));
  EXPECT_EQ(profile["display_name"], "root");
}

}  // namespace
}  // namespace opbase::test
