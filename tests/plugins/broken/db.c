/* db: a plugin named after collection's alias area. Expected: refused by its name, before its
 * init runs ("'db' is the alias area of the collection plugin; no plugin may take that name"),
 * so it can never take db.find from the collection plugin. Were its init to run, it would
 * register db.stats and then db.find, answering OPBASE_RC_ERROR when refused. */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin);
  if (host->register_op(plugin, lit("db.stats"), OPBASE_ACCESS_API_KEY, answer_plugin_name, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  if (host->register_op(plugin, lit("db.find"), OPBASE_ACCESS_API_KEY, answer_plugin_name, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  return OPBASE_RC_OK;
}

TEST_PLUGIN(init);
