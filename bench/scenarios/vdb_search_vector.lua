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

local requests = {}
local next_index = 1

function init(args)
  for body in io.lines(bench.env("BENCH_STATE_DIR") .. "/vdb-vector-queries.jsonl") do
    if body ~= "" then table.insert(requests, wrk.format(nil, nil, nil, body)) end
  end
  assert(#requests > 0, "no query bodies: run through bench/vdb.sh")
  -- Threads start at different places, so they do not send the same vector at the same time.
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)") or "0", 16) or 0) % 1000003)
  next_index = math.random(#requests)
end

function request()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end
