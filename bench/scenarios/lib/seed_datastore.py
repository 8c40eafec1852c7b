#!/usr/bin/env python3
"""Seeds the datastore benchmarks through the API (stdlib only; any python3 works).

  seed_datastore.py big     1,000,000 documents in collection "bench_docs": 10 users u0..u9 with
                            100,000 each, field "category" one of 100 values (c0..c99, so a
                            category matches 1,000 documents of one user), "n" a number, a name.
                            Idempotent: a marker in BENCH_STATE_DIR makes a second call a no-op.
  seed_datastore.py one <file>   inserts one document for user "u0" in "bench_small" and writes
                            its _key to BENCH_STATE_DIR/<file>.
Reads BENCH_URL, BENCH_ENDPOINT_KEY, BENCH_API_KEY and BENCH_STATE_DIR from the environment.
"""
import json
import os
import sys
import time
import urllib.request

URL = os.environ["BENCH_URL"] + "/api/" + os.environ["BENCH_ENDPOINT_KEY"]
API_KEY = os.environ["BENCH_API_KEY"]
STATE = os.environ["BENCH_STATE_DIR"]
USERS = 10
PER_USER = 100_000
BATCH = 1000
CATEGORIES = 100


def call(user, body):
    request = urllib.request.Request(
        URL, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-API-KEY": API_KEY,
                 "Authorization": "Bearer user-" + user})
    with urllib.request.urlopen(request, timeout=60) as answer:
        payload = json.loads(answer.read())
    if "error" in payload:
        raise SystemExit("seed: %s" % payload["error"])
    return payload["data"]


def seed_big():
    marker = os.path.join(STATE, "bench_docs.seeded")
    if os.path.exists(marker):
        return
    started = time.time()
    for user in range(USERS):
        for first in range(0, PER_USER, BATCH):
            docs = [{"name": "doc %d" % i, "category": "c%d" % (i % CATEGORIES), "n": i,
                     "tags": ["t%d" % (i % 7)]} for i in range(first, first + BATCH)]
            call("u%d" % user, {"op": "collection.insert", "collection": "bench_docs", "data": docs})
    seconds = time.time() - started
    print("seeded %d documents in %.1f s (%.0f documents/s)"
          % (USERS * PER_USER, seconds, USERS * PER_USER / seconds))
    open(marker, "w").close()


def seed_one(file_name):
    doc = call("u0", {"op": "collection.insert", "collection": "bench_small",
                      "data": {"name": "one", "counter": 0, "text": "a small document"}})[0]
    with open(os.path.join(STATE, file_name), "w") as out:
        out.write(doc["_key"] + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "big":
        seed_big()
    else:
        seed_one(sys.argv[2])
