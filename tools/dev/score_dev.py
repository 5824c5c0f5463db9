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
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def frames(set_dir):
    out = []
    for dirpath, dirnames, names in os.walk(set_dir):
        dirnames.sort()
        out += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith((".jpg", ".png"))]
    return out


def truth_beside(image):
    """The ground truth of a frame: the JSON file beside its image."""
    with open(image.rsplit(".", 1)[0] + ".json") as f:
        return json.load(f)


def truth_hinted_run(driver, image, env=None):
    """A debug driver's read of `image` from its ground truth's planes only (`--truth-hints
    --truth-only`; ACC_DEBUG_PLANE_AS_GIVEN=1 in `env` reads the exact plane): the hinted
    detections and the stage trace."""
    res = subprocess.run([driver, "--truth-hints", "--truth-only", image], capture_output=True, text=True, env=env)
    lines = [l for l in res.stdout.splitlines() if l.startswith("{")]
    hinted = json.loads(lines[-1]).get("truth_hinted", {}).get("detections", []) if lines else []
    return hinted, res.stderr


def driver_lines(driver, files, jobs):
    """The driver's JSON line for each of `files`, parsed, from `jobs` processes at once."""
    chunks = [files[i::jobs] for i in range(jobs)]
    procs = [subprocess.Popen([driver] + c, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for c in chunks if c]
    # Read every process's output at once: one waited on alone would leave the others blocked
    # on full pipes, and the jobs would run one after another.
    with ThreadPoolExecutor(max_workers=max(1, len(procs))) as pool:
        outputs = list(pool.map(lambda p: p.communicate()[0], procs))
    lines = []
    for out in outputs:
        for raw in out.splitlines():
            if raw.startswith("{"):
                try:
                    lines.append(json.loads(raw))
                except ValueError:
                    pass
    return lines


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
    lines = [as_cli_line(d) for d in driver_lines(args.driver, frames(args.set_dir), args.jobs)]
    save = args.save or tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False).name
    with open(save, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return subprocess.call([sys.executable, os.path.join(ROOT, "tools", "score.py"), args.set_dir, "--jsonl", save])


if __name__ == "__main__":
    sys.exit(main())
