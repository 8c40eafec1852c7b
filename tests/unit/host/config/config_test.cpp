// Config: the layers defaults → file → environment → --set, the properties parser, typed reads.
#include "config/config.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "config/properties_file.hpp"

namespace opbase::host {
namespace {

// A fresh directory under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "opbase-config-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = path_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// ---- env_name_of ------------------------------------------------------------------------------

TEST(EnvNameOf, UpperCasesAndReplacesDots) {
  EXPECT_EQ(env_name_of("server.port"), "OPBASE_SERVER_PORT");
  EXPECT_EQ(env_name_of("server.max_body_bytes"), "OPBASE_SERVER_MAX_BODY_BYTES");
  EXPECT_EQ(env_name_of("projects.shop.api_key"), "OPBASE_PROJECTS_SHOP_API_KEY");
  EXPECT_EQ(env_name_of("my-plugin.x"), "OPBASE_MY_PLUGIN_X");
}

// ---- layering ---------------------------------------------------------------------------------

TEST(ConfigLoad, DefaultsOnly) {
  auto config = Config::load({});
  ASSERT_TRUE(config) << config.status().to_string();
  EXPECT_EQ(config->get("server.port"), "8080");
  EXPECT_EQ(config->source_of("server.port"), "default");
  // Every built-in default is present.
  for (const ConfigDefault& row : config_defaults()) {
    EXPECT_EQ(config->get(row.key), std::string(row.value)) << row.key;
  }
}

TEST(ConfigLoad, EachLaterLayerWins) {
  TempDir dir;
  const std::string file =
      dir.file("opbase.properties", "server.port = 9000\nserver.host = 0.0.0.0\n");

  ConfigSources sources;
  sources.file = file;
  auto from_file = Config::load(sources);
  ASSERT_TRUE(from_file) << from_file.status().to_string();
  EXPECT_EQ(from_file->get("server.port"), "9000");
  EXPECT_EQ(from_file->source_of("server.port"), file);

  sources.env = {{"OPBASE_SERVER_PORT", "9100"}};
  auto from_env = Config::load(sources);
  ASSERT_TRUE(from_env);
  EXPECT_EQ(from_env->get("server.port"), "9100");
  EXPECT_EQ(from_env->source_of("server.port"), "environment");
  // The file's other value is untouched.
  EXPECT_EQ(from_env->get("server.host"), "0.0.0.0");
  EXPECT_EQ(from_env->source_of("server.host"), file);

  sources.sets = {"server.port=9200"};
  auto from_set = Config::load(sources);
  ASSERT_TRUE(from_set);
  EXPECT_EQ(from_set->get("server.port"), "9200");
  EXPECT_EQ(from_set->source_of("server.port"), "command line");
}

TEST(ConfigLoad, EnvironmentOverridesDefaultWithoutFile) {
  ConfigSources sources;
  sources.env = {{"OPBASE_SERVER_MAX_BODY_BYTES", "1024"}, {"OPBASE_LOG_LEVEL", "debug"}};
  auto config = Config::load(sources);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->get("server.max_body_bytes"), "1024");
  EXPECT_EQ(config->get("log.level"), "debug");
  EXPECT_EQ(config->source_of("log.level"), "environment");
}

TEST(ConfigLoad, EnvironmentReachesKeysTheFileIntroduces) {
  TempDir dir;
  const std::string file = dir.file("a.properties", "echo.greeting = Hi\n");
  ConfigSources sources;
  sources.file = file;
  sources.env = {{"OPBASE_ECHO_GREETING", "Howdy"}};
  auto config = Config::load(sources);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->get("echo.greeting"), "Howdy");
  EXPECT_EQ(config->source_of("echo.greeting"), "environment");
}

TEST(ConfigLoad, UnknownAndForeignEnvironmentVariablesAreIgnored) {
  ConfigSources sources;
  sources.env = {{"OPBASE_NO_SUCH_KEY", "1"}, {"PATH", "/bin"}, {"SERVER_PORT", "1"}};
  auto config = Config::load(sources);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->get("server.port"), "8080");
  EXPECT_FALSE(config->get("no.such.key"));
  EXPECT_FALSE(config->get("no_such_key"));
  for (const auto& [key, value] : config->values()) {
    EXPECT_NE(config->source_of(key), "environment") << key;
  }
}

