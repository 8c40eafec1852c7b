/* misnamed: the file is misnamed.so but its descriptor says "someone_else". Expected: refused
 * before init with "the file's plugin calls itself 'someone_else'". */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin); /* must never run */
  return OPBASE_RC_OK;
}

TEST_PLUGIN_DESCRIPTOR(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, "someone_else", "1.0.0", init,
                       lifecycle_shutdown);
TEST_PLUGIN_ENTRY()
