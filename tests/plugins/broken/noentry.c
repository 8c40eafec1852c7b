/* noentry: a real shared object without the entry symbol the host looks for. Its author forgot
 * OPBASE_EXPORT, so the visibility preset hides opbase_plugin_entry, and exported a misspelled
 * name instead. Expected refusal: "no entry point opbase_plugin_entry in shared library". */
#include "test_plugin.h"

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin); /* never runs */
  return OPBASE_RC_OK;
}

TEST_PLUGIN_DESCRIPTOR(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, TEST_PLUGIN_NAME, "1.0.0", init,
                       lifecycle_shutdown);

/* Hidden: not in the dynamic symbol table. */
const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }

/* Exported, but not the name the host asks for. */
OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry_point(void) {
  return &descriptor;
}
