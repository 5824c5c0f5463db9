"""tools/score.py against a hand-made frame set and fake decoder output (no decoder needed).

    python3 -m unittest discover -s tools/tests -v
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORE = os.path.join(TOOLS, "score.py")


def frame(category, name, codes):
    return {"schema": "appclipcodekit.synth.frame/1", "category": category, "file": name + ".jpg",
            "width": 1280, "height": 720, "codes": codes, "lookalikes": []}


def code(url, center, diameter=200.0, payload=None):
    return {"url": url, "center": list(center), "diameter_px": diameter, "payload_hex": payload}


def report(state, url, center, payload=None):
    return {"state": state, "url": url, "payload_hex": payload, "version": 0, "center": list(center),
            "corners": [], "homography": [1, 0, 0, 0, 1, 0, 0, 0, 1], "palette": {}, "logo": "camera",
            "confidence": 0.9, "reason": None if state == "decoded" else "uncorrectable"}


class ScoreTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        frames = {
            "camera/a": frame("camera", "a", [code("https://example.com/shop", (100, 100))]),
            "camera/b": frame("camera", "b", [code("https://a.co", (500, 300))]),
            "camera/c": frame("camera", "c", [code("https://test.org", (640, 360))]),
            "multi/m": frame("multi", "m", [code("https://a.co", (200, 200)), code("https://my.app", (900, 500), 120,
                                                                                    "000000000000000000000000002474ec")]),
            "negatives/n1": frame("negatives", "n1", []),
            "negatives/n2": frame("negatives", "n2", []),
            "mirrored/x": frame("mirrored", "x", [code("https://x.de", (300, 300))]),
        }
        for rel, truth in frames.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel + ".json"), "w") as f:
                json.dump(truth, f)
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump({"schema": "appclipcodekit.synth.set/1", "frames": []}, f)

        def line(rel, codes, ms=10.0, error=None):
            return {"file": os.path.join(d, rel + ".jpg"), "width": 1280, "height": 720, "elapsed_ms": ms,
                    "codes": codes, "error": error}
        lines = [
            # right URL (differs only by a trailing slash and host case), 3 px off
            line("camera/a", [report("decoded", "https://EXAMPLE.com/shop", (103, 100))], 10),
            # a WRONG URL
            line("camera/b", [report("decoded", "https://b.co", (500, 300))], 20),
            # found but not read
            line("camera/c", [report("failed", None, (641, 361))], 30),
            # one right by URL, one right by payload only, and a duplicate
            line("multi/m", [report("decoded", "https://a.co/", (200, 201)),
                             report("decoded", None, (900, 500), "000000000000000000000000002474EC"),
                             report("decoded", "https://a.co", (205, 200))], 40),
            # a false decode on a negative
            line("negatives/n1", [report("decoded", "https://evil.example", (10, 10))], 50),
            line("negatives/n2", [], 60),
            # mirrored/x has no line at all (missing)
        ]
        self.jsonl = os.path.join(d, "fake.jsonl")
        with open(self.jsonl, "w") as f:
            f.write("some log line that is not JSON\n")
            for item in lines:
                f.write(json.dumps(item) + "\n")

    def tearDown(self):
        self.tmp.cleanup()

    def run_score(self, *extra):
        proc = subprocess.run([sys.executable, SCORE, self.tmp.name, "--jsonl", self.jsonl] + list(extra),
                              capture_output=True, text=True)
        return proc

    def test_counts(self):
        proc = self.run_score("--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        s = json.loads(proc.stdout)
        cam = s["categories"]["camera"]
        self.assertEqual((cam["frames"], cam["codes"], cam["decoded"], cam["wrong"], cam["detected"]), (3, 3, 1, 1, 3))
        self.assertEqual(cam["failed_reports"], 1)
        self.assertAlmostEqual(cam["decoded_pct"], 33.33, places=2)
        self.assertEqual(cam["center_error_px_median"], 3.0)
        self.assertEqual(cam["elapsed_ms_median"], 20.0)
        multi = s["categories"]["multi"]
        self.assertEqual((multi["decoded"], multi["duplicates"], multi["wrong"]), (2, 1, 0))
        neg = s["categories"]["negatives"]
        self.assertEqual((neg["frames"], neg["codes"], neg["false_decodes"], neg["frames_with_false_decodes"]),
                         (2, 0, 1, 1))
        self.assertIsNone(neg["decoded_pct"])
        self.assertEqual(s["categories"]["mirrored"]["missing"], 1)
        self.assertEqual(s["total"]["wrong"], 1)
        self.assertEqual(s["wrong"][0]["url"], "https://b.co")
        self.assertEqual(len(s["failures"]), 2)

    def test_strict_and_table(self):
        proc = self.run_score()
        self.assertEqual(proc.returncode, 0)
        self.assertIn("WRONG URL", proc.stdout)
        self.assertIn("TOTAL", proc.stdout)
        proc = self.run_score("--strict")
        self.assertEqual(proc.returncode, 1)
        proc = self.run_score("--strict", "--only", "multi", "--require", "multi=100")
        self.assertEqual(proc.returncode, 0, proc.stdout)
        proc = self.run_score("--strict", "--only", "camera", "--require", "camera=50")
        self.assertEqual(proc.returncode, 1)


if __name__ == "__main__":
    unittest.main()
