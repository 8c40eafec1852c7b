"""The driver of bench/auth_attacks.sh: starts an SMTP sink and a daemon, runs the three
measurements, prints the figures, and stops both (also on failure)."""
import concurrent.futures
import http.client
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

BUILD_DIR = sys.argv[1]
GUESSES = int(os.environ.get("AUTH_BENCH_GUESSES", "60"))
SAMPLES = int(os.environ.get("AUTH_BENCH_SAMPLES", "200"))
PASSWORD = "Bench-Pass-1"
ENDPOINT = "bench" + secrets.token_hex(8)
API_KEY = secrets.token_hex(16)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sink():
    """aiosmtpd's own server, which accepts every mail and prints it to a file."""
    port = free_port()
    out = open(os.path.join(WORK, "smtp.out"), "w")
    sink = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}"],
                            stdout=out, stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return sink, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("auth_attacks: the SMTP sink did not start")


def start_daemon(smtp_port):
    settings = {
        "server.host": "127.0.0.1", "server.port": "0", "storage.path": WORK + "/store",
        "projects.generate_default": "false",
        f"projects.bench.endpoint_key": ENDPOINT, f"projects.bench.api_key": API_KEY,
        "plugins.dir": BUILD_DIR + "/plugins-out", "plugins.enabled": "auth,echo",
        "log.level": "warning", "server.drain_timeout_s": "2",
        "mail.transport": os.environ.get("AUTH_BENCH_TRANSPORT", "smtp"), "mail.smtp.port": str(smtp_port), "mail.smtp.starttls": "off",
        # Many codes for one address and many sign-ups from one address are the point here.
        "auth.rate.send_otp_per_email": "off", "auth.rate.signup_per_address": "off",
    }
    args = [BUILD_DIR + "/host/opbase"]
    for key, value in settings.items():
        args += ["--set", f"{key}={value}"]
    out = open(os.path.join(WORK, "daemon.out"), "w+")
    daemon = subprocess.Popen(args, stdout=out, stderr=open(os.path.join(WORK, "daemon.err"), "w"))
    for _ in range(300):
        out.seek(0)
        for line in out:
            if line.startswith("listening on http://"):
                return daemon, int(line.rsplit(":", 1)[1])
        if daemon.poll() is not None:
            break
        time.sleep(0.1)
    sys.stderr.write(open(os.path.join(WORK, "daemon.err")).read())
    raise SystemExit("auth_attacks: the daemon did not start")


def call(body, source="127.0.0.1", conn=None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=30,
                                              source_address=(source, 0))
    conn.request("POST", "/api/" + ENDPOINT, json.dumps(body),
                 {"X-API-KEY": API_KEY, "Content-Type": "application/json"})
    response = conn.getresponse()
    answer = json.loads(response.read())
    if own:
        conn.close()
    return answer.get("error", {}).get("code", "OK")


def signin(email, password, source="127.0.0.1", conn=None):
    return call({"op": "auth.signin", "grant_type": "password", "email": email,
                 "password": password}, source, conn)


def parallel_guessing():
    victim = "victim-par@bench.example.com"
    assert call({"op": "auth.signup", "email": victim, "password": PASSWORD,
                 "display_name": "V"}) == "OK"
    with concurrent.futures.ThreadPoolExecutor(GUESSES) as pool:
        codes = list(pool.map(lambda i: signin(victim, f"Wrong-guess-{i}"), range(GUESSES)))
    return codes.count("INVALID_CREDENTIALS"), codes.count("RATE_LIMIT_EXCEEDED"), len(codes)


def lockout():
    victim = "victim-lock@bench.example.com"
    assert call({"op": "auth.signup", "email": victim, "password": PASSWORD,
                 "display_name": "V"}) == "OK"
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30, source_address=("127.0.0.2", 0))
    codes = [signin(victim, f"Wrong-{i}", conn=conn) for i in range(1000)]
    start = time.perf_counter()
    owner = signin(victim, PASSWORD, "127.0.0.3")
    return codes.count("INVALID_CREDENTIALS"), owner, (time.perf_counter() - start) * 1000


def median_ms(requests):
    """Median latency of `requests` (callables on one kept connection), in ms."""
    times = []
    for request in requests:
        start = time.perf_counter()
        request()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def send_otp_medians():
    known = "known@bench.example.com"
    assert call({"op": "auth.signup", "email": known, "password": PASSWORD,
                 "display_name": "K"}) == "OK"
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    otp = lambda email: (lambda: call({"op": "auth.send_otp", "email": email, "intent": "signin"},
                                      conn=conn))
    times = {"known": [], "unknown": []}
    # Alternating, so both see the same moments of the machine; each address asked again and
    # again, as a prober would (a fresh address every time would also be a first code).
    for _ in range(SAMPLES):
        for kind, email in (("known", known), ("unknown", "ghost@bench.example.com")):
            start = time.perf_counter()
            assert otp(email)() == "OK"
            times[kind].append((time.perf_counter() - start) * 1000)

    def healthz():
        conn.request("GET", "/healthz")
        conn.getresponse().read()
    ceiling = median_ms([healthz] * SAMPLES)
    ping = median_ms([lambda: call({"op": "echo.ping"}, conn=conn)] * SAMPLES)
    return statistics.median(times["known"]), statistics.median(times["unknown"]), ceiling, ping


WORK = tempfile.mkdtemp(prefix="opbase-auth-bench-")
sink = daemon = None
try:
    sink, smtp_port = start_sink()
    daemon, PORT = start_daemon(smtp_port)
    checked, limited, total = parallel_guessing()
    print(f"parallel guessing: {checked} of {total} parallel wrong guesses checked "
          f"(limit 10 per account and address), {limited} answered RATE_LIMIT_EXCEEDED")
    checked, owner, owner_ms = lockout()
    print(f"lock-out: 1000 wrong guesses from 127.0.0.2, {checked} checked; the owner's right "
          f"password from 127.0.0.3 answered {owner} in {owner_ms:.1f} ms")
    known, unknown, ceiling, ping = send_otp_medians()
    print(f"send_otp median over {SAMPLES} each: known address {known:.2f} ms, unknown "
          f"{unknown:.2f} ms (ratio {known / unknown:.2f}); no-op ceiling: GET /healthz "
          f"{ceiling:.2f} ms, echo.ping {ping:.2f} ms")
finally:
    for process in (daemon, sink):
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    shutil.rmtree(WORK, ignore_errors=True)
