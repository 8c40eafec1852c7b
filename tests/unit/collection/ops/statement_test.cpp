// parse_statement and bind_statement_data: the two insert forms, every syntax error with its
// position, unsupported statements, collection names inside statements, and binding variables.
#include "ops/statement.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace opbase::collection {
namespace {

using nlohmann::json;

void expect_parsed(const std::string& query, const std::string& collection,
                   const std::string& variable) {
  SCOPED_TRACE("query: '" + query + "'");
  const auto parsed = parse_statement(query);
  ASSERT_TRUE(parsed) << parsed.status().to_string();
  EXPECT_EQ(parsed->collection, collection);
  EXPECT_EQ(parsed->variable, variable);
}

void expect_syntax_error(const std::string& query, int position, const std::string& expected) {
  SCOPED_TRACE("query: '" + query + "'");
  const Status status = parse_statement(query).status();
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.message(),
            "syntax error at position " + std::to_string(position) + ": expected " + expected);
  EXPECT_EQ(status.details(), json({{"position", position}, {"expected", expected}}));
}

void expect_unsupported(const std::string& query, const std::string& statement, int position) {
  SCOPED_TRACE("query: '" + query + "'");
  const Status status = parse_statement(query).status();
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.message(), "statement not supported");
  EXPECT_EQ(status.details(), json({{"statement", statement}, {"position", position}}));
}

void expect_bad_name(const std::string& query, const std::string& name, const std::string& rule,
                     int position) {
  SCOPED_TRACE("query: '" + query + "'");
  const Status status = parse_statement(query).status();
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.message().rfind("collection name ", 0), 0u) << status.message();
  EXPECT_EQ(status.details(), json({{"collection", name}, {"rule", rule}, {"position", position}}));
}

// ---- the two forms ----------------------------------------------------------------------------

TEST(ParseStatement, ShortForm) { expect_parsed("INSERT $data IN things", "things", "data"); }

TEST(ParseStatement, LongForm) {
  expect_parsed("INSERT INTO things VALUES $data", "things", "data");
}

TEST(ParseStatement, KeywordsIgnoreCase) {
  expect_parsed("insert $data in things", "things", "data");
  expect_parsed("Insert $data iN things", "things", "data");
  expect_parsed("insert into things values $data", "things", "data");
  expect_parsed("iNsErT InTo things VaLuEs $data", "things", "data");
}

TEST(ParseStatement, VariableAndCollectionKeepTheirSpelling) {
  expect_parsed("INSERT $Rows_2 IN _order_items9", "_order_items9", "Rows_2");
  expect_parsed("INSERT INTO t VALUES $_", "t", "_");
  expect_parsed("INSERT $data IN in", "in", "data");  // a keyword is a fine collection name
  expect_parsed("INSERT INTO values VALUES $values", "values", "values");
}

TEST(ParseStatement, AnyWhitespaceBetweenTokens) {
  expect_parsed("  INSERT   $data   IN   things  ", "things", "data");
  expect_parsed("INSERT\t$data\nIN\r\nthings", "things", "data");
  expect_parsed("\n\tINSERT INTO things\n  VALUES\n  $data\n", "things", "data");
  expect_parsed("INSERT\f$data\vIN things", "things", "data");
}

TEST(ParseStatement, NoWhitespaceNeededBeforeDollar) {
  expect_parsed("INSERT$data IN things", "things", "data");
  expect_parsed("INSERT INTO things VALUES$data", "things", "data");
}

TEST(ParseStatement, OptionalTrailingSemicolon) {
  expect_parsed("INSERT $data IN things;", "things", "data");
  expect_parsed("INSERT $data IN things ;  \n", "things", "data");
  expect_parsed("INSERT INTO things VALUES $data;", "things", "data");
  expect_parsed("INSERT INTO things VALUES $data\n;\n", "things", "data");
}

// ---- syntax errors ----------------------------------------------------------------------------

