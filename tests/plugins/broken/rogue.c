/* rogue: registers its own rogue.ok, then tries to take echo.steal from another area, ignores
 * the refusal and answers OK from init. Expected: refused anyway with "op 'echo.steal' is outside
 * the area of plugin 'rogue'"; rogue.ok is rolled back; since init answered OK, the host calls
 * its shutdown (abi.h) before giving up on it. */
#include "test_plugin.h"

static const opbase_host_api* g_host;

static opbase_rc ok(void* state, const opbase_request* request, opbase_response* response) {
  (void)state;
  (void)request;
  return answer_plugin_name(g_host, response);
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  g_host = host;
  lifecycle_init(host, plugin);
  host->register_op(plugin, lit("rogue.ok"), OPBASE_ACCESS_API_KEY, ok, NULL);
  host->register_op(plugin, lit("echo.steal"), OPBASE_ACCESS_API_KEY, ok, NULL);
  return OPBASE_RC_OK; /* the refusal above is ignored on purpose */
}

static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),
                                                    OPBASE_ABI_MAJOR,
                                                    OPBASE_ABI_MINOR,
                                                    TEST_PLUGIN_NAME,
                                                    "1.0.0",
                                                    init,
                                                    lifecycle_shutdown};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