TEST(ConfigLoad, SetAssignmentsApplyInOrderAndMayAddKeys) {
  ConfigSources sources;
  sources.sets = {"server.port=1", "server.port=2", "projects.shop.api_key=a=b=c",
                  "echo.greeting="};
  auto config = Config::load(sources);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->get("server.port"), "2");
  EXPECT_EQ(config->get("projects.shop.api_key"), "a=b=c");  // only the first '=' splits
  EXPECT_EQ(config->get("echo.greeting"), "");
  EXPECT_EQ(config->source_of("echo.greeting"), "command line");
}

TEST(ConfigLoad, SetWithoutKeyOrEqualsIsRefused) {
  for (const std::string bad : {"server.port", "=9000", ""}) {
    ConfigSources sources;
    sources.sets = {bad};
    auto config = Config::load(sources);
    ASSERT_FALSE(config) << "'" << bad << "'";
    EXPECT_EQ(config.status().code(), code::kValidationError);
    EXPECT_NE(config.status().message().find("--set takes key=value"), std::string::npos);
    EXPECT_NE(config.status().message().find("'" + bad + "'"), std::string::npos);
  }
}

TEST(ConfigLoad, LaterLineOfTheFileWins) {
  TempDir dir;
  const std::string file = dir.file("twice.properties", "server.port = 1\nserver.port = 2\n");
  ConfigSources sources;
  sources.file = file;
  auto config = Config::load(sources);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->get("server.port"), "2");
}

TEST(ConfigLoad, MissingFileIsAClearError) {
  TempDir dir;
  ConfigSources sources;
  sources.file = dir.path() + "/does-not-exist.properties";
  auto config = Config::load(sources);
  ASSERT_FALSE(config);
  EXPECT_EQ(config.status().code(), code::kValidationError);
  const std::string message = config.status().message();
  EXPECT_NE(message.find("cannot read configuration file"), std::string::npos) << message;
  EXPECT_NE(message.find(*sources.file), std::string::npos) << message;
  EXPECT_NE(message.find("No such file"), std::string::npos) << message;
}

TEST(ConfigLoad, BadFileLineNamesFileAndLine) {
  TempDir dir;
  const std::string file = dir.file("bad.properties", "# fine\nserver.port = 1\noops\n");
  ConfigSources sources;
  sources.file = file;
  auto config = Config::load(sources);
  ASSERT_FALSE(config);
  EXPECT_NE(config.status().message().find(file + ":3:"), std::string::npos)
      << config.status().message();
}

TEST(ConfigDefaultsWith, OverridesAreCommandLine) {
  Config config = Config::defaults_with({{"server.port", "1234"}, {"x.y", "z"}});
  EXPECT_EQ(config.get("server.port"), "1234");
  EXPECT_EQ(config.source_of("server.port"), "command line");
  EXPECT_EQ(config.get("x.y"), "z");
  EXPECT_EQ(config.get("server.host"), "127.0.0.1");
  EXPECT_EQ(config.source_of("server.host"), "default");
}

TEST(ConfigDefaults, KeysAreUniqueAndDescribed) {
  std::set<std::string> seen;
  for (const ConfigDefault& row : config_defaults()) {
    EXPECT_TRUE(seen.insert(row.key).second) << "duplicate default " << row.key;
    EXPECT_NE(std::string(row.meaning), "") << row.key;
  }
  EXPECT_FALSE(seen.empty());
}

TEST(ConfigSet, AddsALayerAndRecordsSource) {
  Config config = Config::defaults_with();
  config.set("server.port", "1", "generated");
  EXPECT_EQ(config.get("server.port"), "1");
  EXPECT_EQ(config.source_of("server.port"), "generated");
  EXPECT_EQ(config.source_of("never.set"), "unset");
  EXPECT_FALSE(config.get("never.set"));
  EXPECT_EQ(config.get_or("never.set", "fallback"), "fallback");
  EXPECT_EQ(config.get_or("never.set"), "");
}