TEST(ParseStatement, SyntaxErrorWhereInsertIsExpected) {
  expect_syntax_error("HELLO world", 1, "INSERT");
  expect_syntax_error("$data IN things", 1, "INSERT");
  expect_syntax_error("  insertx $data IN things", 3, "INSERT");
  expect_syntax_error(";", 1, "INSERT");
  expect_syntax_error("\xC3\xA9 INSERT $data IN things", 1, "INSERT");
}

TEST(ParseStatement, SyntaxErrorAfterInsert) {
  expect_syntax_error("INSERT", 7, "$variable or INTO");
  expect_syntax_error("INSERT data IN things", 8, "$variable or INTO");
  expect_syntax_error("INSERT INTOthings VALUES $data", 8, "$variable or INTO");
  expect_syntax_error("INSERT ;", 8, "$variable or INTO");
}

TEST(ParseStatement, SyntaxErrorInVariableName) {
  expect_syntax_error("INSERT $ IN things", 9, "variable name");
  expect_syntax_error("INSERT $1data IN things", 9, "variable name");
  expect_syntax_error("INSERT $", 9, "variable name");
  expect_syntax_error("INSERT INTO things VALUES $", 28, "variable name");
  expect_syntax_error("INSERT INTO things VALUES $-x", 28, "variable name");
}

TEST(ParseStatement, SyntaxErrorWhereInIsExpected) {
  expect_syntax_error("INSERT $data", 13, "IN");
  expect_syntax_error("INSERT $data INTO things", 14, "IN");
  expect_syntax_error("INSERT $data.x IN things", 13, "IN");
  expect_syntax_error("INSERT $data INthings", 14, "IN");
  expect_syntax_error("INSERT\n$data\nINTO things", 14, "IN");
}

TEST(ParseStatement, SyntaxErrorWhereCollectionIsExpected) {
  expect_syntax_error("INSERT $data IN", 16, "collection name");
  expect_syntax_error("INSERT $data IN   ", 19, "collection name");
  expect_syntax_error("INSERT $data IN ;", 17, "collection name");
  expect_syntax_error("INSERT $data IN(things)", 16, "collection name");
  expect_syntax_error("INSERT INTO", 12, "collection name");
  expect_syntax_error("INSERT INTO ; VALUES $data", 13, "collection name");
}

TEST(ParseStatement, SyntaxErrorWhereValuesIsExpected) {
  expect_syntax_error("INSERT INTO things", 19, "VALUES");
  expect_syntax_error("INSERT INTO things $data", 20, "VALUES");
  expect_syntax_error("INSERT INTO things VALUE $data", 20, "VALUES");
  expect_syntax_error("INSERT INTO things; VALUES $data", 19, "VALUES");
}

TEST(ParseStatement, SyntaxErrorWhereVariableIsExpectedAfterValues) {
  expect_syntax_error("INSERT INTO things VALUES", 26, "$variable");
  expect_syntax_error("INSERT INTO things VALUES data", 27, "$variable");
  expect_syntax_error("INSERT INTO things VALUES ;", 27, "$variable");
}

TEST(ParseStatement, SyntaxErrorWhereTheEndIsExpected) {
  expect_syntax_error("INSERT $data IN things extra", 24, "end of statement");
  expect_syntax_error("INSERT $data IN things;;", 24, "end of statement");
  expect_syntax_error("INSERT $data IN things; INSERT $data IN others", 25, "end of statement");
  expect_syntax_error("INSERT $data IN things(", 23, "end of statement");
  expect_syntax_error("INSERT INTO things VALUES $data more", 33, "end of statement");
  expect_syntax_error("INSERT INTO things VALUES $data, $more", 32, "end of statement");
  expect_syntax_error("INSERT INTO things VALUES $data; RETURNING *", 34, "end of statement");
}

// ---- unsupported statements -------------------------------------------------------------------

