/* nulldesc: the entry symbol exists but answers NULL. Expected: refused with "the entry point
 * answered no descriptor". */
#include <opbase/abi.h>
#include <stddef.h>

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return NULL; }
