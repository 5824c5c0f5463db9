#!/usr/bin/env python3
"""The codes a saved run missed, each with the conditions its ground truth records.

    python3 tools/dev/score_dev.py out/frames/std/camera --save run.jsonl
    python3 tools/dev/misses.py run.jsonl [more.jsonl ...] [--truth-read DEBUG_DRIVER]

One line per ground-truth code not decoded: size, minor axis and view angle, blur, JPEG
quality, palette (template number or "custom"), card shape, glare count, occluded share,
dim light, and what the run reported there. `--truth-read` also reads each such frame from
its exact true plane (ACC_DEBUG_PLANE_AS_GIVEN=1 `detect_main --truth-hints --truth-only`,
a `tools/dev/build.sh debug` driver) and says whether that decodes: a miss the true plane
reads is lost to locating or fitting, one it does not is lost to sampling or decoding.
"""
import argparse
import json
import os
import subprocess


def truth_of(image):
    with open(image.rsplit(".", 1)[0] + ".json") as f:
        return json.load(f)


def true_plane_states(driver, image):
    env = dict(os.environ, ACC_DEBUG_PLANE_AS_GIVEN="1")
    out = subprocess.run([driver, "--truth-hints", "--truth-only", image], capture_output=True, text=True,
                         env=env).stdout
    for line in out.splitlines():
        if line.startswith("{"):
            hinted = json.loads(line).get("truth_hinted", {}).get("detections", [])
            return {d.get("url") for d in hinted if d.get("state") == "decoded"}, [d.get("failure") for d in hinted]
    return set(), []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="score_dev.py --save files (or appclipcode decode --json output)")
    ap.add_argument("--truth-read", metavar="DEBUG_DRIVER", help="also read each missed frame from its true plane")
    args = ap.parse_args()
    missed = read_by_truth = 0
    for run in args.runs:
        with open(run) as f:
            for line in f:
                d = json.loads(line)
                truth = truth_of(d["file"])
                decoded = {c.get("url") for c in d.get("codes", []) if c.get("state") == "decoded"}
                reported = ",".join(c.get("state", "?") for c in d.get("codes", [])) or "nothing"
                for code in truth.get("codes", []):
                    if code["url"] in decoded:
                        continue
                    missed += 1
                    palette = code.get("palette", {})
                    colours = f"{palette.get('foreground')}/{palette.get('background')}"
                    template = code.get("template")
                    card = (code.get("card") or {}).get("shape", "none")
                    text = (f"{d['file']}  {code['diameter_px']:.0f} px  minor {code['minor_axis_px']:.0f}  "
                            f"view {code['view_angle_deg']:.0f}°  blur {truth.get('blur_sigma_px', 0):.2f}  "
                            f"q{truth.get('jpeg_quality')}  {'template ' + str(template) if template is not None else 'custom'} "
                            f"{colours}  card {card}  glare {len(truth.get('glare') or [])}  "
                            f"occluded {code.get('occlusion_fraction', 0):.2f}  dim {bool((truth.get('light') or {}).get('dim'))}  "
                            f"reported {reported}")
                    if args.truth_read:
                        urls, failures = true_plane_states(args.truth_read, d["file"])
                        read = code["url"] in urls
                        read_by_truth += read
                        text += "  true plane: " + ("decodes" if read else ",".join(map(str, failures)) or "nothing")
                    print(text)
    summary = f"{missed} codes missed"
    if args.truth_read:
        summary += f"; {read_by_truth} of them decode from the true plane"
    print(summary)


if __name__ == "__main__":
    main()
