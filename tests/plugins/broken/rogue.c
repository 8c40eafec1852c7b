/* rogue: registers its own rogue.ok, then tries to take echo.steal from another area, ignores
 * the refusal and answers OK from init. Expected: refused anyway with "op 'echo.steal' is outside
 * the area of plugin 'rogue'"; rogue.ok is rolled back; since init answered OK, the host calls
 * its shutdown (abi.h) before giving up on it. */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin);
  host->register_op(plugin, lit("rogue.ok"), OPBASE_ACCESS_API_KEY, answer_plugin_name, NULL);
  host->register_op(plugin, lit("echo.steal"), OPBASE_ACCESS_API_KEY, answer_plugin_name, NULL);
  return OPBASE_RC_OK; /* the refusal above is ignored on purpose */
}

TEST_PLUGIN(init);
