"""Keeps COUNT ai.generate calls waiting on the daemon for SECONDS: COUNT threads, each sending
its next call as soon as its last is answered (the model server answers each in about 2 s).
Writes how many calls were answered, and how, to REPORT every second.

    python3 ai_waiters.py COUNT SECONDS REPORT
"""
import json
import sys
import threading
import time

import bench_api

COUNT, SECONDS, REPORT = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
counts = {"ok": 0, "failed": 0, "in_flight": 0}
lock = threading.Lock()


def waiter(token, deadline):
    while time.time() < deadline:
        with lock:
            counts["in_flight"] += 1
        try:
            bench_api.call({"op": "ai.generate", "user_input": "Say something short."}, token)
            outcome = "ok"
        except Exception:  # an error answer or a dropped connection: counted, then go on
            outcome = "failed"
        with lock:
            counts["in_flight"] -= 1
            counts[outcome] += 1


def main():
    token = bench_api.token_of("u0")
    deadline = time.time() + SECONDS
    for _ in range(COUNT):
        threading.Thread(target=waiter, args=(token, deadline), daemon=True).start()
    while time.time() < deadline:
        time.sleep(1)
        with lock, open(REPORT, "w") as out:
            json.dump(counts, out)


if __name__ == "__main__":
    main()
