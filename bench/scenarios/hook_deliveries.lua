-- scenario: hook_deliveries
-- measures: inserts with a webhook endpoint whose receiver answers at once, then (its report
--           hook, after the tables) what the receiver sees: deliveries per second, and the
--           latency from an op's answer to the delivery's receipt, beside the receiver's own
--           ceiling. Run it alone (the endpoint stays for every scenario of a run):
--           BENCH_SCENARIOS=hook_deliveries make bench, or bench/webhooks.sh.
-- plugins: collection, auth, webhooks
-- set: webhooks.allow_private_targets=true
-- setup: hook_deliveries.setup.sh signs user "hooks" up, starts the receiver, makes the endpoint
-- report: hook_deliveries.report.sh
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{"op":"collection.insert","collection":"hooked","data":{"name":"one","n":1}}', "hooks")
bench.expect_body = '"_key":'