// ---- properties parser ------------------------------------------------------------------------

TEST(Properties, CommentsBlankLinesAndTrimming) {
  const std::string text =
      "# a comment\n"
      "! another comment\n"
      "   # an indented comment\n"
      "\n"
      "   \t  \n"
      "  key.one   =   value one  \n"
      "key.two=two\r\n"
      "\tkey.three\t=\tthree\t\n"
      "url = http://x/?a=b&c=d\n"
      "empty =\n"
      "hash.inside = a # not a comment\n"
      "last = no newline";
  auto parsed = parse_properties(text, "t.properties");
  ASSERT_TRUE(parsed) << parsed.status().to_string();
  const Properties expected = {
      {"key.one", "value one"},     {"key.two", "two"}, {"key.three", "three"},
      {"url", "http://x/?a=b&c=d"}, {"empty", ""},      {"hash.inside", "a # not a comment"},
      {"last", "no newline"}};
  EXPECT_EQ(*parsed, expected);
}

TEST(Properties, EmptyTextIsEmpty) {
  auto parsed = parse_properties("", "e.properties");
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->empty());
  auto only_comments = parse_properties("# x\n\n! y\n", "e.properties");
  ASSERT_TRUE(only_comments);
  EXPECT_TRUE(only_comments->empty());
}

TEST(Properties, DuplicateKeysAreKeptInOrder) {
  auto parsed = parse_properties("a = 1\na = 2\n", "d.properties");
  ASSERT_TRUE(parsed);
  const Properties expected = {{"a", "1"}, {"a", "2"}};
  EXPECT_EQ(*parsed, expected);
}

TEST(Properties, LineWithoutEqualsNamesFileAndLine) {
  auto parsed = parse_properties("# c\na = 1\n\njust some words\nb = 2\n", "conf/x.properties");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), code::kValidationError);
  EXPECT_EQ(parsed.status().message(),
            "conf/x.properties:4: expected 'key = value', got 'just some words'");
}

TEST(Properties, ColonIsNotASeparator) {
  auto parsed = parse_properties("key: value\n", "c.properties");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.status().message().find("c.properties:1:"), std::string::npos);
}

TEST(Properties, EmptyKeyNamesFileAndLine) {
  auto parsed = parse_properties("a = 1\n   = value\n", "k.properties");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), code::kValidationError);
  EXPECT_EQ(parsed.status().message(), "k.properties:2: the key before '=' is empty");
}

TEST(Properties, CrLfLineNumbersCount) {
  auto parsed = parse_properties("a = 1\r\n\r\nbad\r\n", "w.properties");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().message(), "w.properties:3: expected 'key = value', got 'bad'");
}

