/* abi_too_new: claims to be built for ABI 1.999, a minor newer than any host speaks. Expected:
 * refused before init with "built for ABI 1.999, this host speaks <host ABI>". */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin); /* must never run */
  return OPBASE_RC_OK;
}

TEST_PLUGIN_DESCRIPTOR(1, 999, TEST_PLUGIN_NAME, "1.0.0", init, lifecycle_shutdown);
TEST_PLUGIN_ENTRY()
