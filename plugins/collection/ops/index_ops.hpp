// The admin ops of the datastore's indexes and query plans (docs/api.md#indexes-and-query-plans):
// collection.index.list, collection.index.add, collection.index.drop and collection.explain.
// The store keeps the indexes (declared, automatic, an administrator's); these ops only show
// them, add or drop an administrator's, and say how a query is read.
// Thread-safety: stateless beyond construction; handlers may run concurrently.
#pragma once

#include "opbase/document_store.hpp"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/query.hpp"
#include "rules/rule_book.hpp"

namespace opbase::collection {

class IndexOps {
 public:
  // `user_query`: the parse options of users' queries, so explain reads a query as find does;
  // `rules`: the collections' rules, so it reads one user's query as their find does.
  IndexOps(const Host& host, query::ParseOptions user_query, const RuleBook& rules);

  Result<Reply> list(const Request& request);
  Result<Reply> add(const Request& request);
  Result<Reply> drop(const Request& request);
  Result<Reply> explain(const Request& request);

 private:
  const Host& host_;
  DocumentStore store_;
  query::ParseOptions user_query_;
  const RuleBook& rules_;
};

}  // namespace opbase::collection
