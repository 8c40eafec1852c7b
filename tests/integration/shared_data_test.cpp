// Collection rules and document sharing over HTTP (docs/api.md#who-may-read-and-change-a-document):
// the three apps of that section (a public feed, a shared to-do list, a catalogue staff edit)
// with real users of the auth plugin and an administrator, what a user who may not act can learn
// through every op, and random rules and documents checked against a plain model of the rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using nlohmann::json;
using Names = std::vector<std::string>;

DaemonOptions rules_options() {
  DaemonOptions options;
  options.plugins = {"collection", "auth"};
  options.with_admin = true;
  options.config = {{"datastore.max_sharing_entries", "8"}};
  return options;
}

class CollectionRules : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    daemon_ = DaemonProcess::start(rules_options()).release();
    admin_ = new DaemonProcess::User(daemon_->admin());
  }
  static void TearDownTestSuite() {
    delete admin_;
    delete daemon_;
    daemon_ = nullptr;
  }

  // One op as user `user` ("" for no token, "admin" for the administrator).
  static HttpResponse as(const std::string& user, const json& body) {
    Headers headers;
    if (user == "admin") {
      headers = admin_->bearer();
    } else if (!user.empty()) {
      headers = token_of(user);
    }
    return daemon_->call(body, headers);
  }
  static Headers token_of(const std::string& user) {
    const auto staff = staff_tokens_.find(user);
    if (staff != staff_tokens_.end()) return staff->second.bearer();
    return daemon_->user(user).bearer();
  }
  static std::string key_of(const std::string& user) { return daemon_->user(user).key; }

  // Gives `user` the role `role` and signs them in again, so their token carries it.
  static void give_role(const std::string& user, const std::string& role) {
    const std::string key = key_of(user);
    HttpResponse a =
        as("admin",
           {{"op", "auth.user.update"}, {"_userkey", key}, {"data", {{"roles", {"user", role}}}}});
    ASSERT_EQ(a.status, 200) << a.describe();
    staff_tokens_[user] = daemon_->signin(user + "@example.com", "User-Pass-1");
  }

  static std::string fresh(const std::string& stem) {
    static int counter = 0;
    return stem + "_" + std::to_string(++counter);
  }

  static void set_rules(const std::string& collection, const json& rules) {
    HttpResponse a = as(
        "admin", {{"op", "collection.rules.update"}, {"collection", collection}, {"rules", rules}});
    ASSERT_EQ(a.status, 200) << a.describe();
  }

  static json insert(const std::string& user, const std::string& collection, const json& data) {
    HttpResponse a =
        as(user, {{"op", "collection.insert"}, {"collection", collection}, {"data", data}});
    EXPECT_EQ(a.status, 200) << a.describe();
    return a.status == 200 ? a.json()["data"][0] : json();
  }

  static Names find_names(const std::string& user, const std::string& collection,
                          const json& match = json::object(), const json& extra = json::object()) {
    json body = {{"op", "collection.find"}, {"collection", collection}, {"match", match}};
    body.update(extra);
    HttpResponse a = as(user, body);
    EXPECT_EQ(a.status, 200) << body.dump() << " -> " << a.describe();
    Names out;
    for (const json& doc : json(a.json()["data"])) out.push_back(doc.value("name", "?"));
    std::sort(out.begin(), out.end());
    return out;
  }

  static int64_t count_of(const std::string& user, const std::string& collection,
                          const json& match = json::object()) {
    HttpResponse a =
        as(user, {{"op", "collection.count"}, {"collection", collection}, {"match", match}});
    EXPECT_EQ(a.status, 200) << a.describe();
    return a.status == 200 ? a.json()["data"]["count"].get<int64_t>() : -1;
  }

  static HttpResponse update(const std::string& user, const std::string& collection,
                             const json& data) {
    return as(user, {{"op", "collection.update"}, {"collection", collection}, {"data", data}});
  }

  static DaemonProcess* daemon_;
  static DaemonProcess::User* admin_;
  static std::map<std::string, DaemonProcess::User> staff_tokens_;
};

DaemonProcess* CollectionRules::daemon_ = nullptr;
DaemonProcess::User* CollectionRules::admin_ = nullptr;
std::map<std::string, DaemonProcess::User> CollectionRules::staff_tokens_;

