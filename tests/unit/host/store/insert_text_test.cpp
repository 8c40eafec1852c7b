// The text path of store.insert (host/store/insert_text.hpp): a request read without parsing its
// documents must be refused exactly when the rules written on the parsed request refuse it
// (reference_store/insert_reference.hpp: same code, message, details), and
// when accepted must carry the same collection, events and documents, each document's text a view
// of the request that parses to the same value, with its key, owner and creation time read right.
#include "store/insert_text.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "reference_store/insert_reference.hpp"

namespace opbase::host {
namespace {

using nlohmann::json;

// The parsed path's answer for `wire`: the rules written on the parsed request.
Result<store::InsertRequest> tree_path(const std::string& wire) {
  return test::decode_insert_reference(wire);
}

void expect_same_answer(const std::string& wire) {
  SCOPED_TRACE("wire: " + wire);
  const Result<TextInsert> text = decode_insert_text(wire);
  const Result<store::InsertRequest> tree = tree_path(wire);
  ASSERT_EQ(text.is_ok(), tree.is_ok()) << (text ? tree.status() : text.status()).to_string();
  if (!tree) {
    EXPECT_EQ(text.status().code(), tree.status().code());
    EXPECT_EQ(text.status().message(), tree.status().message());
    EXPECT_EQ(text.status().details(), tree.status().details());
    return;
  }
  EXPECT_EQ(text->collection, tree->collection);
  EXPECT_EQ(text->events.on_insert, tree->events.on_insert);
  EXPECT_EQ(text->events.collection, tree->events.collection);
  ASSERT_EQ(text->documents.size(), tree->documents.size());
  for (std::size_t i = 0; i < tree->documents.size(); ++i) {
    const TextDocument& doc = text->documents[i];
    const json& expected = tree->documents[i];
    EXPECT_TRUE(doc.text.data() >= wire.data() && doc.text.end() <= wire.data() + wire.size());
    EXPECT_EQ(json::parse(doc.text), expected);
    EXPECT_EQ(doc.key, expected["_key"]);
    EXPECT_EQ(doc.owner, expected.value("_userkey", json()));
    EXPECT_EQ(doc.created, expected.value("_created_at", json()));
  }
  EXPECT_EQ(parse_documents(*text).documents, tree->documents);
}

TEST(InsertText, AcceptsWhatTheParsedPathAcceptsWithTheSameDocuments) {
  for (const std::string wire : {
           R"({"collection":"c","documents":[]})",
           R"({"collection":"c","documents":[{"_key":"a"}]})",
           R"( {"documents" : [ {"_key":"a","_userkey":"u","_created_at":"2024-01-01"} ,)"
           R"({"_key":"b","_userkey":null,"_created_at":5},{"_key":"c","_created_at":-2.5e3},)"
           R"({"_key":"d","_created_at":null,"x":{"_key":1}} ], "collection":"c"} )",
           R"({"collection":"c","events":{"on_insert":"document.created","collection":"c"},)"
           R"("documents":[{"_key":"\u0061\"","n":[1,{"_userkey":5}]}]})",
           R"({"collection":"c","documents":[{"_key":"a","_key":"b"}]})",  // the last one counts
           R"({"collection":"x","collection":"c","documents":[{"_key":"a"}]})",
           "\xEF\xBB\xBF{\"collection\":\"c\",\"documents\":[{\"_key\":\"a\"}]}",  // a BOM
       }) {
    ASSERT_NO_FATAL_FAILURE(expect_same_answer(wire));
    EXPECT_TRUE(decode_insert_text(wire)) << wire;
  }
}

TEST(InsertText, RefusesWhatTheParsedPathRefusesWithTheSameError) {
  for (const std::string wire : {
           R"({"collection":"c","documents":[{"_key":"a"}])",    // not JSON
           R"({"collection":"c","documents":[{"_key":"a"},]})",  // not JSON
           R"([{"_key":"a"}])",
           R"("text")",
           "",
           " \xEF\xBB\xBF{\"collection\":\"c\",\"documents\":[]}",  // a BOM, not at the start
           R"({"documents":[{"_key":"a"}]})",
           R"({"collection":5,"documents":[{"_key":"a"}]})",
           R"({"collection":"","documents":[{"_key":"a"}]})",
           R"({"collection":"c","events":[],"documents":[]})",
           R"({"collection":"c","events":{"on_insert":7},"documents":[]})",
           R"({"collection":"c"})",
           R"({"collection":"c","documents":{"_key":"a"}})",
           R"({"collection":"c","documents":[1]})",
           R"({"collection":"c","documents":[[]]})",
           R"({"collection":"c","documents":[{}]})",
           R"({"collection":"c","documents":[{"_key":""}]})",
           R"({"collection":"c","documents":[{"_key":1}]})",
           R"({"collection":"c","documents":[{"_key":null}]})",
           R"({"collection":"c","documents":[{"_key":"a","_userkey":1}]})",
           R"({"collection":"c","documents":[{"_key":"a","_userkey":{}}]})",
           R"({"collection":"c","documents":[{"_key":"a","_created_at":true}]})",
           R"({"collection":"c","documents":[{"_key":"a","_created_at":[1]}]})",
           R"({"collection":"c","documents":[{"_key":"a"},{"_key":"b","_userkey":false}]})",
       }) {
    ASSERT_NO_FATAL_FAILURE(expect_same_answer(wire));
    EXPECT_FALSE(decode_insert_text(wire)) << wire;
  }
}

TEST(InsertText, EachDocumentIsItsTextAsItCame) {
  const std::string wire = R"({"collection":"c","documents":[ {"_key" : "a", "n": 1.50} ]})";
  auto request = decode_insert_text(wire);
  ASSERT_TRUE(request) << request.status().to_string();
  ASSERT_EQ(request->documents.size(), 1u);
  EXPECT_EQ(request->documents[0].text, R"({"_key" : "a", "n": 1.50})");
}

}  // namespace
}  // namespace opbase::host
