-- scenario: vdb_search_text
-- measures: vdb.search with a "query" text (8 to 16 English words), limit 10: vdb_search_vector
--           plus the text's embedding by the ai plugin's offline model (ai.embed: tokenising,
--           SIF-weighted word vectors mapped to 1536 dimensions, the vector handed back as JSON).
--           With 1536 dimensions it searches the same 100,000 records of u0 as
--           vdb_search_vector; with fewer (a quick try), the 1,000 embedded records of
--           collection bench_text. Not a static request: each thread cycles through 256 texts
--           (see vdb_search_vector). The model's share is not visible to wrk: bench/vdb.sh reads
--           meta.embedding_time_ms with vdb_bench probe right after.
--           Run by bench/vdb.sh (make bench-vdb); not listed in scenarios.txt.
-- plugins: auth, ai, vdb
-- setup: bench/vdb.sh writes the bodies to state/vdb-text-queries.jsonl
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.user_call('{}', "u0")  -- the path and headers; the bodies come from the file below
bench.expect_body = '"embedding_time_ms":'

bench.cycle_bodies("vdb-text-queries.jsonl")
