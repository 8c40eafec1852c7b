// The audit log's rules (host/audit/audit_trail.hpp): which admin ops are written (all but the
// reads) and what of a request an entry keeps (every field but op, secrets redacted at any
// depth, the whole cut to 4 KiB).
#include "audit/audit_trail.hpp"

#include <gtest/gtest.h>

#include <string>

namespace opbase::host {
namespace {

using nlohmann::json;

TEST(AuditTrail, EveryAdminOpButTheReadsIsWritten) {
  for (const char* change : {"auth.user.update", "auth.user.signout", "webhooks.endpoint.create",
                             "webhooks.message.resend", "collection.index.add", "probe.admin"}) {
    EXPECT_TRUE(AuditTrail::records(change)) << change;
  }
  for (const char* read : {"auth.user.list", "auth.user.get", "webhooks.endpoint.list",
                           "collection.explain", "collection.index.list", "file.usage"}) {
    EXPECT_FALSE(AuditTrail::records(read)) << read;
  }
}

TEST(AuditTrail, SecretsAreRedactedAtAnyDepth) {
  const json params = audited_params(
      R"({"op":"x.y","password":"p","data":{"secret":"s","New_Password":"q","list":[{"id_token":"t"}]},
          "otp":"123456","api_key":"ak_1","_key":"k","_userkey":"u","name":"n"})");
  EXPECT_EQ(params, json::parse(R"({"password":"[redacted]","data":{"secret":"[redacted]",
      "New_Password":"[redacted]","list":[{"id_token":"[redacted]"}]},"otp":"[redacted]",
      "api_key":"[redacted]","_key":"k","_userkey":"u","name":"n"})"));
}

TEST(AuditTrail, LargeOrUnreadableBodiesAreSummed) {
  const json large = audited_params(json{{"op", "x.y"}, {"blob", std::string(5000, 'a')}}.dump());
  EXPECT_EQ(large["truncated"], true);
  EXPECT_GT(large["bytes"].get<int64_t>(), 4096);
  EXPECT_EQ(audited_params("not json"), json::object());
  EXPECT_EQ(audited_params("[1,2]"), json::object());
}

}  // namespace
}  // namespace opbase::host
