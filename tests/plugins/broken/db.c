/* db: a plugin named after collection's alias area. Expected: refused by its name, before its
 * init runs ("'db' is the alias area of the collection plugin; no plugin may take that name"),
 * so it can never take db.find from the collection plugin. Were its init to run, it would
 * register db.stats and then db.find, answering OPBASE_RC_ERROR when refused. */
#include "test_plugin.h"

static const opbase_host_api* g_host;

static opbase_rc answer(void* state, const opbase_request* request, opbase_response* response) {
  (void)state;
  (void)request;
  return answer_plugin_name(g_host, response);
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  g_host = host;
  lifecycle_init(host, plugin);
  if (host->register_op(plugin, lit("db.stats"), OPBASE_ACCESS_API_KEY, answer, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  if (host->register_op(plugin, lit("db.find"), OPBASE_ACCESS_API_KEY, answer, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  return OPBASE_RC_OK;
}

static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),
                                                    OPBASE_ABI_MAJOR,
                                                    OPBASE_ABI_MINOR,
                                                    TEST_PLUGIN_NAME,
                                                    "1.0.0",
                                                    init,
                                                    lifecycle_shutdown};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
