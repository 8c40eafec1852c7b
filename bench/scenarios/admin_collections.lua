-- scenario: admin_collections
-- measures: collection.admin.list with the server admin key: every collection with its
--           documents counted in each of three states (admin_docs holds 100,000).
-- plugins: auth, collection
-- set: auth.argon2.t_cost=1
-- set: auth.argon2.m_cost_kib=64
-- set: auth.argon2.parallelism=1
-- setup: admin_collections.setup.sh seeds 100,000 accounts (cheap password hashing, so seeding takes
--        a minute; never run beside the signin scenario) and 100,000 documents
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.admin_call('{"op":"collection.admin.list"}')
bench.expect_body = '"active":100000'
