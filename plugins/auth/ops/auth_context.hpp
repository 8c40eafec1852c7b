// What one auth op call works with, fixed at its start: the project, the time, the project's
// settings and its code secret. Private to the auth plugin's op files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ops/auth_service.hpp"
#include "settings.hpp"

namespace opbase::auth {

struct AuthService::Context {
  std::string project;
  int64_t now_ms = 0;
  std::shared_ptr<const AuthSettings> settings;
  std::string code_secret;
};

}  // namespace opbase::auth
