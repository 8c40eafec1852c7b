// Fuzzes the host services `store.*` (host/store/store_service.hpp) end to end: the JSON a plugin
// sends, decoded by sdk/src/store_codec.cpp and run on the reference MemoryDriver.
//
// Input: the first byte picks the service (byte - '0', modulo 10: insert, find, count, update,
// upsert, change_state, restore, purge, collection_exists, an unknown one); the rest is the
// request's JSON. Every input runs on a fresh store seeded with the same few documents (active,
// deleted and archived ones, of two owners and nobody, plus documents of another namespace), so
// each input reproduces alone and the store's size is bounded by one input's.
//
// Invariants (std::abort on a violation): nothing throws; every failure is a Status with a
// non-empty code and message and null or object details; a successful find returns an array no
// longer than its limit, in its owner scope, matching its match, in sort order, with a total
// equal to store.count's; another namespace is never seen or changed; and for every decode_*,
// encode(decode(x)) decodes again to an equal request (and encodes identically). The text path
// of store.insert (insert_text.hpp) refuses exactly what the rules written on the parsed request
// (reference_store/insert_reference.hpp) refuse, with the same error, and otherwise reads the
// same documents with the same key, owner and creation time.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "opbase/internal/store_codec.hpp"
#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "reference_store/insert_reference.hpp"
#include "reference_store/memory_driver.hpp"
#include "store/insert_text.hpp"
#include "store/store_service.hpp"

namespace {

using nlohmann::json;
using namespace opbase;

constexpr std::string_view kNs = "fuzz";
constexpr std::string_view kOtherNs = "other";
// The `_key`s of the other namespace's documents: unique in the project, so no input can insert
// them again in kNs.
constexpr std::string_view kOtherKeys[] = {"zz-other-1", "zz-other-2"};

constexpr std::string_view kServices[] = {
    "store.insert",      "store.find",           "store.count",
    "store.update",      "store.upsert",         "store.change_state",
    "store.restore",     "store.purge",          "store.collection_exists",
    "store.collections", "store.no_such_service"};

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "store_request_fuzz: %s\n%s\n", what, detail.c_str());
  std::abort();
}

void check(bool ok, const char* what, const std::string& detail = {}) {
  if (!ok) fail(what, detail);
}

std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void check_failure(const Status& status, const std::string& context) {
  check(!status.is_ok(), "a failed Result holds an ok Status", context);
  check(!status.code().empty(), "failure with an empty code", context);
  check(!status.message().empty(), "failure with an empty message", status.code() + " " + context);
  check(status.details().is_null() || status.details().is_object(),
        "failure details neither null nor an object", status.to_string() + " " + context);
}

// Runs a service the harness itself sends: it must succeed.
json must(host::ProjectStore& store, std::string_view ns, std::string_view service,
          const json& input) {
  auto answer = host::call_store_service(store, ns, service, input.dump());
  if (!answer) fail("a harness request failed", answer.status().to_string() + " " + dump(input));
  return json::parse(*answer);
}

