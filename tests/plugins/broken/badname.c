/* badname: file and descriptor agree on the name "Bad_Name", which is not a valid area name
 * (lowercase only). Expected: refused before init with "a plugin name is 1-32 lowercase
 * letters, digits and '_'". */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin); /* must never run */
  return OPBASE_RC_OK;
}

TEST_PLUGIN(init);
