// The administrators' ops on collection rules (docs/api.md#collection-rules):
// collection.rules.get and collection.rules.update. Thread-safety: handlers run concurrently.
#pragma once

#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "rules/rule_book.hpp"

namespace opbase::collection {

class RulesOps {
 public:
  RulesOps(const Host& host, const RuleBook& rules) : host_(host), rules_(rules) {}

  // {collection} -> {collection, rules}: all four actions, set or default.
  Result<Reply> get(const Request& request) const;
  // {collection, rules: {read?, create?, update?, delete?}} -> as get, after the change.
  Result<Reply> update(const Request& request) const;

 private:
  const Host& host_;
  const RuleBook& rules_;
};

}  // namespace opbase::collection
