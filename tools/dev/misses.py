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

from score_dev import truth_beside, truth_hinted_run   # this folder


def missed_codes(run):
    """(driver line, frame truth, missed truth code) for every code `run` did not decode."""
    with open(run) as f:
        for line in f:
            d = json.loads(line)
            truth = truth_beside(d["file"])
            decoded = {c.get("url") for c in d.get("codes", []) if c.get("state") == "decoded"}
            for code in truth.get("codes", []):
                if code["url"] not in decoded:
                    yield d, truth, code


def conditions(d, truth, code):
    palette = code.get("palette", {})
    template = code.get("template")
    kind = f"template {template}" if template is not None else "custom"
    card = (code.get("card") or {}).get("shape", "none")
    reported = ",".join(c.get("state", "?") for c in d.get("codes", [])) or "nothing"
    return (f"{d['file']}  {code['diameter_px']:.0f} px  minor {code['minor_axis_px']:.0f}  "
            f"view {code['view_angle_deg']:.0f}°  blur {truth.get('blur_sigma_px', 0):.2f}  "
            f"q{truth.get('jpeg_quality')}  {kind} {palette.get('foreground')}/{palette.get('background')}  "
            f"card {card}  glare {len(truth.get('glare') or [])}  occluded {code.get('occlusion_fraction', 0):.2f}  "
            f"dim {bool((truth.get('light') or {}).get('dim'))}  reported {reported}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="score_dev.py --save files (or appclipcode decode --json output)")
    ap.add_argument("--truth-read", metavar="DEBUG_DRIVER", help="also read each missed frame from its true plane")
    args = ap.parse_args()
    env = dict(os.environ, ACC_DEBUG_PLANE_AS_GIVEN="1")
    true_reads = {}   # frame -> its true-plane detections, read once however many codes it missed
    missed = read_by_truth = 0
    for run in args.runs:
        for d, truth, code in missed_codes(run):
            missed += 1
            text = conditions(d, truth, code)
            if args.truth_read:
                if d["file"] not in true_reads:
                    true_reads[d["file"]] = truth_hinted_run(args.truth_read, d["file"], env)[0]
                hinted = true_reads[d["file"]]
                read = any(h.get("state") == "decoded" and h.get("url") == code["url"] for h in hinted)
                read_by_truth += read
                text += "  true plane: " + ("decodes" if read else ",".join(str(h.get("failure")) for h in hinted) or "nothing")
            print(text)
    summary = f"{missed} codes missed"
    if args.truth_read:
        summary += f"; {read_by_truth} of them decode from the true plane"
    print(summary)


if __name__ == "__main__":
    main()
