/* incomplete: a descriptor without an init function. Expected: refused with "the descriptor is
 * incomplete". */
#include "test_plugin.h"

static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),
                                                    OPBASE_ABI_MAJOR,
                                                    OPBASE_ABI_MINOR,
                                                    TEST_PLUGIN_NAME,
                                                    "1.0.0",
                                                    NULL,
                                                    lifecycle_shutdown};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
