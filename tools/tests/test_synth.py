"""Checks of the synthesiser: determinism, ground-truth geometry, occlusion bookkeeping.

    python3 -m unittest discover -s tools/tests -v

Needs rsvg-convert, the pip packages of tools/requirements.txt and the sample photos
(tools/setup_synth.sh); uses the project's generator when built, else the Apple corpus.
"""
import glob
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYNTH = os.path.join(TOOLS, "synth")
sys.path.insert(0, SYNTH)

import camera  # noqa: E402
import codes  # noqa: E402
import glare_capacity  # noqa: E402
import occlusion  # noqa: E402
import scene  # noqa: E402
import svgcode  # noqa: E402

CACHE = os.path.join(os.path.dirname(TOOLS), "out", "cache")


def digest(folder):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "**", "*"), recursive=True)):
        if os.path.isfile(path) and not path.endswith("manifest.json"):
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = hashlib.sha1(f.read()).hexdigest()
    return out


class DeterminismTest(unittest.TestCase):
    def test_same_seed_same_files(self):
        counts = "clean=1,camera=2,small=1,hard=1,occluded=1,multi=1,mirrored=1,negatives=2"
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for out in (a, b):
                subprocess.run([sys.executable, os.path.join(SYNTH, "make_sets.py"), "--out", out, "--seed", "11",
                                "--preset", "quick", "--counts", counts, "--pool", "24", "--corpus"],
                               check=True, capture_output=True)
            da, db = digest(a), digest(b)
            self.assertEqual(len(da), 2 * 10)
            self.assertEqual(da, db)
            with open(os.path.join(a, "manifest.json")) as f:
                manifest = json.load(f)
            self.assertEqual(len(manifest["frames"]), 10)


class GeometryTest(unittest.TestCase):
    def test_rim_and_homography_match_the_pixels(self):
        """Template 0 (black disc) on white: just inside the projected rim is dark, just outside
        is white, at every angle — the homography is right to well under a pixel."""
        factory = codes.CodeFactory(CACHE, use_corpus=True, log=lambda *a: None)
        url = factory.candidate_urls()[0]
        code = factory.make(url, template=0, logo="camera")
        k = camera.intrinsics(1280, 720, 65.0)
        for tilt, roll in ((0.0, 0.0), (35.0, 70.0)):
            R, t = camera.pose_at_pixel(k, (600.3, 377.8), 0.5, tilt, 30.0, roll)
            D = 0.5 * 300 / k["fx"]
            spec = {"category": "test", "width": 1280, "height": 720, "intrinsics": k, "background": "white",
                    "codes": [{"code": code, "R": R, "t": t, "diameter_m": D}], "jpeg_quality": None}
            img, truth = scene.render(spec, factory, None, np.random.default_rng(1))
            gray = img.mean(axis=2)
            H = np.array(truth["codes"][0]["homography"]).reshape(3, 3)
            for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
                # 1.2 px inside / outside along the rim normal, measured in pixels
                p_in = camera.apply_h(H, [(400 + 396 * math.cos(a), 400 + 396 * math.sin(a))])[0]
                p_rim = camera.apply_h(H, [(400 + 400 * math.cos(a), 400 + 400 * math.sin(a))])[0]
                n = (p_rim - p_in) / np.linalg.norm(p_rim - p_in)
                inside = p_rim - 1.5 * n
                outside = p_rim + 1.5 * n
                self.assertLess(gray[int(round(inside[1])), int(round(inside[0]))], 60, (tilt, a))
                self.assertGreater(gray[int(round(outside[1])), int(round(outside[0]))], 200, (tilt, a))
            c = truth["codes"][0]
            self.assertAlmostEqual(c["tilt_deg"], tilt, places=6)
            rim = camera.apply_h(H, camera.RIM_SVG)
            self.assertTrue(np.allclose(rim, np.array(c["rim_points"]), atol=1e-3))
            if tilt == 0:
                self.assertAlmostEqual(c["diameter_px"], 300.0, delta=0.5)
                self.assertAlmostEqual(c["center"][0], 600.3, delta=1e-3)

    def test_mirrored_homography(self):
        k = camera.intrinsics(1280, 720, 65.0)
        R, t = camera.pose_at_pixel(k, (300.0, 200.0), 0.4, 20.0, 10.0, 0.0)
        H, geo = scene.geometry_truth(k, R, t, 0.05, 1280, True)
        self.assertAlmostEqual(geo["center"][0], 1279 - 300.0, places=3)
        # mirrored: the "right" rim point lies left of the center
        self.assertLess(geo["rim_points"][1][0], geo["center"][0])


class OcclusionTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(svgcode.SHARED, "corpus", "apple", "apple_010.svg")) as f:
            self.info = svgcode.parse(f.read())

    def test_corpus_geometry_reads_as_version_0_with_template_byte(self):
        self.assertEqual(self.info["version"], 0)
        self.assertTrue(self.info["template_byte_ok"])

    def test_template_position_is_never_within_capacity(self):
        # ring 5 position 4 carries a template bit: aim a small sticker at its boundary
        ring5 = svgcode.rings()[4]
        angle = ring5["rotation_deg"] + 4 * 360.0 / ring5["positions"]
        occ = {"shape": "disc", "angle_deg": angle, "reach": ring5["radius"] - 5, "radius": 12.0, "bgr": [0, 0, 0]}
        acc = occlusion.account([occ], self.info)
        self.assertGreater(acc["symbols_at_risk"]["template_bits"], 0)
        self.assertFalse(acc["within_capacity"])

    def test_nothing_touched(self):
        occ = {"shape": "disc", "angle_deg": 10.0, "reach": 395.0, "radius": 30.0, "bgr": [0, 0, 0]}
        acc = occlusion.account([occ], self.info)
        self.assertEqual(acc["positions_touched"], [])
        self.assertTrue(acc["within_capacity"])


class GlareCapacityTest(unittest.TestCase):
    """What a highlight hides, on a frontal code 800 px across (SVG units are pixels)."""

    def setUp(self):
        with open(os.path.join(svgcode.SHARED, "corpus", "apple", "apple_010.svg")) as f:
            self.info = svgcode.parse(f.read())
        palette = {k: v.lstrip("#").upper() for k, v in self.info["palette"].items() if v}
        self.code = {"homography": [1, 0, 0, 0, 1, 0, 0, 0, 1], "palette": palette, "contrast": 1.0}

    def lost(self, glares, levels=4):
        truth = {"width": 800, "height": 800, "glare": glares}
        exposure = glare_capacity.Exposure(truth, self.code, cache_dir=None)
        record = glare_capacity.lost_record(exposure, self.info, levels, 0.99, 0.99)
        return glare_capacity.verdict(record, self.info)

    def test_no_highlight_hides_nothing(self):
        self.assertEqual(self.lost([]), ("within", (0, 0)))

    def test_highlight_off_the_code_hides_nothing(self):
        self.assertEqual(self.lost([{"x": -3000, "y": 400, "radius_px": 100, "strength": 5.0}]), ("within", (0, 0)))

    def test_highlight_clipping_everything_is_beyond_capacity(self):
        verdict, (gap_bits, arc_bits) = self.lost([{"x": 400, "y": 400, "radius_px": 5000, "strength": 20.0}])
        self.assertEqual(verdict, "beyond")
        self.assertEqual(gap_bits, 104)

    def test_stronger_highlight_hides_at_least_as_much(self):
        # Strengths where the highlight over the upper rings already hides some bits: each
        # stronger one must hide no fewer gap or arc bits, and the strongest more in all.
        hidden = [self.lost([{"x": 400, "y": 120, "radius_px": 90, "strength": s}])[1] for s in (1.2, 2.0, 3.0)]
        self.assertGreater(sum(hidden[0]), 0)
        for weaker, stronger in zip(hidden, hidden[1:]):
            self.assertGreaterEqual(stronger[0], weaker[0])
            self.assertGreaterEqual(stronger[1], weaker[1])
        self.assertGreater(sum(hidden[-1]), sum(hidden[0]))


if __name__ == "__main__":
    unittest.main()
