"""A model server for the benchmark of waiting AI calls: it speaks just enough of the OpenAI API
(POST /v1/chat/completions) and answers every request after AI_MODEL_DELAY_S seconds (default
2), many at once. Listens on 127.0.0.1 and the port given; stops after the seconds given.

    python3 slow_model.py PORT SECONDS
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY_S = float(os.environ.get("AI_MODEL_DELAY_S", "2"))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        time.sleep(DELAY_S)
        body = json.dumps({
            "id": "chatcmpl-bench", "object": "chat.completion", "model": "bench-model",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "A short answer."}}],
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    threading.Timer(float(sys.argv[2]), server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
