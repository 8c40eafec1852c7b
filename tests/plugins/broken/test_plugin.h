/* Helpers shared by the loader-test plugins of this folder (plain C, against abi.h alone).
 *
 * Each plugin is its own shared object with hidden symbols, so the statics below are per plugin.
 * A plugin names itself with TEST_PLUGIN_NAME (a compile definition the CMake file sets).
 *
 * Lifecycle log: when the configuration key `tests.lifecycle_log` names a file, plugins append
 * "init <name>" when their init runs and "shutdown <name>" when their shutdown runs, one line
 * each. plugin_loader_test.cpp reads it to see which of init/shutdown ran, and in which order.
 * Only the loading thread writes it (init and shutdown run alone), so no locking is needed.
 */
#ifndef OPBASE_TEST_PLUGIN_H
#define OPBASE_TEST_PLUGIN_H

#include <opbase/abi.h>
#include <stdio.h>
#include <string.h>

#ifndef TEST_PLUGIN_NAME
#error "TEST_PLUGIN_NAME must be defined by the build"
#endif

#define TEST_LIFECYCLE_LOG_KEY "tests.lifecycle_log"

/* The lifecycle log path, read from the configuration during init. Empty: do not record. */
static char g_lifecycle_log[1024];

/* The host's function table, kept by lifecycle_init for the plugin's handlers. */
static const opbase_host_api* g_host;

static inline opbase_str lit(const char* s) {
  opbase_str out = {s, strlen(s)};
  return out;
}

static inline void keep_lifecycle_path(void* ctx, opbase_str value) {
  (void)ctx;
  if (value.len < sizeof g_lifecycle_log) {
    memcpy(g_lifecycle_log, value.ptr, value.len);
    g_lifecycle_log[value.len] = '\0';
  }
}

/* Appends "<what> <TEST_PLUGIN_NAME>" to the lifecycle log, if one is configured. */
static inline void lifecycle_note(const char* what) {
  if (g_lifecycle_log[0] == '\0') return;
  FILE* f = fopen(g_lifecycle_log, "a");
  if (f == NULL) return;
  fprintf(f, "%s %s\n", what, TEST_PLUGIN_NAME);
  fclose(f);
}

/* Call first thing in init: keeps `host` in g_host, finds the lifecycle log and notes
 * "init <name>". */
static inline void lifecycle_init(const opbase_host_api* host, opbase_plugin* plugin) {
  g_host = host;
  g_lifecycle_log[0] = '\0';
  host->config_get(plugin, lit(TEST_LIFECYCLE_LOG_KEY), keep_lifecycle_path, NULL);
  lifecycle_note("init");
}

/* A shutdown that only notes "shutdown <name>": for plugins whose shutdown must (or must not)
 * be called. */
static inline void lifecycle_shutdown(void* state) {
  (void)state;
  lifecycle_note("shutdown");
}

/* An op handler that answers {"plugin":"<name>"}. */
static inline opbase_rc answer_plugin_name(void* state, const opbase_request* request,
                                           opbase_response* response) {
  (void)state;
  (void)request;
  return g_host->respond(response, OPBASE_PART_DATA, lit("{\"plugin\":\"" TEST_PLUGIN_NAME "\"}"));
}

/* A service function that does nothing useful; registering it is the point. */
static inline opbase_rc idle_service(void* state, opbase_str project_id, opbase_str input,
                                     opbase_response* response) {
  (void)state;
  (void)project_id;
  (void)input;
  (void)response;
  return OPBASE_RC_OK;
}

/* An event handler that ignores the event; subscribing is the point. */
static inline void idle_event_handler(void* state, const opbase_event* event) {
  (void)state;
  (void)event;
}

/* The descriptor `descriptor` of this plugin, named TEST_PLUGIN_NAME, with the fields that the
 * individual tests vary (ABI version, name, init, shutdown). */
#define TEST_PLUGIN_DESCRIPTOR(abi_major, abi_minor, name, version, init_fn, shutdown_fn) \
  static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),   \
                                                      (abi_major),                        \
                                                      (abi_minor),                        \
                                                      (name),                             \
                                                      (version),                          \
                                                      (init_fn),                          \
                                                      (shutdown_fn)}

/* The exported entry point answering that descriptor. */
#define TEST_PLUGIN_ENTRY() \
  OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }

/* The usual case: this host's ABI, the plugin's own name, the lifecycle shutdown. */
#define TEST_PLUGIN(init_fn)                                                                       \
  TEST_PLUGIN_DESCRIPTOR(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, TEST_PLUGIN_NAME, "1.0.0", (init_fn), \
                         lifecycle_shutdown);                                                      \
  TEST_PLUGIN_ENTRY()

#endif /* OPBASE_TEST_PLUGIN_H */
