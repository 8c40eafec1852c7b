-- scenario: ins_one_slow_hook
-- measures: ins_one with a webhook endpoint whose receiver sleeps a second before each answer:
--           every insert queues a message for it, and the delivery threads are all held up. The
--           ops that raise the events must not slow down (issue 5): compare with
--           ins_one_journaled (webhooks loaded, no endpoint), run alone in its own `make bench`
--           because the endpoint stays for every scenario of a run. bench/webhooks.sh runs both.
-- plugins: collection, auth, webhooks
-- set: webhooks.allow_private_targets=true
-- setup: ins_one_slow_hook.setup.sh signs u1 up and in, starts the receiver, makes the endpoint
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.insert","collection":"bench_ins","data":{"name":"one","n":1,"tags":["a","b"]}}', "u1")
bench.expect_body = '"_key":'
