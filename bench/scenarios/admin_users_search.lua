-- scenario: admin_users_search
-- measures: auth.user.list with the server admin key, searching e-mails that start with "p4242"
--           among 100,000 accounts (11 match), with meta.total.
-- plugins: auth, collection
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: admin_users_search.setup.sh seeds 100,000 accounts (cheap password hashing, so seeding takes
--        a minute; never run beside the signin scenario) and 100,000 documents
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.admin_call('{"op":"auth.user.list","search":"p4242","limit":50}')
bench.expect_body = '"total":11'
