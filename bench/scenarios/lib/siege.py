"""Holds idle and slow connections against the daemon, as an attacker would, for a bounded time.

    siege.py <url> <idle> <slow> <seconds> <report-file>

<idle> connections send nothing; <slow> connections send a request head one field every
SLOW_FIELD_EVERY seconds and never finish it. Both come from many loopback source addresses
(127.0.0.2 and up, at most PER_ADDRESS each, under the daemon's per-address cap), and each one
the daemon closes (its deadlines) is opened again at once, so the daemon holds about that many
for the whole time. Every few seconds the report file is rewritten with what is held now and
the totals. Traffic goes to the daemon's loopback address only; the program ends by itself.
"""

import asyncio
import json
import resource
import sys
import time
from urllib.parse import urlparse

PER_ADDRESS = 500
SLOW_FIELD_EVERY = 5.0


class Siege:
    def __init__(self, host, port, deadline):
        self.host, self.port, self.deadline = host, port, deadline
        self.held = {"idle": 0, "slow": 0}
        self.opened = {"idle": 0, "slow": 0}
        self.closed_by_server = 0
        self.refused = 0  # answered with a refusal (a cap) when opened
        self.failed = 0   # could not connect

    async def hold(self, kind, source):
        while time.monotonic() < self.deadline:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(self.host, self.port, local_addr=(source, 0)), 10)
            except (OSError, asyncio.TimeoutError):
                self.failed += 1
                await asyncio.sleep(1)
                continue
            self.opened[kind] += 1
            self.held[kind] += 1
            try:
                if kind == "slow":
                    writer.write(b"POST /api HTTP/1.1\r\nHost: x\r\n")
                await self.wait_until_closed(kind, reader, writer)
            except OSError:
                pass
            finally:
                self.held[kind] -= 1
                writer.close()

    async def wait_until_closed(self, kind, reader, writer):
        field = 0
        while time.monotonic() < self.deadline:
            # An idle connection wakes only when the daemon closes it: 10,000 timers a second
            # would take this process's whole core.
            left = self.deadline - time.monotonic()
            timeout = min(SLOW_FIELD_EVERY, left) if kind == "slow" else left
            try:
                data = await asyncio.wait_for(reader.read(4096), timeout)
            except asyncio.TimeoutError:
                if kind == "slow":
                    field += 1
                    writer.write(b"X-Field-%d: x\r\n" % field)
                continue
            if not data:
                self.closed_by_server += 1
                return
            if b" 429 " in data[:16] or b" 503 " in data[:16]:
                self.refused += 1

    def report(self):
        return {"held": dict(self.held), "opened": dict(self.opened),
                "closed_by_server": self.closed_by_server, "refused": self.refused,
                "failed_to_connect": self.failed}


async def main():
    url, idle, slow, seconds, report_file = sys.argv[1:6]
    target = urlparse(url)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    siege = Siege(target.hostname, target.port, time.monotonic() + float(seconds))
    tasks = []
    for kind, count in (("idle", int(idle)), ("slow", int(slow))):
        for i in range(count):
            # Idle connections from 127.0.0.2 up, slow ones from 127.0.1.2 up.
            base = 0 if kind == "idle" else 256
            n = base + 2 + i // PER_ADDRESS
            source = "127.0.%d.%d" % (n // 256, n % 256)
            tasks.append(asyncio.create_task(siege.hold(kind, source)))
            if i % 200 == 199:
                await asyncio.sleep(0.05)  # a ramp, not one burst the listen queue drops
    while time.monotonic() < siege.deadline:
        with open(report_file, "w") as f:
            json.dump(siege.report(), f)
        await asyncio.sleep(2)
    await asyncio.gather(*tasks, return_exceptions=True)
    with open(report_file, "w") as f:
        json.dump(siege.report(), f)


if __name__ == "__main__":
    asyncio.run(main())
