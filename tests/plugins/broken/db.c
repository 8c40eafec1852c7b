/* db: a plugin named after collection's alias area. Registers db.stats (free), then db.find,
 * which the collection plugin loaded before it already owns through the alias; like a careful
 * plugin it answers OPBASE_RC_ERROR when a registration is refused. Expected: refused with
 * "init failed (answered 1) after: op 'db.find' is already registered by plugin 'collection'";
 * db.stats is rolled back while collection's db.find stays. */
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

static const opbase_plugin_descriptor descriptor = {
    sizeof(opbase_plugin_descriptor), OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, TEST_PLUGIN_NAME,
    "1.0.0", init, lifecycle_shutdown};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