TEST(Properties, WriteThenReadRoundTripsWithMode0600) {
  TempDir dir;
  const std::string path = dir.path() + "/secret.properties";
  const Properties keys = {{"a.b", "1"}, {"c", "x = y"}};
  ASSERT_TRUE(write_properties_file(path, keys, "header line").is_ok());
  auto read = read_properties_file(path);
  ASSERT_TRUE(read) << read.status().to_string();
  EXPECT_EQ(*read, keys);
  const auto perms = std::filesystem::status(path).permissions();
  EXPECT_EQ(perms & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// ---- typed reads ------------------------------------------------------------------------------

TEST(ConfigGetInt, ParsesInRange) {
  Config config =
      Config::defaults_with({{"n", "42"}, {"neg", "-7"}, {"big", "9223372036854775807"}});
  auto n = config.get_int("n", 0, 100);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 42);
  auto neg = config.get_int("neg", -10, 10);
  ASSERT_TRUE(neg);
  EXPECT_EQ(*neg, -7);
  auto big = config.get_int("big", 0, INT64_MAX);
  ASSERT_TRUE(big);
  EXPECT_EQ(*big, INT64_MAX);
  // The bounds are inclusive.
  EXPECT_TRUE(config.get_int("n", 42, 42));
  auto port = config.get_int("server.port", 0, 65535);
  ASSERT_TRUE(port);
  EXPECT_EQ(*port, 8080);
}

TEST(ConfigGetInt, ErrorNamesKeySourceRangeAndValue) {
  Config config = Config::defaults_with();
  config.set("server.port", "80x", "/etc/opbase.properties");
  auto port = config.get_int("server.port", 0, 65535);
  ASSERT_FALSE(port);
  EXPECT_EQ(port.status().code(), code::kValidationError);
  EXPECT_EQ(port.status().message(),
            "configuration key server.port (from /etc/opbase.properties) must be an integer from 0 "
            "to 65535, not '80x'");
}

TEST(ConfigGetInt, RefusesOutOfRangeEmptyUnsetAndJunk) {
  Config config = Config::defaults_with({{"low", "-1"},
                                         {"high", "65536"},
                                         {"empty", ""},
                                         {"space", " 5"},
                                         {"float", "1.5"},
                                         {"overflow", "99999999999999999999"}});
  for (const char* key : {"low", "high", "empty", "space", "float", "overflow", "unset.key"}) {
    auto value = config.get_int(key, 0, 65535);
    ASSERT_FALSE(value) << key;
    EXPECT_EQ(value.status().code(), code::kValidationError) << key;
    EXPECT_NE(value.status().message().find(std::string("configuration key ") + key),
              std::string::npos)
        << value.status().message();
  }
  EXPECT_NE(config.get_int("unset.key", 0, 1).status().message().find("(from unset)"),
            std::string::npos);
}

TEST(ConfigGetBool, AcceptsTheWords) {
  Config config = Config::defaults_with();
  for (const char* word : {"true", "yes", "on", "1"}) {
    config.set("flag", word, "test");
    auto value = config.get_bool("flag");
    ASSERT_TRUE(value) << word;
    EXPECT_TRUE(*value) << word;
  }
  for (const char* word : {"false", "no", "off", "0"}) {
    config.set("flag", word, "test");
    auto value = config.get_bool("flag");
    ASSERT_TRUE(value) << word;
    EXPECT_FALSE(*value) << word;
  }
}

TEST(ConfigGetBool, RefusesOtherWordsNamingKeyAndValue) {
  Config config = Config::defaults_with();
  for (const char* word : {"maybe", "", "2", "y", "enabled"}) {
    config.set("server.keep_alive", word, "environment");
    auto value = config.get_bool("server.keep_alive");
    ASSERT_FALSE(value) << word;
    EXPECT_EQ(value.status().code(), code::kValidationError);
    EXPECT_EQ(value.status().message(), std::string("configuration key server.keep_alive (from "
                                                    "environment) must be true or false, not '") +
                                            word + "'");
  }
  EXPECT_FALSE(config.get_bool("no.such.flag"));
}

TEST(ConfigGetList, TrimsAndDropsEmptyItems) {
  Config config = Config::defaults_with({{"l", " a, b ,,\tc\t, ,"}, {"one", "x"}, {"blank", "  "}});
  EXPECT_EQ(config.get_list("l"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(config.get_list("one"), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(config.get_list("blank").empty());
  EXPECT_TRUE(config.get_list("plugins.enabled").empty());  // default ""
  EXPECT_TRUE(config.get_list("unset").empty());
}

// ---- children ---------------------------------------------------------------------------------

TEST(ConfigChildren, DistinctSortedNextSegments) {
  Config config = Config::defaults_with({{"projects.shop.endpoint_key", "e1"},
                                         {"projects.shop.api_key", "k1"},
                                         {"projects.default.endpoint_key", "e2"},
                                         {"projects.a.b.c", "deep"},
                                         {"projectsx.other.key", "not a child"}});
  // projects.generate_default and projects.print_generated_keys have no further segment.
  EXPECT_EQ(config.children("projects."), (std::vector<std::string>{"a", "default", "shop"}));
  EXPECT_EQ(config.children("storage."), (std::vector<std::string>{"mongodb", "sqlite"}));
  EXPECT_TRUE(config.children("server.").empty());
  EXPECT_TRUE(config.children("nothing.").empty());
}

}  // namespace
}  // namespace opbase::host