TEST_F(CollectionRules, AdministratorsSetAndReadTheRules) {
  const std::string c = fresh("ruled");
  HttpResponse got = as("admin", {{"op", "collection.rules.get"}, {"collection", c}});
  ASSERT_EQ(got.status, 200) << got.describe();
  EXPECT_EQ(got.json()["data"], (json{{"collection", c},
                                      {"rules",
                                       {{"read", {"owner"}},
                                        {"create", {"users"}},
                                        {"update", {"owner"}},
                                        {"delete", {"owner"}}}}}));
  HttpResponse changed = as("admin", {{"op", "db.rules.update"},
                                      {"collection", c},
                                      {"rules", {{"read", {"users", "users", "role:staff"}}}}});
  ASSERT_EQ(changed.status, 200) << changed.describe();
  EXPECT_EQ(changed.json()["data"]["rules"]["read"], (json{"users", "role:staff"}));
  EXPECT_EQ(changed.json()["data"]["rules"]["update"], json{"owner"});
  got = as("admin", {{"op", "collection.rules.get"}, {"collection", c}});
  EXPECT_EQ(got.json()["data"]["rules"]["read"], (json{"users", "role:staff"}));
  // null puts an action back to its default.
  changed = as("admin", {{"op", "collection.rules.update"},
                         {"collection", c},
                         {"rules", {{"read", nullptr}, {"delete", json::array()}}}});
  ASSERT_EQ(changed.status, 200) << changed.describe();
  EXPECT_EQ(changed.json()["data"]["rules"]["read"], json{"owner"});
  EXPECT_EQ(changed.json()["data"]["rules"]["delete"], json::array());

  for (const auto& [rules, field] :
       std::vector<std::pair<json, std::string>>{{{{"write", {"users"}}}, "rules.write"},
                                                 {{{"read", "users"}}, "rules.read"},
                                                 {{{"read", {"everyone"}}}, "rules.read"},
                                                 {{{"read", {"role:Staff"}}}, "rules.read"},
                                                 {{{"create", {"owner"}}}, "rules.create"},
                                                 {{{"create", {"shared"}}}, "rules.create"},
                                                 {json::array(), "rules"},
                                                 {json::object(), "rules"}}) {
    HttpResponse bad =
        as("admin", {{"op", "collection.rules.update"}, {"collection", c}, {"rules", rules}});
    EXPECT_EQ(bad.error_code(), "VALIDATION_ERROR") << rules.dump();
    EXPECT_EQ(bad.json()["error"]["details"]["field"], field) << rules.dump() << bad.describe();
  }
  HttpResponse no_name = as("admin", {{"op", "collection.rules.get"}, {"collection", "Bad Name"}});
  EXPECT_EQ(no_name.error_code(), "VALIDATION_ERROR");
  // Users cannot read or change rules, nor can a caller without a token.
  EXPECT_EQ(
      as("alice",
         {{"op", "collection.rules.update"}, {"collection", c}, {"rules", {{"read", {"anyone"}}}}})
          .error_code(),
      "FORBIDDEN");
  EXPECT_EQ(as("alice", {{"op", "collection.rules.get"}, {"collection", c}}).error_code(),
            "FORBIDDEN");
  EXPECT_EQ(as("", {{"op", "collection.rules.get"}, {"collection", c}}).status, 401);
  // The rules are kept where no collection op reaches them.
  HttpResponse listed = as("admin", {{"op", "collection.admin.list"}});
  ASSERT_EQ(listed.status, 200);
  for (const json& entry : json(listed.json()["data"]))
    EXPECT_NE(entry["name"].get<std::string>()[0], '$');
}

