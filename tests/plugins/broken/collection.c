/* collection: a stand-in for the real collection area (it lives only in the test plugin folder).
 * Registers collection.find, which the host also binds as db.find; the test plugin "db" shows
 * that no plugin can take that alias area. */
#include "test_plugin.h"

static const opbase_host_api* g_host;

static opbase_rc find(void* state, const opbase_request* request, opbase_response* response) {
  (void)state;
  (void)request;
  return answer_plugin_name(g_host, response);
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  g_host = host;
  lifecycle_init(host, plugin);
  return host->register_op(plugin, lit("collection.find"), OPBASE_ACCESS_USER, find, NULL) ==
                 OPBASE_RC_OK
             ? OPBASE_RC_OK
             : OPBASE_RC_ERROR;
}

static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),
                                                    OPBASE_ABI_MAJOR,
                                                    OPBASE_ABI_MINOR,
                                                    TEST_PLUGIN_NAME,
                                                    "1.0.0",
                                                    init,
                                                    lifecycle_shutdown};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