// The same documents before every input: owners u1, u2 and nobody, nested values, arrays, mixed
// `_created_at` types; one deleted (ref r-del) and one archived (ref r-arc) document; and two
// documents of another namespace, one with the same collection name.
std::shared_ptr<host::ProjectStore> seeded_store(host::MemoryDriver& driver) {
  auto opened = driver.open("fuzz-project");
  if (!opened) fail("open failed", opened.status().to_string());
  std::shared_ptr<host::ProjectStore> store = *opened;
  static const json documents = json::parse(R"([
    {"_key": "k1", "_userkey": "u1", "_created_at": "2024-01-01T00:00:00.000Z", "name": "Lamp",
     "price": 25, "tags": ["home", "light"], "address": {"city": "Paris"}, "n": 1},
    {"_key": "k2", "_userkey": "u1", "_created_at": "2024-01-02T00:00:00.000Z", "name": "Desk",
     "price": 120.5, "tags": [], "items": [{"sku": "a", "qty": 2}, {"sku": "b"}]},
    {"_key": "k3", "_userkey": "u2", "_created_at": 3, "name": "Chair", "price": null},
    {"_key": "k4", "_userkey": null, "_created_at": null, "name": "Nobody's", "n": 9223372036854775807},
    {"_key": "k5", "_userkey": "u1", "name": "Old", "price": 5},
    {"_key": "k6", "_userkey": "u1", "_created_at": "2023-06-01T00:00:00.000Z", "name": "Box",
     "price": 7, "n": -2.5},
    {"_key": "k7", "_userkey": "u2", "_created_at": "2023-01-01T00:00:00.000Z", "name": "Gone"}
  ])");
  must(*store, kNs, "store.insert", {{"collection", "c"}, {"documents", documents}});
  must(*store, kNs, "store.insert",
       {{"collection", "d"},
        {"documents", json::array({{{"_key", "d1"}, {"_userkey", "u1"}, {"v", 1}}})}});
  must(*store, kOtherNs, "store.insert",
       {{"collection", "c"},
        {"documents", json::array({{{"_key", kOtherKeys[0]}, {"_userkey", "u1"}, {"name", "Lamp"}},
                                   {{"_key", kOtherKeys[1]}, {"_userkey", nullptr}}})}});
  must(*store, kNs, "store.change_state",
       {{"collection", "c"},
        {"owner", "u1"},
        {"match", {{"_key", "k5"}}},
        {"to", "deleted"},
        {"ref", "r-del"},
        {"at_ms", 1000}});
  must(*store, kNs, "store.change_state",
       {{"collection", "c"},
        {"owner", "u2"},
        {"match", {{"_key", "k7"}}},
        {"to", "archived"},
        {"ref", "r-arc"},
        {"at_ms", 2000}});
  must(*store, kOtherNs, "store.change_state",
       {{"collection", "c"},
        {"owner", nullptr},
        {"every_owner", true},
        {"match", json::object()},
        {"to", "deleted"},
        {"ref", "r-del"},
        {"at_ms", 500}});
  return store;
}

bool same_match(const query::Match& a, const query::Match& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].path != b[i].path || a[i].op != b[i].op || a[i].value != b[i].value) return false;
  }
  return true;
}

bool same_find(const store::FindRequest& a, const store::FindRequest& b) {
  if (a.sort.size() != b.sort.size()) return false;
  for (std::size_t i = 0; i < a.sort.size(); ++i) {
    if (a.sort[i].path != b.sort[i].path || a.sort[i].descending != b.sort[i].descending) {
      return false;
    }
  }
  return a.collection == b.collection && a.scope.owner == b.scope.owner && a.state == b.state &&
         same_match(a.match, b.match) && a.offset == b.offset && a.limit == b.limit &&
         a.with_total == b.with_total;
}

// encode(decode(x)) decodes again, and encodes to the same JSON.
template <typename Decode>
void check_round_trip(const json& input, Decode&& decode, const char* name) {
  auto first = decode(input);
  if (!first) {
    check_failure(first.status(), std::string(name) + " " + dump(input));
    return;
  }
  const json wire = store::encode(*first);
  auto second = decode(wire);
  if (!second) {
    fail("encode(decode(x)) does not decode", std::string(name) + " " +
                                                  second.status().to_string() + "\ninput " +
                                                  dump(input) + "\nwire " + dump(wire));
  }
  const json again = store::encode(*second);
  check(again == wire, "encode(decode(encode(r))) != encode(r)",
        std::string(name) + "\ninput " + dump(input) + "\nwire  " + dump(wire) + "\nagain " +
            dump(again));
}

