#!/usr/bin/env python3
"""The webhook benchmarks' helpers (stdlib only; any python3 runs this file).

  webhook_bench.py receiver <name> [<sleep ms>]
        starts tests/support/webhook_receiver.py (under /usr/bin/python3) in the background, answering
        every delivery 200 after <sleep ms> (default 0); writes BENCH_STATE_DIR/<name>.port and
        <name>.pid (bench/run.sh stops it at the end) and waits until it listens.
  webhook_bench.py endpoint <name> <event type>
        creates an endpoint of the bench project for that event type, posting to receiver <name>
        (webhooks.endpoint.create with the server admin key).
  webhook_bench.py report <name>
        with receiver <name> behind the project's only endpoint, prints:
          - its own ceiling: wrk POSTs straight to it over 8 connections for 3 s, per second;
          - deliveries per second: 3,000 documents inserted in 30 calls, then the rate from the
            first to the last receipt of their 3,000 deliveries;
          - delivery latency: 200 single inserts, 40 a second, each from the op's answer (taken
            when the client has read it) to the receiver's receipt: p50, p99 and max.
        Before each part it waits until the daemon has delivered everything queued so far
        (opbase_webhooks_queued_total == delivered_total), at most 120 s.
Reads BENCH_URL, BENCH_ENDPOINT_KEY, BENCH_API_KEY, BENCH_ADMIN_KEY and BENCH_STATE_DIR.
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_api  # noqa: E402  (the shared API client, next to this file)

STATE = os.environ["BENCH_STATE_DIR"]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
RECEIVER = os.path.join(ROOT, "tests", "support", "webhook_receiver.py")
USER = "hooks"


def now_ms():
    return time.time() * 1000.0


def state_path(name):
    return os.path.join(STATE, name)


def receiver_url(name):
    with open(state_path(name + ".port")) as f:
        return "http://127.0.0.1:%s" % f.read().strip()


def start_receiver(name, sleep_ms):
    out_path = state_path(name + ".out")
    out = open(out_path, "w")
    process = subprocess.Popen(
        ["/usr/bin/python3", RECEIVER, "--ignore-stdin", "--lifetime", "7200",
         "--max-records", "1000000", "--sleep-ms", str(sleep_ms)],
        stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    with open(state_path(name + ".pid"), "w") as f:
        f.write("%d\n" % process.pid)
    for _ in range(300):  # 30 s
        with open(out_path) as f:
            first = f.readline().split()
        if len(first) == 2 and first[0] == "PORT":
            with open(state_path(name + ".port"), "w") as f:
                f.write(first[1] + "\n")
            return
        if process.poll() is not None:
            raise SystemExit("the receiver exited at start (see %s)" % out_path)
        time.sleep(0.1)
    raise SystemExit("the receiver did not say its port within 30 s")


def create_endpoint(name, event):
    endpoint = bench_api.call({"op": "webhooks.endpoint.create", "url": receiver_url(name) + "/hook",
                               "events": [event]}, admin=True)
    print("endpoint %s -> %s" % (endpoint["id"], endpoint["url"]))


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def metric(name):
    with urllib.request.urlopen(os.environ["BENCH_URL"] + "/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def wait_until_delivered():
    deadline = time.time() + 120
    while time.time() < deadline:
        queued = metric("opbase_webhooks_queued_total")
        if metric("opbase_webhooks_delivered_total") >= queued:
            return
        time.sleep(0.2)
    print("warning: the backlog did not drain within 120 s")


def deliveries_since(name, seq):
    return get_json(receiver_url(name) + "/_deliveries?since=%d" % seq)


def last_seq(name):
    records = get_json(receiver_url(name) + "/_control")
    return records["received"]


def receiver_ceiling(name):
    """What the receiver takes at most: wrk POSTs straight to it over 8 kept-alive connections
    (as many as the daemon's delivery threads) for 3 s."""
    script = state_path(name + "-ceiling.lua")
    with open(script, "w") as f:
        f.write('wrk.method = "POST"\n'
                'wrk.body = \'{"type":"document.created","data":{"_key":"ceiling"}}\'\n'
                'wrk.headers["Content-Type"] = "application/json"\n')
    out = subprocess.run(["timeout", "30", "wrk", "-t2", "-c8", "-d3s", "-s", script,
                          receiver_url(name) + "/ceiling"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Requests/sec:"):
            return float(line.split()[1])
    raise SystemExit("wrk printed no rate:\n" + out)


def insert(docs):
    token = bench_api.token_of(USER)
    return bench_api.call({"op": "collection.insert", "collection": "hooked", "data": docs}, token)


def wait_for_keys(name, since, keys, seconds=120):
    """{data._key: received_ms} of the first receipt of each key, waiting for all of them."""
    seen = {}
    deadline = time.time() + seconds
    while len(seen) < len(keys) and time.time() < deadline:
        for record in deliveries_since(name, since):
            since = max(since, record["seq"])
            try:
                key = json.loads(record["body"])["data"]["_key"]
            except (ValueError, KeyError, TypeError):
                continue
            if key in keys and key not in seen:
                seen[key] = record["received_ms"]
        time.sleep(0.05)
    return seen


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def report(name):
    wait_until_delivered()
    print("receiver ceiling (wrk POSTs straight to it, 8 connections): %.0f requests/s"
          % receiver_ceiling(name))

    wait_until_delivered()
    since = last_seq(name)
    keys = set()
    for batch in range(30):
        for doc in insert([{"n": batch * 100 + i} for i in range(100)]):
            keys.add(doc["_key"])
    seen = wait_for_keys(name, since, keys)
    if len(seen) < len(keys):
        print("deliveries: only %d of %d arrived within 120 s" % (len(seen), len(keys)))
    else:
        span_s = (max(seen.values()) - min(seen.values())) / 1000.0
        print("deliveries/s: %.0f (%d deliveries in %.2f s, from the first receipt to the last)"
              % (len(keys) / span_s if span_s > 0 else float("inf"), len(keys), span_s))

    wait_until_delivered()
    since = last_seq(name)
    answered = {}
    for i in range(200):
        started = time.time()
        doc = insert({"n": i})[0]
        answered[doc["_key"]] = now_ms()
        time.sleep(max(0.0, 0.025 - (time.time() - started)))
    seen = wait_for_keys(name, since, set(answered))
    latencies = [seen[k] - answered[k] for k in answered if k in seen]
    if len(latencies) < len(answered):
        print("latency: only %d of %d arrived within 120 s" % (len(latencies), len(answered)))
    if latencies:
        print("latency from the op's answer to the receipt, %d inserts at 40/s: p50 %.1f ms, "
              "p99 %.1f ms, max %.1f ms" % (len(latencies), percentile(latencies, 50),
                                           percentile(latencies, 99), max(latencies)))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "receiver":
        start_receiver(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif command == "endpoint":
        create_endpoint(sys.argv[2], sys.argv[3])
    elif command == "report":
        report(sys.argv[2])
    else:
        raise SystemExit("webhook_bench.py: unknown command " + command)
