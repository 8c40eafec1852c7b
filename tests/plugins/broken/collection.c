/* collection: a stand-in for the real collection area (it lives only in the test plugin folder).
 * Registers collection.find, which the host also binds as db.find; the test plugin "db" shows
 * that no plugin can take that alias area. */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin);
  return host->register_op(plugin, lit("collection.find"), OPBASE_ACCESS_USER, answer_plugin_name,
                           NULL) == OPBASE_RC_OK
             ? OPBASE_RC_OK
             : OPBASE_RC_ERROR;
}

TEST_PLUGIN(init);