void check_codecs(const json& input) {
  auto find = store::decode_find(input);
  if (find) {
    const json wire = store::encode(*find);
    auto back = store::decode_find(wire);
    if (!back) fail("decode_find(encode(r)) failed", back.status().to_string() + " " + dump(wire));
    check(same_find(*find, *back), "decode_find(encode(r)) != r",
          "input " + dump(input) + "\nwire " + dump(wire));
  } else {
    check_failure(find.status(), "decode_find " + dump(input));
  }
  check_round_trip(input, store::decode_find, "find");
  if (auto insert = test::decode_insert_reference(input.dump())) {
    // An insert printed and encoded as the SDK sends it reads back as the same request.
    const std::string wire = store::encode_text(store::printed(*insert));
    auto back = test::decode_insert_reference(wire);
    check(back && back->collection == insert->collection && back->documents == insert->documents &&
              back->events.on_insert == insert->events.on_insert &&
              back->events.on_change == insert->events.on_change &&
              back->events.collection == insert->events.collection &&
              back->events.key == insert->events.key,
          "encode_text(printed(insert)) does not read back as the insert", dump(input));
  }
  check_round_trip(input, store::decode_count, "count");
  check_round_trip(input, store::decode_update, "update");
  check_round_trip(input, store::decode_upsert, "upsert");
  check_round_trip(input, store::decode_state, "state");
  check_round_trip(input, store::decode_restore, "restore");
  check_round_trip(input, store::decode_purge, "purge");
}

bool other_key(const json& key) {
  if (!key.is_string()) return false;
  const std::string& text = key.get_ref<const std::string&>();
  return text == kOtherKeys[0] || text == kOtherKeys[1];
}

void check_no_other_documents(const json& documents, const std::string& context) {
  if (!documents.is_array()) return;
  for (const json& doc : documents) {
    check(doc.is_object(), "an answered document is not an object", context);
    const auto key = doc.find("_key");
    check(key != doc.end() && key->is_string(), "an answered document has no string _key", context);
    check(!other_key(*key), "another namespace's document was answered", context);
  }
}

// A successful find: the limit, the scope, the match, the order, and total == count.
void check_find(host::ProjectStore& store, const json& input, const json& answer,
                const std::string& context) {
  auto request = store::decode_find(input);
  check(request.is_ok(), "store.find succeeded on a request decode_find refuses", context);
  check(answer.is_object(), "find answer is not an object", context);
  const auto docs = answer.find("documents");
  check(docs != answer.end() && docs->is_array(), "find answer has no documents array", context);
  const auto size = static_cast<int64_t>(docs->size());
  if (request->limit >= 0)
    check(size <= request->limit, "find answered more than its limit", context);
  check_no_other_documents(*docs, context);
  for (const json& doc : *docs) {
    if (request->scope.owner) {
      const auto owner = doc.find("_userkey");
      check(owner != doc.end() && owner->is_string() && *owner == *request->scope.owner,
            "find answered a document outside its owner scope", context + "\n" + dump(doc));
    }
    check(query::matches(request->match, doc), "find answered a document its match refuses",
          context + "\n" + dump(doc));
  }
  std::vector<query::SortKey> keys = request->sort;
  if (keys.empty()) {
    keys.push_back({*query::parse_path("_created_at", store::wire_parse_options()), true});
  }
  keys.push_back({*query::parse_path("_key", store::wire_parse_options()), keys.back().descending});
  for (std::size_t i = 1; i < docs->size(); ++i) {
    check(query::compare_for_sort((*docs)[i - 1], (*docs)[i], keys) < 0,
          "find answered documents out of order", context);
  }
  // The answer's layout (store.hpp encode_find_answer) always has a total: -1 when not asked.
  const auto total = answer.find("total");
  check(total != answer.end() && total->is_number_integer() &&
            (total->get<int64_t>() >= 0) == request->with_total,
        "find total set iff with_total", context);
  // The same selection counted: count ignores find's own fields.
  auto counted = host::call_store_service(store, kNs, "store.count", input.dump());
  check(counted.is_ok(), "store.count refuses what store.find accepted",
        context + "\n" + counted.status().to_string());
  const int64_t count = json::parse(*counted).at("count").get<int64_t>();
  if (request->with_total) {
    check(total->get<int64_t>() == count, "find total differs from count",
          context + "\ncount " + std::to_string(count));
  }
  int64_t expected = count > request->offset ? count - request->offset : 0;
  if (request->limit >= 0 && request->limit < expected) expected = request->limit;
  check(size == expected, "find answered a page of the wrong size",
        context + "\ncount " + std::to_string(count) + " answered " + std::to_string(size));
}

