/* good: a well-behaved plugin, loaded beside the broken ones to show they do not disturb it.
 * Built twice from this source, as "good" and "good2" (TEST_PLUGIN_NAME), so a test can load one
 * before and one after a broken plugin and see the shutdown order.
 *
 *   <name>.ping  (API key)  answers {"pong":true,"plugin":"<name>","events":N,"strays":M,
 *                                    "body":<the request body>}
 *   <name>.svc   service    answers {"plugin":"<name>","project":"<project id>","input":<input>}
 *   subscribes to "test.*": N counts the events delivered; M counts delivered events whose type
 *   does not start with "test." (the bus must never deliver those, so M stays 0).
 *
 * Every callback checks it got back the state pointer it registered, and answers an error when
 * not. Records "init <name>" / "shutdown <name>" in the lifecycle log (test_plugin.h).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "test_plugin.h"

static atomic_long g_events;
static atomic_long g_strays;

/* Distinct addresses handed to the host as state, checked when it hands them back. */
static int g_plugin_state;
static int g_ping_state;
static int g_svc_state;
static int g_event_state;

static opbase_rc wrong_state(opbase_response* response) {
  g_host->respond_error(response, lit("INTERNAL_ERROR"),
                        lit(TEST_PLUGIN_NAME " got back a state pointer it never registered"),
                        lit(""), 0);
  return OPBASE_RC_ERROR;
}

static opbase_rc ping(void* state, const opbase_request* request, opbase_response* response) {
  if (state != &g_ping_state) return wrong_state(response);
  const size_t size = request->body.len + 256;
  char* json = malloc(size);
  if (json == NULL) return OPBASE_RC_ERROR;
  const int n = snprintf(json, size,
                         "{\"pong\":true,\"plugin\":\"" TEST_PLUGIN_NAME
                         "\",\"events\":%ld,\"strays\":%ld,\"body\":%.*s}",
                         atomic_load(&g_events), atomic_load(&g_strays), (int)request->body.len,
                         request->body.ptr);
  opbase_rc rc = OPBASE_RC_ERROR;
  if (n > 0 && (size_t)n < size) {
    opbase_str data = {json, (size_t)n};
    rc = g_host->respond(response, OPBASE_PART_DATA, data);
  }
  free(json);
  return rc;
}

static opbase_rc svc(void* state, opbase_str project_id, opbase_str input,
                     opbase_response* response) {
  if (state != &g_svc_state) return wrong_state(response);
  const size_t size = input.len + project_id.len + 128;
  char* json = malloc(size);
  if (json == NULL) return OPBASE_RC_ERROR;
  /* Test project ids need no JSON escaping. */
  const int n = snprintf(
      json, size, "{\"plugin\":\"" TEST_PLUGIN_NAME "\",\"project\":\"%.*s\",\"input\":%.*s}",
      (int)project_id.len, project_id.ptr, (int)input.len, input.ptr);
  opbase_rc rc = OPBASE_RC_ERROR;
  if (n > 0 && (size_t)n < size) {
    opbase_str data = {json, (size_t)n};
    rc = g_host->respond(response, OPBASE_PART_DATA, data);
  }
  free(json);
  return rc;
}

static void on_event(void* state, const opbase_event* event) {
  const int matches =
      state == &g_event_state && event->type.len >= 5 && memcmp(event->type.ptr, "test.", 5) == 0;
  atomic_fetch_add(matches ? &g_events : &g_strays, 1);
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  atomic_store(&g_events, 0);
  atomic_store(&g_strays, 0);
  lifecycle_init(host, plugin);
  if (host->register_op(plugin, lit(TEST_PLUGIN_NAME ".ping"), OPBASE_ACCESS_API_KEY, ping,
                        &g_ping_state) != OPBASE_RC_OK ||
      host->provide_service(plugin, lit(TEST_PLUGIN_NAME ".svc"), svc, &g_svc_state) !=
          OPBASE_RC_OK ||
      host->subscribe(plugin, lit("test.*"), on_event, &g_event_state) != OPBASE_RC_OK) {
    return OPBASE_RC_ERROR;
  }
  *state = &g_plugin_state;
  return OPBASE_RC_OK;
}

static void plugin_shutdown(void* state) {
  lifecycle_note(state == &g_plugin_state ? "shutdown" : "shutdown-with-wrong-state");
}

TEST_PLUGIN_DESCRIPTOR(OPBASE_ABI_MAJOR, OPBASE_ABI_MINOR, TEST_PLUGIN_NAME, "1.2.3", init,
                       plugin_shutdown);
TEST_PLUGIN_ENTRY()
