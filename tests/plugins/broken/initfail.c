/* initfail: registers an op, a service and a subscription, then its init answers
 * OPBASE_RC_ERROR (1). Expected: refused with "init failed (answered 1)", and none of the three
 * stays registered; its shutdown is never called (abi.h: a failed init gets no shutdown).
 * Should one of the three registrations be refused, init answers OPBASE_RC_REFUSED (2) instead,
 * so "answered 1" also proves the host had accepted all three before rolling them back. */
#include "test_plugin.h"

static opbase_rc first(void* state, const opbase_request* request, opbase_response* response) {
  (void)state;
  (void)request;
  (void)response;
  return OPBASE_RC_OK;
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  lifecycle_init(host, plugin);
  /* Each of these is accepted; the failure comes after them. */
  if (host->register_op(plugin, lit("initfail.first"), OPBASE_ACCESS_API_KEY, first, NULL) !=
          OPBASE_RC_OK ||
      host->provide_service(plugin, lit("initfail.svc"), idle_service, NULL) != OPBASE_RC_OK ||
      host->subscribe(plugin, lit("test.*"), idle_event_handler, NULL) != OPBASE_RC_OK) {
    /* Not the planned failure: answer another code, so the test can tell. */
    return OPBASE_RC_REFUSED;
  }
  host->log(plugin, OPBASE_LOG_ERROR, lit("initfail fails its init on purpose"));
  return OPBASE_RC_ERROR;
}

TEST_PLUGIN(init);
