-- scenario: vdb_search_vector
-- measures: vdb.search with a given vector (1536 numbers by default, ~20 KB a body; base64 of
--           the float32 values, ~8 KB, with BENCH_VDB_VECTOR_FORMAT=base64), limit 10, over one
--           user's 100,000 records among 300,000: the token check, the body's parse, the hop to
--           the vdb lane, the HNSW graph's search (ef 200), the ten records read back from the
--           store and scored again, the answer. Not a static request: each thread
--           cycles through the 200 query vectors vdb_bench wrote (a Lua request() returning
--           requests built once in init(), which costs wrk little beside a 20 KB body).
--           Run by bench/vdb.sh (make bench-vdb), which loads the records first; not listed in
--           scenarios.txt.
-- plugins: auth, ai, vdb
-- setup: bench/vdb.sh signs u0..u2 up, inserts their records and writes the bodies to
--        state/vdb-vector-queries.jsonl
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{}', "u0")  -- the path and headers; the bodies come from the file below
bench.expect_body = '"count":10'

bench.cycle_bodies("vdb-vector-queries.jsonl")
