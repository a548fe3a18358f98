"""Runs `rngd-qwen3 serve ARGS --port 0` and, once it listens, CLIENT with RNGD_SERVER (its base
URL, http://127.0.0.1:PORT) in the environment; then stops the server with SIGTERM and prints
its last stderr line. Exit code: the client's, or 1 if the server did not start or stop cleanly.

Usage: serve.py RNGD_QWEN3 [SERVER ARGS...] -- CLIENT [ARGS...]
"""
import os
import re
import signal
import subprocess
import sys
import threading


def main():
    args = sys.argv[1:]
    split = args.index("--")
    server_cmd = [args[0], "serve", "--port", "0"] + args[1:split]
    client_cmd = args[split + 1:]
    server = subprocess.Popen(server_cmd, stderr=subprocess.PIPE, text=True)
    lines, port = [], None
    for line in server.stderr:
        lines.append(line.rstrip("\n"))
        m = re.search(r"listening on http://[^:]+:(\d+)", line)
        if m:
            port = m.group(1)
            break
    if not port:
        server.wait()
        print("server did not start:\n" + "\n".join(lines), file=sys.stderr)
        return 1
    rest = []
    drain = threading.Thread(target=lambda: rest.extend(l.rstrip("\n") for l in server.stderr))
    drain.start()
    env = dict(os.environ, RNGD_SERVER="http://127.0.0.1:" + port)
    client = subprocess.run(client_cmd, env=env)
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        print("server did not stop within 60 s of SIGTERM", file=sys.stderr)
        return 1
    drain.join()
    print("server exit %d: %s" % (code, rest[-1] if rest else ""))
    return client.returncode or (1 if code else 0)


if __name__ == "__main__":
    sys.exit(main())
