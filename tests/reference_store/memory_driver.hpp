// The memory driver: the reference DocumentStore, built only on the query evaluator of query.hpp
// (matches, compare_for_sort) and the change semantics of store.hpp (apply_change). It is the
// oracle the conformance suite (tests/unit/host/store/store_conformance_test.cpp) holds the sqlite
// and mongodb drivers to, so it favours obviousness over speed: every call scans the project's
// documents. Tests only; not selectable in the configuration. Nothing is durable.
//
// Orders the contract leaves to the driver, fixed here so every driver returns alike:
//  - update: the steps in request order; within a step, the documents it changed in `_key`
//    ascending order;
//  - change_state / restore: the keys in `_key` ascending order.
//
// Thread-safety: every method may be called from any thread; one std::shared_mutex per project
// (finds and counts share it, writes hold it alone). open() returns the same store for the same
// project id for the life of the driver object.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "store/project_store.hpp"

namespace opbase::host {

class MemoryDriver : public StoreDriver {
 public:
  std::string_view name() const override { return "memory"; }
  Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) override;

 private:
  std::mutex mutex_;  // guards projects_
  std::map<std::string, std::shared_ptr<ProjectStore>, std::less<>> projects_;
};

}  // namespace opbase::host
