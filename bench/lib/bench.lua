-- Shared by every scenario (loaded with dofile from the scenario's first line).
-- It gives each scenario the same measurement and the same error accounting, so a scenario file
-- only says what request to send.
--
-- What a scenario sets, after loading this file:
--   wrk.method, wrk.path, wrk.headers, wrk.body   the request (static: see "why static" below)
--   bench.expect_status   (default 200)  the status every answer must have
--   bench.expect_body     (optional)     a plain substring every answer body must contain
--
-- Why static requests: when a script defines no request() function, wrk builds the request bytes
-- once and resends them (its fast path). A Lua request() per call would slow wrk down and lower
-- every figure, the ceiling included, so scenarios that need varying requests should say so in
-- their header and expect to be compared with that in mind.
--
-- Why errors are counted the way they are:
--   * In the measured runs there is NO response() callback. wrk itself already counts answers
--     with status > 399 (summary.errors.status, done in C by its HTTP parser) besides socket
--     errors and timeouts, so non-2xx answers are counted at no cost. Defining response() makes
--     wrk copy every answer's headers and body into Lua tables. Measured here: +1.5-2.5 us of wrk
--     CPU per request (12.7 -> 14.3 us, +10-18%), and the /healthz ceiling 7-15% lower. On two
--     shared cores wrk's CPU is taken from the server, so it would bias every figure.
--   * run.sh's warm-up pass sets BENCH_VALIDATE=1, which defines response() below and checks
--     each answer's exact status and, when given, a body substring. A scenario whose warm-up saw
--     a wrong answer is reported as failed instead of being measured: a fast wrong answer
--     (a 401 from a typo in a key, say) is not a benchmark result.

bench = bench or {}
bench.expect_status = 200

local env = function(name)
  local value = os.getenv(name)
  if value == nil or value == "" then
    error(name .. " is not set: run scenarios through bench/run.sh")
  end
  return value
end
bench.env = env

-- The keys of the project run.sh configures (projects.bench.* on the daemon's command line).
bench.endpoint_key = function() return env("BENCH_ENDPOINT_KEY") end
bench.api_key = function() return env("BENCH_API_KEY") end

-- A JSON API call through the whole gateway: POST /api/<endpoint key> with the API key header.
bench.api_call = function(json_body)
  wrk.method = "POST"
  wrk.path = "/api/" .. bench.endpoint_key()
  wrk.headers["X-API-KEY"] = bench.api_key()
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = json_body  -- wrk adds Content-Length itself
end

-- The same, signed in as `user` with a bearer token: a real id token of the auth plugin, which
-- the scenario's setup hook made with `bench_api.py user <user>` (it writes state "token-<user>").
bench.user_call = function(json_body, user)
  bench.api_call(json_body)
  wrk.headers["Authorization"] = "Bearer " .. bench.state("token-" .. user)
end

-- The same with the server admin key (bench/run.sh sets server.admin_key): an admin op.
bench.admin_call = function(json_body)
  bench.api_call(json_body)
  wrk.headers["X-Admin-Key"] = env("BENCH_ADMIN_KEY")
end

-- A value a scenario's setup hook wrote to $BENCH_STATE_DIR/<name> (trailing newline dropped).
bench.state = function(name)
  local path = env("BENCH_STATE_DIR") .. "/" .. name
  local file = assert(io.open(path, "r"), "no " .. path .. ": did the scenario's setup hook run?")
  local value = file:read("*a"):gsub("%s+$", "")
  file:close()
  return value
end

-- For the few scenarios whose requests depend on earlier answers (auth.refresh_token rotates the
-- token it is given): next_request() returns each request's bytes (wrk.format), on_answer(status,
-- body) sees each answer. response() then exists in the measured run too, which costs wrk CPU;
-- such a scenario's header says so. Call it last, after wrk.headers are set.
bench.chained = function(next_request, on_answer)
  local check = response  -- the warm-up's answer check, when BENCH_VALIDATE=1
  request = next_request
  response = function(status, headers, body)
    on_answer(status, body)
    if check ~= nil then check(status, headers, body) end
  end
end

-- For scenarios whose requests can be sent once only (a refresh token, a solved captcha): the
-- next `count` unused lines of $BENCH_STATE_DIR/<name>, which the setup hook wrote; the cursor
-- file <name>.next remembers how far earlier wrk threads and runs took. Threads start one after
-- another in wrk's main thread, so moving the cursor needs no lock. Fails when fewer are left.
bench.take_from_pool = function(name, count)
  local pool = env("BENCH_STATE_DIR") .. "/" .. name
  local cursor_file = io.open(pool .. ".next", "r")
  local first = cursor_file and tonumber(cursor_file:read("*a")) or 0
  if cursor_file then cursor_file:close() end
  local lines, line_no = {}, 0
  for line in io.lines(pool) do
    if line_no >= first and #lines < count then table.insert(lines, line) end
    line_no = line_no + 1
  end
  assert(#lines == count, "the pool " .. name .. " is used up: run its setup hook again")
  cursor_file = assert(io.open(pool .. ".next", "w"))
  cursor_file:write(tostring(first + count))
  cursor_file:close()
  return lines
end

-- Sends the requests `build()` returns (called once per thread, in init()) in turn, each thread
-- from a place of its own so threads do not send the same request at the same time; `what`
-- says what is missing when there are none.
local function cycle(build, what)
  local requests, next_index = {}, 1
  init = function(args)
    requests = build()
    assert(#requests > 0, what)
    math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)") or "0", 16) or 0) % 1000003)
    next_index = math.random(#requests)
  end
  request = function()
    local r = requests[next_index]
    next_index = next_index % #requests + 1
    return r
  end
end

-- For scenarios that send many bodies (query vectors, texts): each thread cycles through the
-- non-empty lines of $BENCH_STATE_DIR/<name>, each a request body. Call it after wrk.headers
-- are set.
bench.cycle_bodies = function(name)
  cycle(function()
    local requests = {}
    for body in io.lines(env("BENCH_STATE_DIR") .. "/" .. name) do
      if body ~= "" then table.insert(requests, wrk.format(nil, nil, nil, body)) end
    end
    return requests
  end, "no request bodies in " .. name .. ": did the setup run?")
end

-- For scenarios called by many users: each thread cycles through the id tokens of
-- $BENCH_STATE_DIR/<name> (one per line, written by the setup hook), sending `json_body` as each
-- user in turn. A Lua request(), as cycle_bodies: compare such figures with each other.
bench.cycle_users = function(json_body, name)
  bench.api_call(json_body)
  cycle(function()
    local requests = {}
    for token in io.lines(env("BENCH_STATE_DIR") .. "/" .. name) do
      if token ~= "" then
        local headers = {}
        for k, v in pairs(wrk.headers) do headers[k] = v end
        headers["Authorization"] = "Bearer " .. token
        table.insert(requests, wrk.format(nil, nil, headers, nil))
      end
    end
    return requests
  end, "no tokens in " .. name .. ": did the setup run?")
end

-- setup() runs once per wrk thread in the main Lua state: keep the threads so done() can read the
-- counters each thread's own Lua state kept.
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

if os.getenv("BENCH_VALIDATE") == "1" then
  checked = 0
  wrong = 0
  first_wrong = nil
  function response(status, headers, body)
    checked = checked + 1
    local ok = status == bench.expect_status
    if ok and bench.expect_body ~= nil then
      ok = body ~= nil and string.find(body, bench.expect_body, 1, true) ~= nil
    end
    if not ok then
      wrong = wrong + 1
      if first_wrong == nil then
        first_wrong = tostring(status) .. " " .. string.sub(tostring(body), 1, 200)
      end
    end
  end
end

-- One machine-readable line for run.sh; latencies in milliseconds, rate in requests per second.
function done(summary, latency, requests)
  local e = summary.errors
  local socket_errors = e.connect + e.read + e.write + e.timeout
  local seconds = summary.duration / 1e6
  local checked, wrong, first_wrong = 0, 0, nil
  for _, t in ipairs(threads) do
    checked = checked + (t:get("checked") or 0)
    wrong = wrong + (t:get("wrong") or 0)
    first_wrong = first_wrong or t:get("first_wrong")
  end
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
    "errors=%d non2xx=%d socket_errors=%d timeouts=%d checked=%d wrong=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status + socket_errors, e.status, socket_errors, e.timeout,
    checked, wrong))
  if first_wrong ~= nil then
    io.write("FIRST_WRONG " .. first_wrong:gsub("\n", " ") .. "\n")
  end
end
