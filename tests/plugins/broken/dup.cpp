// dup: a C++ SDK plugin that registers dup.x twice in its own init. The SDK returns
// OPBASE_RC_ERROR from init when a registration was refused. Expected: refused with
// "init failed (returned 1) after: op 'dup.x' is already registered by plugin 'dup'", and the
// first dup.x is rolled back too.
#include <opbase/plugin.hpp>

namespace {

class Dup : public opbase::Plugin {
  opbase::Status init(opbase::Registrar& r) override {
    // Never called: the plugin is refused before it serves anything.
    const auto answer = [](const opbase::Request&) -> opbase::Result<opbase::Reply> {
      return opbase::Status::internal("dup serves nothing");
    };
    r.op("dup.x", opbase::Access::kApiKey, answer);
    r.op("dup.x", opbase::Access::kApiKey, answer);
    return r.status();
  }
};

}  // namespace

OPBASE_PLUGIN(Dup, "dup", "1.0.0")
