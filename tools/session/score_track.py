#!/usr/bin/env python3
"""Scores `appclipcode track` on tools/synth camera-path sequences (sequences.py).

    python3 tools/session/score_track.py out/session/tri/*/ --exe .build-session/release/appclipcode
    python3 tools/session/score_track.py out/session/weak/*/ --decode-within 30
    python3 tools/session/score_track.py out/session/long/*/ --json out/session/long.json

For each sequence folder (frame_NNNN.jpg + sequence.json), runs
`track --poses sequence.json --json` (intrinsics and per-frame camera poses from the file; the
code diameter is NOT given unless --known-diameter, so the size must be triangulated) and
reports, against the ground truth of sequence.json:
  - decoding: the first frame at which an anchor on the code is `decoded`, and whether any anchor
    ever reported a URL other than the code's (a wrong URL);
  - identity: distinct anchor identifiers that sat on the code, and identifier changes between
    consecutive frames where the code was tracked;
  - size: the triangulated radius at the N-th frame in which the code is tracked (--radius-after,
    default 10) vs the truth;
  - pose (with --known-diameter): center error / distance and normal error per tracked frame;
  - time: reader and session milliseconds per frame, split into tracked frames (the code was
    tracked in the previous frame) and the others.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys


def pct(v, q):
    if not v:
        return float("nan")
    s = sorted(v)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def angle_deg(a, b):
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    d = max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b)) / (na * nb)))
    return math.degrees(math.acos(d))


def run_sequence(folder, exe, known, extra):
    seq = json.load(open(os.path.join(folder, "sequence.json")))
    files = [os.path.join(folder, f["file"]) for f in seq["frames"]]
    cmd = [exe, "track", "--json", "--poses", os.path.join(folder, "sequence.json")] + extra
    if known:
        cmd += ["--code-diameter", "%.10g" % seq["code"]["diameter_m"]]
    out = subprocess.run(cmd + files, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("track failed on %s: %s" % (folder, out.stderr[-2000:]))
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    return seq, lines


def score(folder, exe, known, radius_after, extra):
    seq, lines = run_sequence(folder, exe, known, extra)
    url = seq["code"]["url"]
    D = seq["code"]["diameter_m"]
    res = {"name": seq["name"], "kind": seq["kind"], "frames": len(lines), "url": url, "wrong_urls": [],
           "first_decoded": None, "ids": [], "id_changes": 0, "tracked_frames": 0, "radius": None,
           "center_err": [], "normal_err": [], "reader_ms_tracked": [], "session_ms_tracked": [],
           "reader_ms_other": [], "session_ms_other": [], "elapsed_ms": [], "session_ms_since_found": []}
    previous_id = None
    tracked_before = False
    for i, (line, fr) in enumerate(zip(lines, seq["frames"])):
        cx, cy = fr["center"]
        dpx = fr["diameter_px"]
        on_code = None
        for a in line["anchors"]:
            if a["url"] is not None and a["url"] != url:
                res["wrong_urls"].append((i, a["id"], a["url"]))
            if a["tracked"] and math.hypot(a["center"][0] - cx, a["center"][1] - cy) < 0.3 * dpx:
                on_code = a
        (res["reader_ms_tracked"] if tracked_before else res["reader_ms_other"]).append(line["reader_ms"])
        (res["session_ms_tracked"] if tracked_before else res["session_ms_other"]).append(line["session_ms"])
        res["elapsed_ms"].append(line["elapsed_ms"])
        # Once the code has been found, every later frame counts (tracked, lost or searched
        # again): what a scanner following one code must keep up with.
        if res["tracked_frames"] > 0 or on_code is not None:
            res["session_ms_since_found"].append(line["session_ms"])
        tracked_before = on_code is not None
        if on_code is None:
            continue
        res["tracked_frames"] += 1
        if on_code["id"] not in res["ids"]:
            res["ids"].append(on_code["id"])
        if previous_id is not None and on_code["id"] != previous_id:
            res["id_changes"] += 1
        previous_id = on_code["id"]
        if on_code["state"] == "decoded" and on_code["url"] == url and res["first_decoded"] is None:
            res["first_decoded"] = i
        if res["tracked_frames"] == radius_after:
            tri = on_code.get("radius_triangulated")
            res["radius"] = {"truth": D / 2, "reported": on_code["radius_m"], "source": on_code["radius_source"],
                             "triangulated": tri["radius_m"] if tri else None,
                             "sigma": tri["sigma_m"] if tri else None, "at_frame": i}
        if known and on_code.get("pose"):
            wtc = fr["world_to_camera"]
            t = [wtc[3], wtc[7], wtc[11]]
            n_true = [-wtc[2], -wtc[6], -wtc[10]]
            est = on_code["pose"]["center_camera_m"]
            res["center_err"].append(math.dist(est, t) / math.sqrt(sum(x * x for x in t)))
            res["normal_err"].append(angle_deg(on_code["pose"]["normal_camera"], n_true))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--exe", default=".build-session/release/appclipcode")
    ap.add_argument("--known-diameter", action="store_true", help="give track the true code diameter")
    ap.add_argument("--radius-after", type=int, default=10)
    ap.add_argument("--decode-within", type=int, default=30)
    ap.add_argument("--gray", action="store_true", help="pass --gray to track (camera Y plane)")
    ap.add_argument("--nv12", action="store_true", help="pass --nv12 to track (the camera's YCbCr 4:2:0 frames)")
    ap.add_argument("--json")
    args = ap.parse_args()
    extra = ["--gray"] if args.gray else ["--nv12"] if args.nv12 else []
    results = []
    for folder in args.folders:
        r = score(folder.rstrip("/"), args.exe, args.known_diameter, args.radius_after, extra)
        results.append(r)
        rad = r["radius"]
        rad_text = "-"
        if rad and rad["triangulated"]:
            rad_text = "tri %.2f%% (sigma %.2f%%)" % (100 * (rad["triangulated"] / rad["truth"] - 1), 100 * rad["sigma"] / rad["truth"])
        print("%-14s tracked %3d/%3d  decoded at %4s  ids %s changes %d  wrong %d  radius %s" % (
            r["name"], r["tracked_frames"], r["frames"], r["first_decoded"], r["ids"], r["id_changes"],
            len(r["wrong_urls"]), rad_text), flush=True)
    n = len(results)
    within = sum(1 for r in results if r["first_decoded"] is not None and r["first_decoded"] < args.decode_within)
    print("sequences %d: decoded within %d frames: %d (%.0f%%); wrong URLs: %d" % (
        n, args.decode_within, within, 100.0 * within / max(1, n), sum(len(r["wrong_urls"]) for r in results)))
    print("identity: sequences with one identifier on the code: %d/%d; identifier changes: %d" % (
        sum(1 for r in results if len(r["ids"]) == 1), sum(1 for r in results if r["ids"]),
        sum(r["id_changes"] for r in results)))
    errs = [abs(r["radius"]["triangulated"] / r["radius"]["truth"] - 1) for r in results
            if r["radius"] and r["radius"]["triangulated"]]
    print("triangulated radius after %d frames: %d sequences, median |error| %.2f%%, p90 %.2f%%" % (
        args.radius_after, len(errs), 100 * pct(errs, 0.5), 100 * pct(errs, 0.9)))
    ce = [e for r in results for e in r["center_err"]]
    ne = [e for r in results for e in r["normal_err"]]
    if ce:
        print("pose (known diameter): %d frames, center median %.4f%%, normal median %.3f deg" % (
            len(ce), 100 * pct(ce, 0.5), pct(ne, 0.5)))
    rt = [x for r in results for x in r["reader_ms_tracked"]]
    st = [x for r in results for x in r["session_ms_tracked"]]
    ro = [x for r in results for x in r["reader_ms_other"]]
    so = [x for r in results for x in r["session_ms_other"]]
    el = [x for r in results for x in r["elapsed_ms"]]
    print("time: tracked frames %d: reader median %.3f ms, session median %.3f ms (p90 %.3f); other frames %d: "
          "reader median %.3f ms, session median %.3f ms; all frames session mean %.3f ms" % (
              len(st), pct(rt, 0.5), pct(st, 0.5), pct(st, 0.9), len(so), pct(ro, 0.5), pct(so, 0.5),
              statistics.mean([x for r in results for x in r["session_ms_tracked"] + r["session_ms_other"]]) if el else float("nan")))
    since = [x for r in results for x in r["session_ms_since_found"]]
    if since:
        print("keeping up with one code: %d frames from each code's first tracked frame on, session mean %.3f ms "
              "(%.1f frames/s), p90 %.3f ms" % (len(since), statistics.mean(since), 1000 / statistics.mean(since),
                                                pct(since, 0.9)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