// A public feed: anyone reads, signed-in users post, each edits and deletes only their own.
TEST_F(CollectionRules, APublicFeed) {
  const std::string feed = fresh("feed");
  set_rules(feed, {{"read", {"anyone"}}});
  insert("alice", feed, {{"name", "hello"}, {"n", 1}});
  const json bobs = insert("bob", feed, {{"name", "hi"}, {"n", 2}});
  EXPECT_EQ(find_names("carol", feed), (Names{"hello", "hi"}));
  EXPECT_EQ(find_names("", feed), (Names{"hello", "hi"}));  // no token: anyone
  EXPECT_EQ(count_of("", feed, {{"n:$gt", 1}}), 1);
  HttpResponse page = as("carol", {{"op", "collection.find"},
                                   {"collection", feed},
                                   {"match", json::object()},
                                   {"limit", 1},
                                   {"sort", "n asc"}});
  EXPECT_EQ(page.json()["meta"]["pagination"]["size"], 2);
  // Nobody changes another's post: refused, since they can read it.
  HttpResponse refused = update("alice", feed, {{"_key", bobs["_key"]}, {"name", "mine now"}});
  EXPECT_EQ(refused.error_code(), "FORBIDDEN") << refused.describe();
  EXPECT_EQ(refused.json()["error"]["details"]["_key"], bobs["_key"]);
  HttpResponse deleted =
      as("alice",
         {{"op", "collection.delete"}, {"collection", feed}, {"match", {{"_key", bobs["_key"]}}}});
  EXPECT_EQ(deleted.error_code(), "FORBIDDEN");
  EXPECT_EQ(find_names("", feed), (Names{"hello", "hi"}));
  // Their own, yes; and a caller without a token may not post.
  EXPECT_EQ(update("bob", feed, {{"_key", bobs["_key"]}, {"name", "hi there"}}).status, 200);
  HttpResponse anonymous =
      as("", {{"op", "collection.insert"}, {"collection", feed}, {"data", {{"name", "spam"}}}});
  EXPECT_EQ(anonymous.status, 401);
  HttpResponse anonymous_update = update("", feed, {{"_key", bobs["_key"]}, {"name", "x"}});
  EXPECT_EQ(anonymous_update.status, 401);
  EXPECT_EQ(find_names("carol", feed), (Names{"hello", "hi there"}));
}

// A to-do list shared with two colleagues: one may edit it, one may only read it.
TEST_F(CollectionRules, ASharedToDoList) {
  const std::string todos = fresh("todos");
  set_rules(todos, {{"read", {"owner", "shared"}}, {"update", {"owner", "shared"}}});
  const json item =
      insert("alice", todos,
             {{"name", "milk"}, {"_readers", {key_of("carol")}}, {"_writers", {key_of("bob")}}});
  ASSERT_TRUE(item.is_object());
  EXPECT_EQ(item["_readers"], json{key_of("carol")});
  insert("alice", todos, {{"name", "eggs"}});
  EXPECT_EQ(find_names("alice", todos), (Names{"eggs", "milk"}));
  EXPECT_EQ(find_names("bob", todos), Names{"milk"});
  EXPECT_EQ(find_names("carol", todos), Names{"milk"});
  EXPECT_EQ(find_names("dave", todos), Names{});
  EXPECT_EQ(count_of("dave", todos), 0);

  // The writer edits the content, not who may see it.
  HttpResponse edited = update("bob", todos, {{"_key", item["_key"]}, {"name", "oat milk"}});
  ASSERT_EQ(edited.status, 200) << edited.describe();
  ASSERT_EQ(edited.json()["data"].size(), 1u);
  EXPECT_EQ(edited.json()["data"][0]["_userkey"], key_of("alice"));
  HttpResponse widened =
      update("bob", todos, {{"_key", item["_key"]}, {"_readers", {key_of("bob"), key_of("dave")}}});
  EXPECT_EQ(widened.error_code(), "FORBIDDEN") << widened.describe();
  EXPECT_EQ(widened.json()["error"]["details"]["field"], "_readers");
  HttpResponse owner_change =
      update("bob", todos, {{"_key", item["_key"]}, {"_userkey", key_of("bob")}});
  EXPECT_EQ(owner_change.error_code(), "VALIDATION_ERROR");
  // The reader reads only.
  HttpResponse read_only = update("carol", todos, {{"_key", item["_key"]}, {"name", "beer"}});
  EXPECT_EQ(read_only.error_code(), "FORBIDDEN");
  // Someone it is not shared with changes nothing and learns nothing.
  HttpResponse stranger = update("dave", todos, {{"_key", item["_key"]}, {"name", "beer"}});
  EXPECT_EQ(stranger.status, 200);
  EXPECT_EQ(stranger.json()["data"], json::array());
  // Only the owner deletes (delete is [owner]): the writer is refused.
  EXPECT_EQ(
      as("bob",
         {{"op", "collection.delete"}, {"collection", todos}, {"match", {{"_key", item["_key"]}}}})
          .error_code(),
      "FORBIDDEN");

  // The owner takes carol off the list and shares with a role instead.
  give_role("erin", "family");
  HttpResponse reshared =
      update("alice", todos, {{"_key", item["_key"]}, {"_readers", {"role:family"}}});
  ASSERT_EQ(reshared.status, 200) << reshared.describe();
  EXPECT_EQ(find_names("carol", todos), Names{});
  EXPECT_EQ(find_names("erin", todos), Names{"oat milk"});
  EXPECT_EQ(find_names("bob", todos), Names{"oat milk"});
  // Bounded, and of user keys and roles only.
  json too_many = json::array();
  for (int i = 0; i < 9; ++i) too_many.push_back("user" + std::to_string(i));
  HttpResponse long_list = update("alice", todos, {{"_key", item["_key"]}, {"_readers", too_many}});
  EXPECT_EQ(long_list.error_code(), "VALIDATION_ERROR");
  EXPECT_EQ(long_list.json()["error"]["details"]["max"], 8);
  for (const json& bad : {json("x"), json{1}, json{"role:"}, json{"a b"}}) {
    HttpResponse refused = update("alice", todos, {{"_key", item["_key"]}, {"_readers", bad}});
    EXPECT_EQ(refused.error_code(), "VALIDATION_ERROR") << bad.dump();
    EXPECT_EQ(refused.json()["error"]["details"]["field"], "_readers") << bad.dump();
  }
  // An administrator may move a document to another owner.
  HttpResponse moved =
      as("admin", {{"op", "collection.admin.update"},
                   {"collection", todos},
                   {"data", {{"_key", item["_key"]}, {"_userkey", key_of("bob")}}}});
  ASSERT_EQ(moved.status, 200) << moved.describe();
  EXPECT_EQ(find_names("bob", todos), Names{"oat milk"});
  HttpResponse bobs_now = update("bob", todos, {{"_key", item["_key"]}, {"@_writers", "@unset()"}});
  ASSERT_EQ(bobs_now.status, 200) << bobs_now.describe();
  EXPECT_FALSE(bobs_now.json()["data"][0].contains("_writers"));
}

