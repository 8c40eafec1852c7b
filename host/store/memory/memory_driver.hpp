// The memory driver: the reference DocumentStore, built on the query evaluator of query.hpp.
#pragma once

#include "store/document_store.hpp"

namespace opbase::host {

class MemoryDriver : public StoreDriver {
 public:
  std::string_view name() const override { return "memory"; }
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;
};

}  // namespace opbase::host