TEST(ParseStatement, OtherStatementsAreNotSupported) {
  expect_unsupported("SELECT * FROM things", "SELECT", 1);
  expect_unsupported("  for doc in things return doc", "FOR", 3);
  expect_unsupported("update things set a = 1", "UPDATE", 1);
  expect_unsupported("DELETE FROM things", "DELETE", 1);
  expect_unsupported("UPSERT {a: 1} INSERT {a: 1} UPDATE {} IN things", "UPSERT", 1);
  expect_unsupported("REPLACE $data IN things", "REPLACE", 1);
  expect_unsupported("REMOVE $data IN things", "REMOVE", 1);
  expect_unsupported("LET x = 1 RETURN x", "LET", 1);
  expect_unsupported("Return 1", "RETURN", 1);
  expect_unsupported("WITH things FOR d IN things RETURN d", "WITH", 1);
  expect_unsupported("CREATE TABLE things (a INT)", "CREATE", 1);
  expect_unsupported("drop table things;", "DROP", 1);
  expect_unsupported("SELECT*FROM things", "SELECT", 1);
}

TEST(ParseStatement, InsertOfAnotherShapeIsNotSupported) {
  expect_unsupported("INSERT {a: 1} IN things", "INSERT", 8);
  expect_unsupported("INSERT [{}] IN things", "INSERT", 8);
  expect_unsupported("INSERT @doc INTO @@things", "INSERT", 8);
  expect_unsupported("INSERT (1) INTO things", "INSERT", 8);
  expect_unsupported("INSERT INTO things (a, b) VALUES (1, 2)", "INSERT", 20);
  expect_unsupported("INSERT INTO things(a) VALUES (1)", "INSERT", 19);
  expect_unsupported("INSERT INTO things SELECT * FROM others", "INSERT", 20);
  expect_unsupported("INSERT INTO things SET a = 1", "INSERT", 20);
  expect_unsupported("INSERT INTO things DEFAULT VALUES", "INSERT", 20);
  expect_unsupported("INSERT INTO things VALUES (1, 2)", "INSERT", 27);
  expect_unsupported("INSERT INTO things VALUES {a: 1}", "INSERT", 27);
  expect_unsupported("INSERT INTO things VALUES @data", "INSERT", 27);
}

TEST(ParseStatement, InsertWithMoreClausesIsNotSupported) {
  expect_unsupported("INSERT $data IN things RETURN NEW", "INSERT", 24);
  expect_unsupported("INSERT $data IN things OPTIONS {}", "INSERT", 24);
  expect_unsupported("INSERT INTO things VALUES $data RETURNING *", "INSERT", 33);
  expect_unsupported("insert into things values $data on conflict do nothing", "INSERT", 33);
}

// ---- collection names -------------------------------------------------------------------------

TEST(ParseStatement, BadCollectionNameCarriesItsRuleAndPosition) {
  expect_bad_name("INSERT $data IN Things", "Things", "first_character", 17);
  expect_bad_name("INSERT $data IN 1st", "1st", "first_character", 17);
  expect_bad_name("INSERT INTO my-things VALUES $data", "my-things", "characters", 13);
  expect_bad_name("INSERT $data IN caf\xC3\xA9", "caf\xC3\xA9", "characters", 17);
  expect_bad_name("INSERT $data IN `things`", "`things`", "first_character", 17);
  expect_bad_name("INSERT $data IN \"things\";", "\"things\"", "first_character", 17);
  expect_bad_name("INSERT INTO things.v2 VALUES $data", "things.v2", "characters", 13);
  expect_bad_name("INSERT INTO $data VALUES $data", "$data", "first_character", 13);
  const std::string long_name(65, 'a');
  expect_bad_name("INSERT $data IN " + long_name, long_name, "max_length", 17);
}

TEST(ParseStatement, SixtyFourCharacterCollectionIsAccepted) {
  const std::string name(64, 'z');
  expect_parsed("INSERT $data IN " + name, name, "data");
  expect_parsed("INSERT INTO " + name + " VALUES $data;", name, "data");
}

// ---- the query as a whole ---------------------------------------------------------------------

TEST(ParseStatement, EmptyQueryIsRefused) {
  for (const std::string query : {"", " ", "\n\t\r\n  "}) {
    const Status status = parse_statement(query).status();
    ASSERT_FALSE(status.is_ok());
    EXPECT_EQ(status.code(), "VALIDATION_ERROR");
    EXPECT_EQ(status.message(), "field 'query' must not be empty");
    EXPECT_EQ(status.details(), json({{"field", "query"}}));
  }
}

