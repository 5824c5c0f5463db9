#!/usr/bin/env python3
"""Scores the development driver on a frame set without building the Swift CLI.

    tools/dev/build.sh release
    python3 tools/dev/score_dev.py out/frames/std [--driver PATH] [--jobs 2] [--save results.jsonl]

Runs detect_main over every frame (in `--jobs` processes), turns its lines into the
`appclipcode decode --json` shape (file, width, height, elapsed_ms = the detector's
total_ms, codes with state/url/center) and hands them to tools/score.py --jsonl.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def frames(set_dir):
    out = []
    for dirpath, dirnames, names in os.walk(set_dir):
        dirnames.sort()
        out += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith((".jpg", ".png"))]
    return out


def as_cli_line(d):
    codes = [{"state": x.get("state"), "url": x.get("url"), "center": x.get("center")}
             for x in d.get("detections", [])]
    return {"file": d["file"], "width": d.get("width", 0), "height": d.get("height", 0),
            "elapsed_ms": d.get("stats", {}).get("total_ms"), "codes": codes, "error": d.get("error")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set_dir")
    ap.add_argument("--driver", default="/tmp/acc_dev_build/release/detect_main")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--save")
    args = ap.parse_args()
    files = frames(args.set_dir)
    chunks = [files[i::args.jobs] for i in range(args.jobs)]
    procs = [subprocess.Popen([args.driver] + c, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for c in chunks if c]
    lines = []
    for p in procs:
        out, _ = p.communicate()
        for raw in out.splitlines():
            if raw.startswith("{"):
                try:
                    lines.append(as_cli_line(json.loads(raw)))
                except ValueError:
                    pass
    save = args.save or tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False).name
    with open(save, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return subprocess.call([sys.executable, os.path.join(ROOT, "tools", "score.py"), args.set_dir, "--jsonl", save])


if __name__ == "__main__":
    sys.exit(main())
