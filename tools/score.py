#!/usr/bin/env python3
"""Scores the reader against a ground-truthed frame set.

    python3 tools/score.py out/frames/std                      # runs appclipcode decode --json
    python3 tools/score.py out/frames/std --json               # machine-readable summary
    python3 tools/score.py TestImages --cli .build/release/appclipcode
    python3 tools/score.py out/frames/std --jsonl results.jsonl  # score saved decoder output
    python3 tools/score.py out/frames/std --strict --require camera=95,clean=99

Ground truth: every FILE.json beside a frame with "schema": "appclipcodekit.synth.frame/1"
(or the set's manifest.json). Decoder output: `appclipcode decode --json FILE...`, one JSON
line per file: {"file", "width", "height", "elapsed_ms", "codes": [{"state", "url",
"payload_hex", "center", ...}], "error"}.

Per category it prints: frames, codes, decoded % (ground-truth codes read with the right
URL), WRONG (decoded codes whose URL matches no code of the frame; must be 0), false
decodes (decoded codes in frames with no code; must be 0), detected % (ground-truth codes
with any report, decoded or failed, near their center), median/p90 elapsed_ms and the
center error in pixels of correct decodes. --strict exits 1 when WRONG or false decodes are
not zero, or a --require rate is missed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from urllib.parse import urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAME_SCHEMA = "appclipcodekit.synth.frame/1"
DEFAULT_CLIS = [os.path.join(ROOT, ".build-synth", "release", "appclipcode"),
                os.path.join(ROOT, ".build", "release", "appclipcode"),
                os.path.join(ROOT, ".build", "debug", "appclipcode")]


# ---------------------------------------------------------------------- ground truth

def load_frames(set_dir):
    """[(abs image path, truth dict)] for every frame under set_dir."""
    frames = []
    for dirpath, dirnames, filenames in os.walk(set_dir):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".json") or name in ("manifest.json", "sequence.json"):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path) as f:
                    truth = json.load(f)
            except (OSError, ValueError):
                continue
            if not isinstance(truth, dict) or truth.get("schema") != FRAME_SCHEMA:
                continue
            image = os.path.join(dirpath, truth.get("file") or name[:-5] + ".jpg")
            frames.append((os.path.abspath(image), truth))
    return frames


def url_key(url):
    """URLs compare after lower-casing scheme and host and dropping a lone trailing '/'."""
    if url is None:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = parts.path
    if path == "/":
        path = ""
    out = "%s://%s%s" % (parts.scheme.lower(), parts.netloc.lower(), path)
    if parts.query:
        out += "?" + parts.query
    if parts.fragment:
        out += "#" + parts.fragment
    return out


def same_code(decoded, truth):
    if decoded.get("url") is not None and truth.get("url") is not None:
        if url_key(decoded["url"]) == url_key(truth["url"]):
            return True
    ph = decoded.get("payload_hex")
    return bool(ph and truth.get("payload_hex") and ph.lower() == truth["payload_hex"].lower())


# ---------------------------------------------------------------------- decoder output

def find_cli(explicit):
    if explicit:
        return explicit
    for path in DEFAULT_CLIS:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise SystemExit("appclipcode not found; build it (swift build -c release --product appclipcode) or pass --cli")


def parse_lines(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def run_cli(cli, files, batch, extra_args, log):
    """Decodes files in batches; a batch whose process dies is retried file by file so one
    crashing frame does not hide the others. Returns the parsed lines."""
    results = []
    for start in range(0, len(files), batch):
        chunk = files[start:start + batch]
        lines, crashed = _run_chunk(cli, chunk, extra_args)
        if crashed:
            log("decoder died on a batch (%s); retrying its %d files one by one" % (crashed, len(chunk)))
            lines = []
            for f in chunk:
                one, died = _run_chunk(cli, [f], extra_args)
                if died:
                    one = [{"file": f, "width": 0, "height": 0, "elapsed_ms": None, "codes": [],
                            "error": "decoder died: %s" % died}]
                lines.extend(one)
        results.extend(lines)
        log("decoded %d/%d files" % (min(start + batch, len(files)), len(files)))
    return results


def _run_chunk(cli, files, extra_args):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as lst:
        lst.write("\n".join(files) + "\n")
        name = lst.name
    try:
        proc = subprocess.run([cli, "decode", "--json"] + list(extra_args) + ["--files-from", name],
                              capture_output=True, text=True)
    finally:
        os.unlink(name)
    lines = parse_lines(proc.stdout)
    died = None
    if proc.returncode < 0:
        died = "signal %d" % -proc.returncode
    elif proc.returncode not in (0, 1):
        died = "exit %d: %s" % (proc.returncode, proc.stderr.strip()[-300:])
    elif len(lines) < len(files) and proc.returncode != 0:
        died = "exit %d with %d of %d lines: %s" % (proc.returncode, len(lines), len(files), proc.stderr.strip()[-300:])
    return lines, died


def index_results(lines, set_dir):
    """Maps result lines to frames by real path, then by path relative to the set, then by name."""
    by_path, by_rel, by_name = {}, {}, {}
    for line in lines:
        f = line.get("file")
        if not f:
            continue
        by_path[os.path.realpath(f)] = line
        by_rel[os.path.normpath(f)] = line
        by_name.setdefault(os.path.basename(f), []).append(line)

    def lookup(image):
        line = by_path.get(os.path.realpath(image))
        if line is not None:
            return line
        rel = os.path.normpath(os.path.relpath(image, set_dir))
        line = by_rel.get(rel)
        if line is not None:
            return line
        same = by_name.get(os.path.basename(image), [])
        return same[0] if len(same) == 1 else None
    return lookup


# ---------------------------------------------------------------------- scoring

def percentile(values, q):
    if not values:
        return None
    v = sorted(values)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def score(frames, lookup, center_tol=0.2):
    cats = {}
    wrong_list, false_list = [], []

    def bucket(name):
        if name not in cats:
            cats[name] = {"frames": 0, "codes": 0, "decoded": 0, "detected": 0, "wrong": 0, "false_decodes": 0,
                          "frames_with_false_decodes": 0, "duplicates": 0, "failed_reports": 0, "missing": 0,
                          "errors": 0, "_elapsed": [], "_center": []}
        return cats[name]

    for image, truth in frames:
        cat = truth.get("category") or "uncategorised"
        b = bucket(cat)
        b["frames"] += 1
        gts = truth.get("codes") or []
        b["codes"] += len(gts)
        line = lookup(image)
        if line is None:
            b["missing"] += 1
            continue
        if line.get("error"):
            b["errors"] += 1
        if isinstance(line.get("elapsed_ms"), (int, float)):
            b["_elapsed"].append(float(line["elapsed_ms"]))
        reports = line.get("codes") or []
        matched = [False] * len(gts)
        detected = [False] * len(gts)
        false_here = 0
        for rep in reports:
            center = rep.get("center") or [float("nan"), float("nan")]
            for i, gt in enumerate(gts):
                tol = max(4.0, center_tol * gt.get("diameter_px", 0.0))
                if _dist(center, gt["center"]) <= tol:
                    detected[i] = True
            if rep.get("state") != "decoded":
                b["failed_reports"] += 1
                continue
            if not gts:
                b["false_decodes"] += 1
                false_here += 1
                false_list.append({"file": image, "url": rep.get("url"), "payload_hex": rep.get("payload_hex"),
                                   "center": center})
                continue
            same = [i for i, gt in enumerate(gts) if same_code(rep, gt)]
            if not same:
                b["wrong"] += 1
                wrong_list.append({"file": image, "url": rep.get("url"), "payload_hex": rep.get("payload_hex"),
                                   "center": center, "truth": [gt.get("url") for gt in gts]})
                continue
            free = [i for i in same if not matched[i]]
            if not free:
                b["duplicates"] += 1
                continue
            i = min(free, key=lambda j: _dist(center, gts[j]["center"]))
            matched[i] = True
            detected[i] = True
            b["_center"].append(_dist(center, gts[i]["center"]))
        b["decoded"] += sum(matched)
        b["detected"] += sum(detected)
        if false_here:
            b["frames_with_false_decodes"] += 1

    def finish(b):
        out = {k: v for k, v in b.items() if not k.startswith("_")}
        out["decoded_pct"] = round(100.0 * b["decoded"] / b["codes"], 2) if b["codes"] else None
        out["detected_pct"] = round(100.0 * b["detected"] / b["codes"], 2) if b["codes"] else None
        out["elapsed_ms_median"] = _round(percentile(b["_elapsed"], 0.5))
        out["elapsed_ms_p90"] = _round(percentile(b["_elapsed"], 0.9))
        out["center_error_px_median"] = _round(percentile(b["_center"], 0.5))
        out["center_error_px_p90"] = _round(percentile(b["_center"], 0.9))
        out["center_error_px_max"] = _round(max(b["_center"]) if b["_center"] else None)
        return out

    total = {"frames": 0, "codes": 0, "decoded": 0, "detected": 0, "wrong": 0, "false_decodes": 0,
             "frames_with_false_decodes": 0, "duplicates": 0, "failed_reports": 0, "missing": 0, "errors": 0,
             "_elapsed": [], "_center": []}
    for b in cats.values():
        for k, v in b.items():
            if isinstance(v, list):
                total[k].extend(v)
            else:
                total[k] += v
    return {
        "categories": {name: finish(b) for name, b in sorted(cats.items(), key=lambda kv: _order(kv[0]))},
        "total": finish(total),
        "wrong": wrong_list,
        "false_decodes": false_list,
    }


ORDER = ["clean", "camera", "small", "hard", "occluded", "multi", "mirrored", "negatives", "photo"]


def _order(name):
    return (ORDER.index(name) if name in ORDER else len(ORDER), name)


def _dist(a, b):
    try:
        return ((float(a[0]) - float(b[0])) ** 2 + (float(a[1]) - float(b[1])) ** 2) ** 0.5
    except (TypeError, ValueError, IndexError):
        return float("inf")


def _round(v, nd=2):
    return None if v is None else round(float(v), nd)


def print_table(summary, out=sys.stdout):
    cols = [("category", 14), ("frames", 7), ("codes", 6), ("decoded%", 9), ("WRONG", 6), ("false", 6),
            ("detect%", 8), ("failed", 7), ("miss", 5), ("err", 4), ("ms_med", 8), ("ms_p90", 8),
            ("ctr_med", 8), ("ctr_p90", 8)]
    out.write(" ".join(name.rjust(w) if i else name.ljust(w) for i, (name, w) in enumerate(cols)) + "\n")

    def fmt(v):
        if v is None:
            return "-"
        if isinstance(v, float):
            return "%.1f" % v if abs(v) >= 10 else "%.2f" % v
        return str(v)

    rows = list(summary["categories"].items()) + [("TOTAL", summary["total"])]
    for name, s in rows:
        vals = [name, s["frames"], s["codes"], s["decoded_pct"], s["wrong"], s["false_decodes"], s["detected_pct"],
                s["failed_reports"], s["missing"], s["errors"], s["elapsed_ms_median"], s["elapsed_ms_p90"],
                s["center_error_px_median"], s["center_error_px_p90"]]
        out.write(" ".join(fmt(v).rjust(w) if i else fmt(v).ljust(w) for i, (v, (_, w)) in enumerate(zip(vals, cols)))
                  + "\n")
    for key, title in (("wrong", "WRONG URL"), ("false_decodes", "FALSE DECODE")):
        items = summary[key]
        for item in items[:20]:
            out.write("%s: %s -> %r (truth %r)\n" % (title, item["file"], item.get("url"), item.get("truth", [])))
        if len(items) > 20:
            out.write("... %d more %s\n" % (len(items) - 20, title))


def parse_require(text):
    req = {}
    for item in (text or "").split(","):
        if item.strip():
            name, _, pct = item.partition("=")
            req[name.strip()] = float(pct)
    return req


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", help="frame-set folder (searched recursively for ground-truth JSON)")
    ap.add_argument("--cli", help="appclipcode executable (default: .build-synth/release, .build/release, .build/debug)")
    ap.add_argument("--jsonl", help="score this saved decoder output instead of running the decoder")
    ap.add_argument("--save-jsonl", help="also write the decoder's output lines here")
    ap.add_argument("--decode-arg", action="append", default=[], help="extra argument for `appclipcode decode` (repeatable)")
    ap.add_argument("--batch", type=int, default=200, help="files per decoder process (default 200)")
    ap.add_argument("--only", help="comma-separated categories to score")
    ap.add_argument("--center-tol", type=float, default=0.2,
                    help="a report counts as a detection within this fraction of the code diameter (default 0.2)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--strict", action="store_true", help="exit 1 on any WRONG URL or false decode, or a missed --require")
    ap.add_argument("--require", help="minimum decoded %% per category, e.g. clean=99,camera=95 (with --strict)")
    args = ap.parse_args(argv)

    def log(msg):
        sys.stderr.write(msg + "\n")

    set_dir = os.path.abspath(args.set_dir)
    frames = load_frames(set_dir)
    if args.only:
        keep = set(args.only.split(","))
        frames = [(p, t) for p, t in frames if t.get("category") in keep]
    if not frames:
        raise SystemExit("no ground-truth frames under %s" % set_dir)

    if args.jsonl:
        with open(args.jsonl) as f:
            lines = parse_lines(f.read())
    else:
        cli = find_cli(args.cli)
        lines = run_cli(cli, [p for p, _ in frames], max(1, args.batch), args.decode_arg, log)
    if args.save_jsonl:
        with open(args.save_jsonl, "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")

    summary = score(frames, index_results(lines, set_dir), args.center_tol)
    summary["set"] = set_dir
    failures = []
    if summary["total"]["wrong"]:
        failures.append("%d WRONG URL(s)" % summary["total"]["wrong"])
    if summary["total"]["false_decodes"]:
        failures.append("%d false decode(s)" % summary["total"]["false_decodes"])
    for cat, pct in parse_require(args.require).items():
        got = summary["categories"].get(cat, {}).get("decoded_pct")
        if got is None or got < pct:
            failures.append("%s decoded %s%% < %s%%" % (cat, got, pct))
    summary["failures"] = failures
    if args.json:
        json.dump(summary, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print_table(summary)
        for f in failures:
            print("FAIL: " + f)
    return 1 if (args.strict and failures) else 0


if __name__ == "__main__":
    sys.exit(main())