// A catalogue everyone signed in reads and only staff edit.
TEST_F(CollectionRules, ACatalogueStaffEdit) {
  const std::string catalogue = fresh("catalogue");
  set_rules(catalogue, {{"read", {"users"}},
                        {"create", {"role:staff"}},
                        {"update", {"role:staff"}},
                        {"delete", {"role:staff"}}});
  give_role("frank", "staff");
  give_role("gina", "staff");
  const json lamp = insert("frank", catalogue, {{"name", "lamp"}, {"price", 30}});
  EXPECT_EQ(find_names("bob", catalogue), Names{"lamp"});
  EXPECT_EQ(
      as("", {{"op", "collection.find"}, {"collection", catalogue}, {"match", json::object()}})
          .status,
      401);
  HttpResponse bobs =
      as("bob",
         {{"op", "collection.insert"}, {"collection", catalogue}, {"data", {{"name", "chair"}}}});
  EXPECT_EQ(bobs.error_code(), "FORBIDDEN");
  EXPECT_EQ(update("bob", catalogue, {{"_key", lamp["_key"]}, {"price", 1}}).error_code(),
            "FORBIDDEN");
  // Another member of staff edits what frank made.
  HttpResponse edited = update("gina", catalogue, {{"_key", lamp["_key"]}, {"price", 35}});
  ASSERT_EQ(edited.status, 200) << edited.describe();
  ASSERT_EQ(edited.json()["data"].size(), 1u);
  EXPECT_EQ(edited.json()["data"][0]["price"], 35);
  EXPECT_EQ(edited.json()["data"][0]["_userkey"], key_of("frank"));
  HttpResponse removed = as("gina", {{"op", "collection.delete"},
                                     {"collection", catalogue},
                                     {"match", {{"_key", lamp["_key"]}}}});
  ASSERT_EQ(removed.status, 200);
  EXPECT_EQ(find_names("bob", catalogue), Names{});
  HttpResponse restored = as("bob", {{"op", "collection.restore"},
                                     {"collection", catalogue},
                                     {"match", {{"_ref", removed.json()["data"]["_ref"]}}}});
  EXPECT_EQ(restored.error_code(), "FORBIDDEN");
  restored = as("frank", {{"op", "collection.restore"},
                          {"collection", catalogue},
                          {"match", {{"_ref", removed.json()["data"]["_ref"]}}}});
  EXPECT_EQ(restored.json()["data"]["data"], true);
}

