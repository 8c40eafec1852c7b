/* late: loads fine, but tries to register more after init, which the host must refuse.
 *   late.register_now          tries register_op, provide_service and subscribe from the
 *                              request thread and answers their codes: {"op":R,"service":R,
 *                              "subscribe":R} (OPBASE_RC_REFUSED is 2)
 *   late.register_from_thread  the same, from a thread it starts and joins
 * The names it tries (late.sneak, late.sneak_svc, "test.*") must never appear in the host. */
#include <pthread.h>

#include "test_plugin.h"

static opbase_plugin* g_plugin;

struct attempt {
  opbase_rc op, service, subscribe;
};

static void try_register(struct attempt* out) {
  out->op = g_host->register_op(g_plugin, lit("late.sneak"), OPBASE_ACCESS_API_KEY,
                                answer_plugin_name, NULL);
  out->service = g_host->provide_service(g_plugin, lit("late.sneak_svc"), idle_service, NULL);
  out->subscribe = g_host->subscribe(g_plugin, lit("test.*"), idle_event_handler, NULL);
}

static opbase_rc answer_attempt(const struct attempt* a, opbase_response* response) {
  char json[96];
  const int n = snprintf(json, sizeof json, "{\"op\":%d,\"service\":%d,\"subscribe\":%d}",
                         (int)a->op, (int)a->service, (int)a->subscribe);
  opbase_str data = {json, (size_t)n};
  return g_host->respond(response, OPBASE_PART_DATA, data);
}

static opbase_rc register_now(void* state, const opbase_request* request,
                              opbase_response* response) {
  (void)state;
  (void)request;
  struct attempt a;
  try_register(&a);
  return answer_attempt(&a, response);
}

static void* thread_main(void* arg) {
  try_register((struct attempt*)arg);
  return NULL;
}

static opbase_rc register_from_thread(void* state, const opbase_request* request,
                                      opbase_response* response) {
  (void)state;
  (void)request;
  struct attempt a = {OPBASE_RC_OK, OPBASE_RC_OK, OPBASE_RC_OK};
  pthread_t thread;
  if (pthread_create(&thread, NULL, thread_main, &a) != 0) return OPBASE_RC_ERROR;
  pthread_join(thread, NULL);
  return answer_attempt(&a, response);
}

static opbase_rc init(const opbase_host_api* host, opbase_plugin* plugin, void** state) {
  (void)state;
  g_plugin = plugin;
  lifecycle_init(host, plugin);
  if (host->register_op(plugin, lit("late.register_now"), OPBASE_ACCESS_API_KEY, register_now,
                        NULL) != OPBASE_RC_OK ||
      host->register_op(plugin, lit("late.register_from_thread"), OPBASE_ACCESS_API_KEY,
                        register_from_thread, NULL) != OPBASE_RC_OK)
    return OPBASE_RC_ERROR;
  return OPBASE_RC_OK;
}

TEST_PLUGIN(init);
