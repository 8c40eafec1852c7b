/* hello_c: an op plugin in plain C against abi.h alone — no SDK library, no C++.
 *   hello_c.hello  answers {"hello": "world", "project": "<project id>"}   (API key only)
 *   hello_c.fail   answers the error VALIDATION_ERROR with details {"field": "nothing"}
 */
#include <opbase/abi.h>
#include <stdio.h>
#include <string.h>

static const opbase_host_api* g_host;

static opbase_str lit(const char* s) {
  opbase_str out = {s, strlen(s)};
  return out;
}

static opbase_rc hello(void* state, const opbase_request* req, opbase_response* resp) {
  (void)state;
  char json[256];
  /* Project ids are letters, digits, '_' and '-', so they need no JSON escaping. */
  int n = snprintf(json, sizeof json, "{\"hello\":\"world\",\"project\":\"%.*s\"}",
                   (int)req->project_id.len, req->project_id.ptr);
  if (n < 0 || (size_t)n >= sizeof json) return OPBASE_RC_ERROR;
  opbase_str data = {json, (size_t)n};
  return g_host->respond(resp, OPBASE_PART_DATA, data);
}

static opbase_rc fail(void* state, const opbase_request* req, opbase_response* resp) {
  (void)state;
  (void)req;
  g_host->respond_error(resp, lit("VALIDATION_ERROR"), lit("hello_c.fail always fails"),
                        lit("{\"field\":\"nothing\"}"), 0);
  return OPBASE_RC_ERROR;
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  *state = NULL;
  g_host = host;
  if (host->register_op(plugin, lit("hello_c.hello"), OPBASE_ACCESS_API_KEY, hello, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  if (host->register_op(plugin, lit("hello_c.fail"), OPBASE_ACCESS_API_KEY, fail, NULL) !=
      OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  host->log(plugin, OPBASE_LOG_INFO, lit("hello from C"));
  return OPBASE_RC_OK;
}

static const opbase_plugin_descriptor descriptor = {sizeof(opbase_plugin_descriptor),
                                                    OPBASE_ABI_MAJOR,
                                                    OPBASE_ABI_MINOR,
                                                    "hello_c",
                                                    "1.0.0",
                                                    init,
                                                    NULL};

OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) { return &descriptor; }
