"""What the endpoint path costs per request, apart from the model: the ``openai:`` backend against a null
endpoint, and ``transformers serve`` against the same model run in-process, so users can size a server.

    .venv/bin/python benchmarks/endpoint_overhead.py --model models/smollm2 [--n 24] [--concurrency 1,8,32]
        [--max-new-tokens 1,25] [--threads 1]

1. **Null endpoint**: a standard-library HTTP server in a child process answers every chat completion at
   once with a fixed reply. N distinct requests at each concurrency level give the client side's cost per
   request (rendering the messages, the official client, JSON, HTTP on localhost, the threads) and the
   most requests per second consistest can send from one process.
2. **transformers serve** on ``--model`` (one thread, default mode), concurrency 1, ``max_tokens`` T,
   against the HF backend in this process with batches of 1 on the same conversations and the same greedy
   T tokens (the model's own compute), each request asked of both back to back in alternating order: the
   median paired difference is what the endpoint path adds (client, HTTP, the server's chat template,
   tokenisation, scheduling and streaming machinery), steady against a load that drifts.

The conversations are a stratified ``--sample N`` of ConsisTest-02 (../shared or $CONSISTEST_SHARED; the
demo otherwise), with the chat rendering ``persona-v1``. Needs the serve extra.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_throughput import load_items  # noqa: E402

from consistest.models.base import Item, replies  # noqa: E402
from consistest.models.decoding import Decoding  # noqa: E402

NULL_SERVER = textwrap.dedent(
    """
    import json, sys, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes: no delayed-ACK stall
        def log_message(self, *args):
            pass
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            out = json.dumps({"id": "x", "object": "chat.completion", "created": int(time.time()),
                "model": body["model"], "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "i have two dogs ."}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 5, "total_tokens": 6}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """
)


def endpoint_rate(
    model: str, api_base: str, items: list[Item], decoding: Decoding, concurrency: int
) -> tuple[float, dict[str, str]]:
    """Seconds for the ``openai:`` backend to get a reply to every item, and the replies."""
    from consistest.models.openai_chat import EndpointSettings, OpenAIChatModel

    cfg = EndpointSettings(api_base=api_base, concurrency=concurrency, request_timeout=600)
    bot = OpenAIChatModel(model, decoding, cfg)
    replies(bot, items[:1])  # warm-up: connections, the server's caches
    t = time.perf_counter()
    got = replies(bot, items)
    return time.perf_counter() - t, got


def null_endpoint(items: list[Item], levels: list[int]) -> None:
    proc = subprocess.Popen([sys.executable, "-c", NULL_SERVER], stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())  # type: ignore[union-attr]
        api = f"http://127.0.0.1:{port}/v1"
        print(f"\nnull endpoint, {len(items)} requests, best of 3")
        print(f"{'concurrency':>11} {'ms/request':>11} {'requests/s':>11}")
        for c in levels:
            best = min(endpoint_rate("null", api, items, Decoding(max_new_tokens=25), c)[0] for _ in range(3))
            print(f"{c:>11} {1000 * best / len(items):>11.2f} {len(items) / best:>11.1f}", flush=True)
    finally:
        proc.terminate()
        proc.wait()


def served_against_local(model: str, items: list[Item], tokens: list[int], threads: int) -> None:
    """Each item asked of the server and of the local model back to back (the order alternating), so a
    change in the machine's load hits both sides of a pair: the median of the paired differences is the
    endpoint path's cost per request, with its quartiles beside it."""
    import statistics

    import torch

    from consistest.models.hf_chat import HFChatModel, HFSettings
    from consistest.models.openai_chat import EndpointSettings, OpenAIChatModel
    from tests.serving import Server

    settings = HFSettings(device="cpu", chat_template=True, batch_size=1, utterance_max_tokens=0)
    torch.set_num_threads(threads)
    print(f"\n{model}: {len(items)} requests, concurrency 1, {threads} thread(s) on each side, paired")
    print(f"{'max_tokens':>10} {'served s/req':>13} {'local s/req':>12} {'overhead ms/req':>16} "
          f"{'quartiles ms':>15} {'same':>10}")  # fmt: skip
    with Server(model, threads=threads) as server:
        for t in tokens:
            decoding = Decoding(max_new_tokens=t)
            cfg = EndpointSettings(api_base=server.api_base, concurrency=1, request_timeout=600)
            sides = {"served": OpenAIChatModel(model, decoding, cfg),
                     "local": HFChatModel(model, decoding, settings, quiet=True)}  # fmt: skip
            for bot in sides.values():
                replies(bot, items[:1])  # warm-up: connections, caches, first-call costs
            secs: dict[str, list[float]] = {"served": [], "local": []}
            got: dict[str, dict[str, str]] = {"served": {}, "local": {}}
            for k, item in enumerate(items):
                for name in ("served", "local") if k % 2 == 0 else ("local", "served"):
                    start = time.perf_counter()
                    got[name].update(replies(sides[name], [item]))
                    secs[name].append(time.perf_counter() - start)
            diffs = [1000 * (a - b) for a, b in zip(secs["served"], secs["local"], strict=True)]
            q1, med, q3 = statistics.quantiles(diffs, n=4)
            same = sum(got["served"][i] == got["local"][i] for i in got["local"])
            n = len(items)
            served, local = statistics.median(secs["served"]), statistics.median(secs["local"])
            spread = f"{q1:.0f} to {q3:.0f}"
            print(
                f"{t:>10} {served:>13.3f} {local:>12.3f} {med:>16.0f} {spread:>15} {same:>5}/{n:<4}",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--model", required=True, help="Local HF chat model folder (served by transformers serve)."
    )
    ap.add_argument("--n", type=int, default=24, help="Requests to the served model (0: skip it).")
    ap.add_argument(
        "--null-n", type=int, default=400, help="Requests per level against the null endpoint (0: skip it)."
    )
    ap.add_argument("--concurrency", default="1,8,32")
    ap.add_argument("--max-new-tokens", default="1,25")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers on kill, too
    items, what = load_items(max(args.n, args.null_n))
    print(f"conversations: {what}; load average {os.getloadavg()[0]:.1f}")
    if args.null_n:
        null_endpoint(items[: args.null_n], [int(c) for c in args.concurrency.split(",")])
    model = str(Path(args.model).resolve())
    if args.n:
        served_against_local(
            model, items[: args.n], [int(t) for t in args.max_new_tokens.split(",")], args.threads
        )


if __name__ == "__main__":
    main()
