-- scenario: captcha_insert
-- measures: an anonymous collection.insert into guestbook with a solved captcha, no token: the
--           captcha.verify service (the payload parsed, the HMAC and the SHA-256 checked, the
--           challenge spent by a durable insert keyed by its hash) and then the document's
--           durable insert. Compare with ins_one (a signed-in insert): the difference is the
--           captcha's cost. Every request needs a solution never used before, so the setup
--           hook solves a pool of challenges (captcha.maxnumber=10 here: the client's work is
--           not what is measured) and each wrk thread takes its own share of it; a thread that
--           runs out sends spent ones, which the run counts as errors. Not a static request
--           (a Lua request()), which costs wrk a little CPU (see bench/README.md). The
--           per-address limit is off: every request comes from 127.0.0.1.
-- plugins: collection, captcha
-- set: datastore.anonymous_insert=guestbook
-- set: captcha.maxnumber=10
-- set: captcha.rate.verify_per_address=off
-- setup: captcha_insert.setup.sh fetches and solves the pool
dofile(assert(os.getenv("BENCH_LIB"), "BENCH_LIB is not set: run scenarios through bench/run.sh"))

bench.api_call('{}')  -- the path and headers; each body is built by request below

local bodies = {}  -- this thread's share of the pool, one body per request
local sent = 0

-- Each wrk run (the checked warm-up or the measurement) takes BENCH_CAPTCHA_RATE solutions a
-- second of its length, split between its threads.
function init(args)
  local seconds = tonumber(bench.env(os.getenv("BENCH_VALIDATE") == "1" and "BENCH_WARMUP_S" or
                                     "BENCH_DURATION_S"))
  local share = math.floor(tonumber(bench.state("captcha_pool.rate")) * seconds /
                           tonumber(bench.env("BENCH_WRK_THREADS")))
  bodies = bench.take_from_pool("captcha_pool", share)
end

function request()
  sent = sent + 1
  return wrk.format(nil, nil, nil, bodies[sent] or
                    '{"op":"collection.insert","collection":"guestbook","data":{},"captcha":"spent"}')
end

bench.expect_body = '"_userkey":null'