// What a user the list is not shared with can learn through each op: nothing.
TEST_F(CollectionRules, NoSideChannelRevealsADocumentThatIsNotShared) {
  const std::string secret = fresh("secret");
  const std::string mine = fresh("mine");
  set_rules(secret, {{"read", {"owner", "shared"}}, {"update", {"owner", "shared"}}});
  const json hidden = insert(
      "alice", secret, {{"name", "plan"}, {"n", 5}, {"tag", "x"}, {"_readers", {key_of("carol")}}});
  insert("dave", secret, {{"name", "daves"}, {"n", 1}, {"tag", "y"}});
  insert("dave", mine, {{"name", "link"}, {"ref", hidden["_key"]}});
  for (const json& match :
       {json::object(), json{{"n:$ne", 1}}, json{{"tag:$nin", {"y"}}},
        json{{"_key", hidden["_key"]}}, json{{"n:$gte", 0}}, json{{"_userkey", key_of("alice")}},
        json{{"_readers", key_of("carol")}}}) {
    SCOPED_TRACE(match.dump());
    HttpResponse found = as("dave", {{"op", "collection.find"},
                                     {"collection", secret},
                                     {"match", match},
                                     {"sort", "n desc"},
                                     {"limit", 1}});
    ASSERT_EQ(found.status, 200);
    for (const json& doc : json(found.json()["data"])) EXPECT_EQ(doc["name"], "daves");
    EXPECT_LE(found.json()["meta"]["pagination"]["size"].get<int>(), 1);
    EXPECT_LE(count_of("dave", secret, match), 1);
  }
  // A lookup from dave's own collection joins nothing of it.
  HttpResponse joined = as(
      "dave",
      {{"op", "collection.find"},
       {"collection", mine},
       {"match", json::object()},
       {"lookup",
        {{"from", secret}, {"local_field", "ref"}, {"foreign_field", "_key"}, {"as", "joined"}}}});
  ASSERT_EQ(joined.status, 200) << joined.describe();
  EXPECT_EQ(joined.json()["data"][0]["joined"], json::array());
  // Writes by match or key touch none of alice's documents, and refuse nothing that would tell.
  HttpResponse by_match = as("dave", {{"op", "collection.update"},
                                      {"collection", secret},
                                      {"match", {{"n", 5}}},
                                      {"data", {{"name", "mine"}}}});
  EXPECT_EQ(by_match.status, 200);
  EXPECT_EQ(by_match.json()["data"], json::array());
  HttpResponse deleted =
      as("dave", {{"op", "collection.delete"}, {"collection", secret}, {"match", {{"n", 5}}}});
  EXPECT_EQ(deleted.status, 200);
  HttpResponse upserted = as("dave", {{"op", "collection.upsert"},
                                      {"collection", secret},
                                      {"match", {{"_key", hidden["_key"]}}},
                                      {"update", {{"name", "taken"}}},
                                      {"insert", {{"name", "daves upsert"}}}});
  ASSERT_EQ(upserted.status, 200) << upserted.describe();
  EXPECT_EQ(upserted.json()["meta"]["upserted"], true);  // it did not see alice's
  // alice's own delete, then dave tries her _ref.
  HttpResponse hers = as(
      "alice",
      {{"op", "collection.delete"}, {"collection", secret}, {"match", {{"_key", hidden["_key"]}}}});
  ASSERT_EQ(hers.status, 200);
  HttpResponse restored = as("dave", {{"op", "collection.restore"},
                                      {"collection", secret},
                                      {"match", {{"_ref", hers.json()["data"]["_ref"]}}}});
  EXPECT_EQ(restored.json()["data"]["data"], false);
  EXPECT_EQ(as("alice", {{"op", "collection.restore"},
                         {"collection", secret},
                         {"match", {{"_ref", hers.json()["data"]["_ref"]}}}})
                .json()["data"]["data"],
            true);
  EXPECT_EQ(find_names("alice", secret), Names{"plan"});
  EXPECT_EQ(find_names("carol", secret), Names{"plan"});
  // Query plans are the administrators'.
  EXPECT_EQ(as("dave", {{"op", "collection.explain"}, {"collection", secret}}).error_code(),
            "FORBIDDEN");
  // No one grants themselves access: sharing lists are the owner's, rules the administrators'.
  HttpResponse self_share =
      update("dave", secret, {{"_key", hidden["_key"]}, {"_readers", {key_of("dave")}}});
  EXPECT_EQ(self_share.status, 200);  // dave cannot reach it: nothing changed
  EXPECT_EQ(self_share.json()["data"], json::array());
  EXPECT_EQ(find_names("dave", secret), (Names{"daves", "daves upsert"}));
}

