"""A soak of `rngd-qwen3 serve` at $RNGD_SERVER: N mixed requests from 8 client threads (plain
and streamed chat, completions, prompts sharing a long system prompt, refusals), a third of the
streams hung up after their first event and some plain requests hung up before their answer
(cancellations). Then, once the server is idle, the KV pool must hold what it held before plus
only the prefix cache's chunks. Prints the figures.

Usage: soak.py N
"""
import http.client
import json
import os
import socket
import sys
import threading
import time
import urllib.parse

URL = urllib.parse.urlparse(os.environ["RNGD_SERVER"])
SYSTEM = "You are a careful assistant. Answer in one short sentence, and never use lists."


def health():
    c = http.client.HTTPConnection(URL.hostname, URL.port, timeout=60)
    c.request("GET", "/health")
    return json.loads(c.getresponse().read())


def post(path, body, hang_up=None):
    """Status of the request; hang_up: 'first-event' closes a stream after its first event,
    'at-once' closes the socket right after sending."""
    data = json.dumps(body).encode() if not isinstance(body, bytes) else body
    s = socket.create_connection((URL.hostname, URL.port), timeout=120)
    s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (path.encode(), len(data)) + data)
    if hang_up == "at-once":
        s.close()
        return "hung up"
    got = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
        if hang_up == "first-event" and b"data: " in got:
            s.close()
            return "hung up"
    s.close()
    return int(got.split(b" ", 2)[1])


def expected(i):
    """What request i must get: its HTTP status, or "hung up" when the client hangs up."""
    kind = i % 8
    if kind == 3 or (kind == 1 and i % 3 == 0):
        return "hung up"
    return 400 if kind in (4, 5) else 200


def request(i):
    kind = i % 8
    words = ["apple", "river", "cloud", "stone", "light", "grass", "music", "paper"]
    user = "Say something about %s %d." % (words[i % 8], i)
    chat = {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
            "max_tokens": 1 + i % 3, "temperature": 0.7, "seed": i}
    if kind == 0:
        return post("/v1/chat/completions", chat)
    if kind == 1:
        return post("/v1/chat/completions", dict(chat, stream=True),
                    hang_up="first-event" if i % 3 == 0 else None)
    if kind == 2:
        return post("/v1/completions", {"prompt": user, "max_tokens": 2, "stop": ["."]})
    if kind == 3:
        return post("/v1/chat/completions", dict(chat, max_tokens=3), hang_up="at-once")
    if kind == 4:
        return post("/v1/chat/completions", {"messages": [{"role": "user", "content": user}],
                                             "max_tokens": 0})
    if kind == 5:
        return post("/v1/chat/completions", b'{"messages": [')
    if kind == 6:
        return post("/v1/chat/completions", dict(chat, stream=True, presence_penalty=1.0))
    return post("/v1/chat/completions", dict(chat, frequency_penalty=0.5, top_k=5, top_p=0.9))


def main():
    n = int(sys.argv[1])
    before = health()
    results, lock, next_i, wrong = {}, threading.Lock(), [0], []

    def worker():
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= n:
                return
            r = request(i)
            with lock:
                results[r] = results.get(r, 0) + 1
                if r != expected(i):
                    wrong.append((i, r, expected(i)))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for _ in range(600):  # the hung-up requests end at the server's next look
        after = health()
        if after["running"] == 0 and after["waiting"] == 0:
            break
        time.sleep(0.1)
    kb, ka = before["kv_chunks"], after["kv_chunks"]
    print("requests %d: %s" % (n, ", ".join("%s %d" % (k, v) for k, v in
                                            sorted(results.items(), key=lambda kv: str(kv[0])))))
    print("every request as expected: %s %s" % (not wrong, wrong[:5]))
    print("server requests %d, cancelled %d, decode steps %d, status %s" % (
        after["requests"], after["cancelled"], after["decode_steps"], after["status"]))
    print("kv chunks before: in use %d, prefix cache %d; after: in use %d, prefix cache %d" %
          (kb["in_use"], kb["prefix_cache"], ka["in_use"], ka["prefix_cache"]))
    print("pool as it started: %s" % (ka["in_use"] - ka["prefix_cache"] == kb["in_use"]))


if __name__ == "__main__":
    main()
