// Claims: which bytes of a text an earlier, surer finder has taken, so a later one skips them
// (an e-mail's domain is no URL, a date's digits no phone number, a person no place).
//
// Thread-safety: a plain value, one per extract() call.
#pragma once

#include <cstddef>
#include <vector>

#include "extract/found_entity.hpp"

namespace opbase::ai::extract {

class Claims {
 public:
  explicit Claims(size_t text_size) : taken_(text_size, false) {}
  bool any(size_t begin, size_t end) const {
    for (size_t i = begin; i < end && i < taken_.size(); ++i) {
      if (taken_[i]) return true;
    }
    return false;
  }
  void take(size_t begin, size_t end) {
    for (size_t i = begin; i < end && i < taken_.size(); ++i) taken_[i] = true;
  }
  void take_all(const std::vector<FoundEntity>& found) {
    for (const auto& entity : found) take(entity.begin, entity.end);
  }

 private:
  std::vector<bool> taken_;
};

}  // namespace opbase::ai::extract