// The other ops and parameters, as a user who may not act and as a caller without a token.
TEST_F(CollectionRules, EveryOtherOpRefusesOrRevealsNothing) {
  const std::string notes = fresh("notes");  // the default rules: owner only
  const json hers = insert("alice", notes, {{"name", "hers"}, {"secret", "s3"}});
  for (const json& body : {json{{"op", "collection.find"},
                                {"collection", notes},
                                {"match", json::object()},
                                {"project", {{"secret", 1}}}},
                           json{{"op", "collection.find"},
                                {"collection", notes},
                                {"match", json::object()},
                                {"filter", {{"secret", "s3"}}},
                                {"sort", "secret desc"}},
                           json{{"op", "collection.find"},
                                {"collection", notes},
                                {"match", {{"secret:$ne", "x"}}},
                                {"lookup",
                                 {{"from", notes},
                                  {"local_field", "secret"},
                                  {"foreign_field", "secret"},
                                  {"as", "same"}}}}}) {
    HttpResponse found = as("bob", body);
    ASSERT_EQ(found.status, 200) << found.describe();
    EXPECT_EQ(found.json()["data"], json::array()) << body.dump();
    EXPECT_EQ(found.json()["meta"]["pagination"]["size"], 0);
  }
  HttpResponse archived = as(
      "bob",
      {{"op", "collection.archive"}, {"collection", notes}, {"match", {{"_key", hers["_key"]}}}});
  EXPECT_EQ(archived.status, 200);
  EXPECT_EQ(find_names("alice", notes), Names{"hers"});
  // Without a token, every op of a default collection is refused before anything is read.
  for (const json& body :
       {json{{"op", "collection.find"}, {"collection", notes}, {"match", json::object()}},
        json{{"op", "collection.statement"},
             {"query", "INSERT $d IN " + notes},
             {"variables", {{"d", {{"x", 1}}}}}},
        json{{"op", "collection.archive"}, {"collection", notes}, {"match", json::object()}},
        json{{"op", "collection.upsert"},
             {"collection", notes},
             {"match", json::object()},
             {"update", {{"x", 1}}},
             {"insert", {{"x", 1}}}}}) {
    EXPECT_EQ(as("", body).status, 401) << body.dump();
  }

  // A wiki: anyone reads and edits, but who may see a page stays its owner's.
  const std::string wiki = fresh("wiki");
  set_rules(wiki, {{"read", {"anyone"}}, {"update", {"anyone"}}});
  const json page = insert("alice", wiki, {{"name", "home"}, {"_readers", {key_of("carol")}}});
  HttpResponse edited = update("", wiki, {{"_key", page["_key"]}, {"name", "home page"}});
  ASSERT_EQ(edited.status, 200) << edited.describe();
  EXPECT_EQ(edited.json()["data"][0]["name"], "home page");
  for (const std::string& user : {std::string(""), std::string("bob")}) {
    HttpResponse widened = update(user, wiki, {{"_key", page["_key"]}, {"@_readers", "@unset()"}});
    EXPECT_EQ(widened.error_code(), "FORBIDDEN") << user << " " << widened.describe();
  }
  HttpResponse anonymous_share = as("", {{"op", "collection.insert"},
                                         {"collection", wiki},
                                         {"data", {{"name", "x"}, {"_readers", json::array()}}}});
  EXPECT_EQ(anonymous_share.status, 401);  // create stays [users]
  set_rules(wiki, {{"create", {"anyone"}}});
  anonymous_share = as("", {{"op", "collection.insert"},
                            {"collection", wiki},
                            {"data", {{{"name", "x"}}, {{"name", "y"}, {"_writers", {"z"}}}}},
                            {"captcha", "not checked: refused before"}});
  EXPECT_EQ(anonymous_share.error_code(), "FORBIDDEN") << anonymous_share.describe();
  EXPECT_EQ(anonymous_share.json()["error"]["details"]["field"], "_writers");
  EXPECT_EQ(anonymous_share.json()["error"]["details"]["index"], 1);
  EXPECT_EQ(find_names("", wiki), Names{"home page"});
}

