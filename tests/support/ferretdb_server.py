#!/usr/bin/env python3
"""FerretDB for the tests, in ChildServer's way (child_server.hpp): starts the FerretDB binary
given on the command line in the given folder, on 127.0.0.1 and a free port, prints "PORT <n>"
once the server accepts connections, and stops it when standard input closes. Its log goes to
<folder>/ferretdb.log, and to standard error when it does not start.

  ferretdb_server.py <ferretdb binary> <folder>               over FerretDB's SQLite backend
  ferretdb_server.py <ferretdb binary> <folder> --postgresql  over a PostgreSQL cluster of its
                                                               own, in <folder>/pg

PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user of
Debian's package, and its programs run as that user.
"""
import glob
import os
import pwd
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def fail(log, what):
    log.flush()
    with open(log.name, "rb") as written:
        sys.stderr.write(written.read()[-4000:].decode("utf-8", "replace"))
    sys.exit("ferretdb_server.py: %s (the log is above)" % what)


class PostgreSql:
    """A cluster of its own on a free port: started by start(), stopped by stop()."""

    def __init__(self, folder, log):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not bins:
            fail(log, "no PostgreSQL (packaging/deps.sh installs Debian's postgresql)")
        self.bin = os.path.dirname(bins[-1])
        self.data = os.path.join(folder, "pg")
        self.log = log
        self.as_user = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(folder, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = 0

    def run(self, *args):
        return subprocess.call(self.as_user + [os.path.join(self.bin, args[0])] + list(args[1:]),
                               stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)

    def start(self):
        if self.run("initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync") != 0:
            fail(self.log, "initdb failed")
        for _ in range(3):
            self.port = free_port()
            options = ("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300"
                       % (self.port, self.data))
            if self.run("pg_ctl", "start", "-w", "-t", "30", "-D", self.data, "-o", options,
                        "-l", os.path.join(self.data, "server.log")) == 0:
                return
        fail(self.log, "PostgreSQL did not start (see %s/server.log)" % self.data)

    def stop(self):
        self.run("pg_ctl", "stop", "-m", "fast", "-D", self.data)

    def url(self):
        return "postgres://postgres@127.0.0.1:%d/postgres" % self.port


def start_ferretdb(binary, folder, backend, log):
    """The server and its port; another port when the one picked was taken meanwhile."""
    for _ in range(3):
        port = free_port()
        server = subprocess.Popen(
            [binary] + backend + ["--listen-addr=127.0.0.1:%d" % port, "--state-dir=%s" % folder,
                                  "--telemetry=disable", "--debug-addr=-", "--log-level=ERROR"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.poll() is None:
            if accepts(port):
                return server, port
            time.sleep(0.05)
        server.kill()
        server.wait()
    fail(log, "FerretDB did not start")


def stop(server):
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    on_postgresql = "--postgresql" in sys.argv[3:]
    # A TERM or an interrupt stops the servers as a closed input does (the finally below), so
    # no PostgreSQL is left behind.
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, lambda *_: sys.exit(1))
    with open(os.path.join(folder, "ferretdb.log"), "ab") as log:
        cluster = PostgreSql(folder, log) if on_postgresql else None
        server = None
        try:
            if cluster is not None:
                cluster.start()
                backend = ["--handler=postgresql", "--postgresql-url=%s" % cluster.url()]
            else:
                backend = ["--handler=sqlite", "--sqlite-url=file:%s/" % folder]
            server, port = start_ferretdb(binary, folder, backend, log)
            print("PORT %d" % port, flush=True)
            sys.stdin.read()  # until the test closes it
        finally:
            if server is not None:
                stop(server)
            if cluster is not None and cluster.port:
                cluster.stop()


if __name__ == "__main__":
    main()
