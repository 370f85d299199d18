#!/usr/bin/env python3
"""Play a pattern file on a board of a running `hapticctl serve`, then stream a sine on its
intensity over the WebSocket (docs/api.yaml).

    hapticctl serve --sim sim-lra &            # or --port /dev/ttyACM0
    python3 Examples/python/play_and_wave.py Examples/tap.ahap --wave 3

Needs Python 3.9+ and websocket-client (Debian: python3-websocket; PyPI: websocket-client).
Prints one JSON line per step and exits non-zero, with the server's error, when it refuses.
"""
import argparse
import json
import math
import sys
import time
import urllib.error
import urllib.request

import websocket  # websocket-client


def http(server, method, path, body=None, token=None):
    """One request to the server; returns (status, JSON answer)."""
    request = urllib.request.Request(server + path, data=body, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def fail(what, answer):
    error = answer.get("error", {})
    sys.exit(f"{what}: {error.get('field')}: {error.get('message', answer)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="an AHAP or .haptic file to play")
    parser.add_argument("--server", default="http://127.0.0.1:8040")
    parser.add_argument("--token", help="the server's token, if it has one")
    parser.add_argument("--board", help="the board id (default: the server's first board)")
    parser.add_argument("--wave", type=float, default=3.0, help="seconds of the intensity sine (0: none)")
    parser.add_argument("--hz", type=float, default=1.0, help="the sine's frequency")
    args = parser.parse_args()
    server = args.server.rstrip("/")

    # 1. The boards, and the file played once over HTTP.
    status, answer = http(server, "GET", "/v1/boards", token=args.token)
    if status != 200:
        fail("boards", answer)
    board = args.board or answer["boards"][0]["id"]
    with open(args.file, "rb") as f:
        document = f.read()
    status, answer = http(server, "POST", f"/v1/boards/{board}/players", document, args.token)
    if status != 201:
        fail(args.file, answer)
    print(json.dumps({"played": args.file, "player": answer["player"]}), flush=True)
    if args.wave <= 0:
        return

    # 2. A held vibration owned by this WebSocket (the server stops it when the socket closes),
    #    its intensity a sine at 60 Hz updates.
    url = server.replace("http://", "ws://", 1) + "/v1/ws"
    headers = [f"Authorization: Bearer {args.token}"] if args.token else []
    ws = websocket.create_connection(url, header=headers, timeout=10)
    hello = json.loads(ws.recv())
    held = {"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": args.wave + 1,
                                    "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}}]}
    ws.send(json.dumps({"op": "play", "board": board, "document": held, "id": 1}))
    while True:
        message = json.loads(ws.recv())
        if message.get("type") == "error":
            fail("play", message)
        if message.get("type") == "reply" and message.get("id") == 1:
            player = message["player"]["id"]
            break
    print(json.dumps({"client": hello["client"], "waving": player}), flush=True)
    start = time.monotonic()
    sent = 0
    while (elapsed := time.monotonic() - start) < args.wave:
        intensity = 0.55 + 0.45 * math.sin(2 * math.pi * args.hz * elapsed)
        ws.send(json.dumps({"op": "parameters", "player": player, "intensity": round(intensity, 4)}))
        sent += 1
        time.sleep(max(0.0, start + sent / 60 - time.monotonic()))
    ws.send(json.dumps({"op": "stop", "player": player, "id": 2}))
    while True:
        message = json.loads(ws.recv())
        if message.get("type") == "error":
            fail("stop", message)
        if message.get("type") == "reply" and message.get("id") == 2:
            break
    ws.close()
    print(json.dumps({"updates": sent, "seconds": round(time.monotonic() - start, 3)}), flush=True)


if __name__ == "__main__":
    main()