// collection.explain reads a user's query as their find would, under the rules.
TEST_F(CollectionRules, ExplainReadsAsTheUserUnderTheRules) {
  const std::string staffed = fresh("staffed");
  set_rules(staffed, {{"read", {"role:staff"}}});
  insert("alice", staffed, {{"name", "a"}});
  insert("bob", staffed, {{"name", "b"}});
  const auto explain = [&](const json& extra) {
    json body = {{"op", "collection.explain"}, {"collection", staffed}, {"user", key_of("carol")}};
    body.update(extra);
    return as("admin", body);
  };
  HttpResponse none = explain(json::object());  // carol's token has the role user only
  ASSERT_EQ(none.status, 200) << none.describe();
  EXPECT_EQ(none.json()["data"]["plan"], "none");
  EXPECT_EQ(none.json()["data"]["matched"], 0);
  HttpResponse staff = explain({{"roles", {"user", "staff"}}, {"count", true}});  // both stores
  ASSERT_EQ(staff.status, 200) << staff.describe();
  EXPECT_EQ(staff.json()["data"]["matched"], 2);
  for (const json& bad : {json("staff"), json{1}}) {
    HttpResponse refused = explain({{"roles", bad}});
    EXPECT_EQ(refused.error_code(), "VALIDATION_ERROR") << bad.dump();
    EXPECT_EQ(refused.json()["error"]["details"]["field"], "roles");
  }
}

// Random rules, documents and sharing lists: every user's find and count answer what a plain
// model of the rules says they may see.
TEST_F(CollectionRules, RandomRulesHttpResponseLikeTheModel) {
  std::mt19937 rng(20261204);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const Names users = {"alice", "bob", "carol"};
  give_role("carol", "crew");
  const auto roles_of = [&](const std::string& user) {
    return user == "carol" ? std::vector<std::string>{"user", "crew"}
                           : std::vector<std::string>{"user"};
  };
  for (int round = 0; round < 4; ++round) {
    const std::string c = fresh("random");
    static const std::vector<json> kReadRules = {
        {"owner"},     {"users"},     {"owner", "shared"},   {"shared"},
        {"role:crew"}, json::array(), {"owner", "role:crew"}};
    const json read_rule = kReadRules[static_cast<std::size_t>(pick(7))];
    set_rules(c, {{"read", read_rule}});
    std::vector<json> docs;  // as stored
    for (int i = 0; i < 24; ++i) {
      const std::string author = users[static_cast<std::size_t>(pick(3))];
      json data = {{"name", "d" + std::to_string(i)}, {"n", pick(4)}};
      json readers = json::array();
      for (const std::string& u : users) {
        if (pick(4) == 0) readers.push_back(key_of(u));
      }
      if (pick(5) == 0) readers.push_back("role:crew");
      if (!readers.empty()) data["_readers"] = readers;
      if (pick(6) == 0) data["_writers"] = json{key_of(users[static_cast<std::size_t>(pick(3))])};
      docs.push_back(insert(author, c, data));
    }
    const auto may_read = [&](const std::string& user, const json& doc) {
      const std::string key = key_of(user);
      const auto roles = roles_of(user);
      const auto listed = [&](const char* list) {
        if (!doc.contains(list)) return false;
        for (const json& entry : doc[list]) {
          if (entry == key) return true;
          for (const std::string& role : roles) {
            if (entry == "role:" + role) return true;
          }
        }
        return false;
      };
      for (const json& entry : read_rule) {
        if (entry == "users") return true;
        if (entry == "owner" && doc["_userkey"] == key) return true;
        if (entry == "shared" && (listed("_readers") || listed("_writers"))) return true;
        if (entry == "role:crew" && user == "carol") return true;
      }
      return false;
    };
    for (int q = 0; q < 12; ++q) {
      const std::string user = users[static_cast<std::size_t>(pick(3))];
      const json match = pick(2) == 0 ? json::object() : json{{"n", pick(4)}};
      Names expected;
      for (const json& doc : docs) {
        if (may_read(user, doc) && (match.empty() || doc["n"] == match["n"])) {
          expected.push_back(doc["name"]);
        }
      }
      std::sort(expected.begin(), expected.end());
      SCOPED_TRACE("rule " + read_rule.dump() + " user " + user + " match " + match.dump());
      EXPECT_EQ(find_names(user, c, match), expected);
      EXPECT_EQ(count_of(user, c, match), static_cast<int64_t>(expected.size()));
    }
  }
}

}  // namespace
}  // namespace opbase::test
