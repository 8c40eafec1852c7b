/* incomplete: a descriptor without an init function. Expected: refused with "the descriptor is
 * incomplete". */
#include "test_plugin.h"

TEST_PLUGIN_DESCRIPTOR(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, TEST_PLUGIN_NAME, "1.0.0", NULL,
                       lifecycle_shutdown);
TEST_PLUGIN_ENTRY()
