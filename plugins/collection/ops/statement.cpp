#include "ops/statement.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include "opbase/collection_name.hpp"
#include "opbase/field_error.hpp"

namespace opbase::collection {
namespace {

// First words of statements this parser does not take (X-SQL, AQL and SQL alike).
constexpr std::string_view kOtherStatements[] = {
    "ALTER", "BEGIN",   "CALL",     "COLLECT", "COMMIT", "CREATE",   "DELETE", "DESCRIBE",
    "DROP",  "EXECUTE", "EXPLAIN",  "FILTER",  "FOR",    "GRANT",    "LET",    "LIMIT",
    "MERGE", "REMOVE",  "REPLACE",  "RETURN",  "REVOKE", "ROLLBACK", "SELECT", "SET",
    "SHOW",  "SORT",    "TRUNCATE", "UPDATE",  "UPSERT", "WITH"};

// Words that, after INTO <collection> or after a complete INSERT, show another shape of insert.
constexpr std::string_view kOtherInsertClauses[] = {"DEFAULT", "FILTER",  "FOR",    "LET",
                                                    "ON",      "OPTIONS", "RETURN", "RETURNING",
                                                    "SELECT",  "SET",     "WITH"};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
char to_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

std::string upper(std::string_view word) {
  std::string out(word);
  std::transform(out.begin(), out.end(), out.begin(), to_upper);
  return out;
}

// `word` equals the upper-case `keyword`, ignoring ASCII case.
bool is_keyword(std::string_view word, std::string_view keyword) {
  return word.size() == keyword.size() &&
         std::equal(word.begin(), word.end(), keyword.begin(),
                    [](char a, char b) { return to_upper(a) == b; });
}

template <std::size_t N>
bool is_one_of(std::string_view word, const std::string_view (&keywords)[N]) {
  return std::any_of(std::begin(keywords), std::end(keywords),
                     [word](std::string_view keyword) { return is_keyword(word, keyword); });
}

// A single-pass parser over the query's bytes; pos_ is the byte offset of the next token.
class Parser {
 public:
  explicit Parser(std::string_view query) : query_(query) {}

  Result<InsertStatement> parse() {
    skip_space();
    const std::string_view first = peek_word();
    if (!is_keyword(first, "INSERT")) {
      if (is_one_of(first, kOtherStatements)) return unsupported(upper(first));
      return syntax_error("INSERT");
    }
    pos_ += first.size();
    skip_space();

    InsertStatement statement;
    if (peek() == '$') {  // INSERT $variable IN collection
      if (auto status = read_variable(statement.variable); !status) return status;
      if (auto status = expect_keyword("IN"); !status) return status;
      if (auto status = read_collection(statement.collection); !status) return status;
    } else if (accept_keyword("INTO")) {  // INSERT INTO collection VALUES $variable
      if (auto status = read_collection(statement.collection); !status) return status;
      skip_space();
      if (peek() == '(' || is_one_of(peek_word(), kOtherInsertClauses)) {
        return unsupported("INSERT");
      }
      if (auto status = expect_keyword("VALUES"); !status) return status;
      skip_space();
      if (is_literal_start(peek())) return unsupported("INSERT");
      if (peek() != '$') return syntax_error("$variable");
      if (auto status = read_variable(statement.variable); !status) return status;
    } else if (is_literal_start(peek())) {
      return unsupported("INSERT");
    } else {
      return syntax_error("$variable or INTO");
    }

    skip_space();
    if (is_one_of(peek_word(), kOtherInsertClauses)) return unsupported("INSERT");
    if (peek() == ';') ++pos_;
    skip_space();
    if (pos_ != query_.size()) return syntax_error("end of statement");
    return statement;
  }

 private:
  // '\0' at the end, which no rule accepts.
  char peek() const { return pos_ < query_.size() ? query_[pos_] : '\0'; }

  void skip_space() {
    while (pos_ < query_.size() && is_space(query_[pos_])) ++pos_;
  }

  // The run of identifier characters at pos_; empty when there is none.
  std::string_view peek_word() const {
    std::size_t end = pos_;
    while (end < query_.size() && is_ident_char(query_[end])) ++end;
    return query_.substr(pos_, end - pos_);
  }

  // A document literal, a row or a bind parameter: another language's way to give the data.
  static bool is_literal_start(char c) { return c == '{' || c == '[' || c == '(' || c == '@'; }

  bool accept_keyword(std::string_view keyword) {
    const std::string_view word = peek_word();
    if (!is_keyword(word, keyword)) return false;
    pos_ += word.size();
    return true;
  }

  Status expect_keyword(std::string_view keyword) {
    skip_space();
    return accept_keyword(keyword) ? Status::ok() : syntax_error(keyword);
  }

  // At '$': the identifier after it.
  Status read_variable(std::string& variable) {
    ++pos_;
    if (!is_ident_start(peek())) return syntax_error("variable name");
    variable = peek_word();
    pos_ += variable.size();
    return Status::ok();
  }

  // The next token up to whitespace, ';' or '(' must be a valid collection name.
  Status read_collection(std::string& collection) {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < query_.size() && !is_space(query_[pos_]) && query_[pos_] != ';' &&
           query_[pos_] != '(') {
      ++pos_;
    }
    if (pos_ == start) return syntax_error("collection name");
    const std::string_view name = query_.substr(start, pos_ - start);
    Status status = check_collection_name(name);
    if (!status) {
      nlohmann::json details = status.details();
      details["position"] = position(start);
      return Status(status.code(), status.message(), std::move(details));
    }
    collection = name;
    return Status::ok();
  }

  // The 1-based character position of byte offset `offset`. Every byte the parser accepts before
  // an error is ASCII (a name with other bytes fails at its start), so bytes count characters.
  static std::size_t position(std::size_t offset) { return offset + 1; }

  Status syntax_error(std::string_view expected) const {
    const std::size_t at = position(pos_);
    return Status::validation(
        "syntax error at position " + std::to_string(at) + ": expected " + std::string(expected),
        {{"position", at}, {"expected", expected}});
  }

  Status unsupported(std::string statement) const {
    return Status::validation("statement not supported",
                              {{"statement", std::move(statement)}, {"position", position(pos_)}});
  }

  std::string_view query_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<InsertStatement> parse_statement(std::string_view query) {
  if (query.size() > kMaxQueryBytes) {
    return field_error("query",
                       "field 'query' must be at most " + std::to_string(kMaxQueryBytes) + " bytes",
                       {{"max", kMaxQueryBytes}, {"size", query.size()}});
  }
  if (std::all_of(query.begin(), query.end(), is_space)) {
    return field_error("query", "field 'query' must not be empty");
  }
  return Parser(query).parse();
}

Result<nlohmann::json> bind_statement_data(const InsertStatement& statement,
                                           const nlohmann::json& variables) {
  if (!variables.is_object()) {
    return field_error("variables", "field 'variables' must be an object");
  }
  const std::string name = "$" + statement.variable;
  const auto found = variables.find(statement.variable);
  if (found == variables.end()) {
    return Status::validation("variable '" + name + "' is not given in 'variables'",
                              {{"variable", statement.variable}});
  }
  const nlohmann::json& value = *found;
  if (value.is_object()) return value;
  const auto wrong_shape = [&](nlohmann::json details) {
    return Status::validation(
        "variable '" + name + "' must be an object or a non-empty array of objects",
        std::move(details));
  };
  if (!value.is_array() || value.empty()) return wrong_shape({{"variable", statement.variable}});
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_object()) return wrong_shape({{"variable", statement.variable}, {"index", i}});
  }
  return value;
}

}  // namespace opbase::collection