TEST(ParseStatement, QueryLengthIsLimited) {
  std::string query = "INSERT $data IN things";
  query.resize(kMaxQueryBytes, ' ');
  expect_parsed(query, "things", "data");

  query.push_back(' ');
  const Status status = parse_statement(query).status();
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.message(), "field 'query' must be at most 4096 bytes");
  EXPECT_EQ(status.details(), json({{"field", "query"}, {"max", 4096}, {"size", 4097}}));
}

TEST(ParseStatement, NulBytesAreNotWhitespace) {
  expect_syntax_error(std::string("INSERT $data IN things \0", 24), 24, "end of statement");
  expect_syntax_error(std::string("\0INSERT $data IN things", 23), 1, "INSERT");
}

// ---- binding ----------------------------------------------------------------------------------

const InsertStatement kStatement{"things", "data"};

void expect_bind_error(const json& variables, const std::string& message, const json& details) {
  SCOPED_TRACE("variables: " + variables.dump());
  const Status status = bind_statement_data(kStatement, variables).status();
  ASSERT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), "VALIDATION_ERROR");
  EXPECT_EQ(status.message(), message);
  EXPECT_EQ(status.details(), details);
}

TEST(BindStatementData, ObjectIsTheDocument) {
  const json variables = {{"data", {{"name", "a"}, {"n", 1}}}, {"other", 2}};
  const auto data = bind_statement_data(kStatement, variables);
  ASSERT_TRUE(data) << data.status().to_string();
  EXPECT_EQ(*data, json({{"name", "a"}, {"n", 1}}));
}

TEST(BindStatementData, EmptyObjectIsADocument) {
  const auto data = bind_statement_data(kStatement, {{"data", json::object()}});
  ASSERT_TRUE(data) << data.status().to_string();
  EXPECT_EQ(*data, json::object());
}

TEST(BindStatementData, ArrayOfObjectsIsTheDocuments) {
  const json documents = json::array({{{"a", 1}}, json::object(), {{"b", {1, 2}}}});
  const auto data = bind_statement_data(kStatement, {{"data", documents}});
  ASSERT_TRUE(data) << data.status().to_string();
  EXPECT_EQ(*data, documents);
}

TEST(BindStatementData, UsesTheStatementsVariable) {
  const auto parsed = parse_statement("INSERT INTO things VALUES $rows");
  ASSERT_TRUE(parsed);
  const auto data = bind_statement_data(*parsed, {{"data", {{"x", 1}}}, {"rows", {{"y", 2}}}});
  ASSERT_TRUE(data) << data.status().to_string();
  EXPECT_EQ(*data, json({{"y", 2}}));
}

TEST(BindStatementData, VariablesMustBeAnObject) {
  for (const json& variables :
       {json(nullptr), json::array({{{"data", 1}}}), json("data"), json(1)}) {
    expect_bind_error(variables, "field 'variables' must be an object", {{"field", "variables"}});
  }
}

TEST(BindStatementData, VariableMustBeGiven) {
  expect_bind_error(json::object(), "variable '$data' is not given in 'variables'",
                    {{"variable", "data"}});
  expect_bind_error({{"Data", json::object()}}, "variable '$data' is not given in 'variables'",
                    {{"variable", "data"}});
}

TEST(BindStatementData, ValueMustBeAnObjectOrANonEmptyArrayOfObjects) {
  const std::string message = "variable '$data' must be an object or a non-empty array of objects";
  for (const json& value : {json(nullptr), json("x"), json(1), json(true), json::array()}) {
    expect_bind_error({{"data", value}}, message, {{"variable", "data"}});
  }
  expect_bind_error({{"data", json::array({json::object(), 1})}}, message,
                    {{"variable", "data"}, {"index", 1}});
  expect_bind_error({{"data", json::array({json::array({json::object()})})}}, message,
                    {{"variable", "data"}, {"index", 0}});
}

}  // namespace
}  // namespace opbase::collection