void check_answer(host::ProjectStore& store, std::string_view service, const json& input,
                  const json& answer) {
  const std::string context = std::string(service) + " " + dump(input) + "\n-> " + dump(answer);
  check(answer.is_object(), "answer is not an object", context);
  if (service == "store.find") {
    check_find(store, input, answer, context);
  } else if (service == "store.count") {
    check(answer.at("count").is_number_integer() && answer.at("count").get<int64_t>() >= 0,
          "count is not a non-negative integer", context);
  } else if (service == "store.update") {
    check_no_other_documents(answer.at("documents"), context);
  } else if (service == "store.upsert") {
    const json& doc = answer.at("document");
    check(doc.is_object() && doc.contains("_key"), "upsert answered no document", context);
    check(!other_key(doc.at("_key")), "upsert changed another namespace's document", context);
  } else if (service == "store.change_state" || service == "store.restore") {
    for (const json& key : answer.at("keys")) {
      check(!other_key(key), "another namespace's document changed state", context);
    }
  }
}

void run(std::string_view service, const json& input) {
  host::MemoryDriver driver;
  const std::shared_ptr<host::ProjectStore> store = seeded_store(driver);
  auto answer = host::call_store_service(*store, kNs, service, input.dump());
  if (!answer) {
    check_failure(answer.status(), std::string(service) + " " + dump(input));
    return;
  }
  const json parsed = json::parse(*answer, nullptr, /*allow_exceptions=*/false);
  check(!parsed.is_discarded(), "a store service returned text that is not JSON",
        std::string(service) + " " + dump(input) + "\n-> " + *answer);
  check_answer(*store, service, input, parsed);
  // The other namespace is untouched, whatever the input did (purge included).
  const json other =
      must(*store, kOtherNs, "store.count",
           {{"collection", "c"}, {"owner", nullptr}, {"every_owner", true}, {"state", "deleted"}});
  check(other.at("count") == 2, "another namespace's documents changed",
        std::string(service) + " " + dump(input));
}

// `text` as the store service reads an insert, without parsing its documents, against the path
// that parses them. Texts holding a NUL are json_text's one deliberate difference (refused).
void check_insert_text(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return;
  const std::string context = "insert text " + std::string(text);
  const auto by_text = host::decode_insert_text(text);
  const auto by_tree = test::decode_insert_reference(text);
  check(by_text.is_ok() == by_tree.is_ok(), "the text path and the parsed path disagree", context);
  if (!by_tree) {
    check(by_text.status().code() == by_tree.status().code() &&
              by_text.status().message() == by_tree.status().message() &&
              by_text.status().details() == by_tree.status().details(),
          "the text path refuses with another error", context);
    return;
  }
  check(by_text->collection == by_tree->collection, "another collection", context);
  check(by_text->documents.size() == by_tree->documents.size(), "another count", context);
  for (std::size_t i = 0; i < by_tree->documents.size(); ++i) {
    const json& doc = by_tree->documents[i];
    const host::TextDocument& read = by_text->documents[i];
    check(json::parse(read.text) == doc && read.key == doc.at("_key") &&
              read.owner == doc.value("_userkey", json()) &&
              read.created == doc.value("_created_at", json()),
          "the text path read a document differently", context);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  // Raw bytes through the parser, exceptions off: never throws, whatever the bytes.
  (void)json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (size < 2) return 0;
  const std::string_view text = raw.substr(1);
  check_insert_text(text);
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || (text[start] != '{' && text[start] != '[')) return 0;
  const json input = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (input.is_discarded()) return 0;
  const std::string_view service = kServices[static_cast<uint8_t>(data[0] - '0') % 10];
  try {
    check_codecs(input);
    run(service, input);
  } catch (const std::exception& e) {
    fail("an exception escaped", std::string(service) + " " + dump(input) + "\n" + e.what());
  }
  return 0;
}
