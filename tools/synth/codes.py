"""Where codes come from, and their high-resolution renders.

Codes are made by the project's generator CLI (`appclipcode generate ...`). While that
does not exist, or when asked to, the Apple-generated SVGs of the shared corpus are used
instead, recolored to the requested template and with the logo swapped (the rings are
Apple's own, so the URL is still right). Either way the SVG is rendered by rsvg-convert,
an independent renderer, never by the project's own rasterizer.

Everything is cached under the cache folder, keyed by content, so runs are repeatable.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections import OrderedDict

import cv2
import numpy as np

import svgcode

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(svgcode.SHARED, "corpus")
# Where the generator is looked for unless one is named: the synthesiser's own build, then the
# README's release build. A set's codes must not depend on which of them happens to exist, so a
# missing generator is an error (CodeFactory), not a quiet switch to the Apple corpus.
DEFAULT_GENERATORS = (os.path.join(ROOT, ".build-synth", "release", "appclipcode"),
                      os.path.join(ROOT, ".build", "release", "appclipcode"))
LOGO_KINDS = ("camera", "nfc", "none")


def templates():
    out = []
    for t in svgcode.tables()["palettes"]["templates"]:
        out.append({"index": t["index"], "foreground": t["foreground"].upper(),
                    "background": t["background"].upper(), "third": t["third"].upper()})
    return out


def midpoint(fg, bg):
    a = [int(fg[i:i + 2], 16) for i in (0, 2, 4)]
    b = [int(bg[i:i + 2], 16) for i in (0, 2, 4)]
    return "%02X%02X%02X" % tuple((x + y + 1) // 2 for x, y in zip(a, b))


def _sha1(data):
    return hashlib.sha1(data if isinstance(data, bytes) else data.encode()).hexdigest()


def _file_digest(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def corpus_urls():
    """URLs from the shared corpus: the Apple SVG manifest and the payload vectors."""
    urls, payloads = [], {}
    try:
        with open(os.path.join(CORPUS, "payload_vectors.json")) as f:
            for item in json.load(f):
                payloads[item["url"]] = item["payload_hex"]
                urls.append(item["url"])
    except OSError:
        pass
    try:
        with open(os.path.join(CORPUS, "apple", "manifest.json")) as f:
            for item in json.load(f):
                urls.append(item["url"])
    except OSError:
        pass
    seen, out = set(), []
    for u in urls:
        if u not in seen:
            seen.add(u)
            out.append(u)
    return out, payloads


class Code:
    """One generated code: its SVG file and what the drawing says."""

    def __init__(self, url, svg_path, template, palette, logo, info, source, payload_hex=None):
        self.url = url
        self.svg_path = svg_path
        self.template = template          # 0..17 or None for custom colors
        self.palette = palette            # requested colors, hex strings
        self.logo = logo                  # camera | nfc | none
        self.info = info                  # svgcode.parse() of the file
        self.source = source              # "appclipcode generate" or "apple-corpus-recolored"
        self.payload_hex = payload_hex
        with open(svg_path, "rb") as f:
            self.svg_sha1 = _sha1(f.read())

    def truth(self):
        return {
            "url": self.url,
            "payload_hex": self.payload_hex,
            "template": self.template,
            "palette": dict(self.palette),
            "logo": self.logo,
            "version": self.info["version"],
            "gap_inverted": self.info["inverted"],
            "svg_sha1": self.svg_sha1,
            "code_source": self.source,
        }


class CodeFactory:
    def __init__(self, cache_dir, generator=None, use_corpus=False, log=print):
        self.cache_dir = cache_dir
        self.svg_dir = os.path.join(cache_dir, "svg")
        self.render_dir = os.path.join(cache_dir, "render")
        os.makedirs(self.svg_dir, exist_ok=True)
        os.makedirs(self.render_dir, exist_ok=True)
        self.log = log
        self._renders = OrderedDict()
        self.cache_bytes = 600 << 20
        self._payloads = corpus_urls()[1]
        self.generator = None
        self.generator_id = None
        if not use_corpus:
            for cmd in [generator] if generator else DEFAULT_GENERATORS:
                path = shutil.which(cmd) or (cmd if os.path.isfile(cmd) else None)
                if path and os.access(path, os.X_OK):
                    self.generator = path
                    self.generator_id = _file_digest(path)[:16]
                    break
            # The two kinds of code give different sets from one seed (other URLs, logos and
            # colours per frame), so which one a command makes is never left to chance.
            if self.generator is None:
                raise SystemExit("generator not found or not executable: %s (build it: swift build -c release "
                                 "--product appclipcode; or pass --corpus for Apple's SVGs recolored)"
                                 % (generator or " or ".join(DEFAULT_GENERATORS)))
        if self.generator is None:
            self._corpus = self._load_corpus()
            log("codes: the Apple corpus (%d SVGs) recolored (--corpus)" % len(self._corpus))
        else:
            log("codes: generator %s" % self.generator)

    @property
    def mode(self):
        return "generator" if self.generator else "corpus"

    # ------------------------------------------------------------------ making codes

    def candidate_urls(self):
        if self.generator:
            return corpus_urls()[0]
        return sorted(self._corpus)

    def make(self, url, template=None, colors=None, logo="camera"):
        """A Code, or None when the generator rejects the URL."""
        if template is not None:
            t = templates()[template]
            palette = {"foreground": t["foreground"], "background": t["background"], "third": t["third"]}
        else:
            fg, bg = colors
            palette = {"foreground": fg.upper(), "background": bg.upper(), "third": None}
        if self.generator:
            return self._make_generated(url, template, palette, logo)
        return self._make_corpus(url, template, palette, logo)

    def _make_generated(self, url, template, palette, logo):
        args = ["generate", "--url", url]
        if template is not None:
            args += ["--index", str(template)]
        else:
            args += ["--foreground", palette["foreground"], "--background", palette["background"]]
        if logo == "none":
            args += ["--type", "cam", "--logo", "none"]
        else:
            args += ["--type", "cam" if logo == "camera" else "nfc", "--logo", "badge"]
        key = _sha1(json.dumps([self.generator_id] + args))
        path = os.path.join(self.svg_dir, key + ".svg")
        rejected = path + ".rejected"
        if os.path.exists(rejected):
            return None
        if not os.path.exists(path):
            tmp = path + ".tmp.svg"
            proc = subprocess.run([self.generator] + args + ["--output", tmp],
                                  capture_output=True, text=True)
            if proc.returncode == 2:          # the generator's "invalid URL" exit status
                with open(rejected, "w") as f:
                    f.write((proc.stderr or proc.stdout or "").strip() + "\n")
                return None
            if proc.returncode != 0 or not os.path.exists(tmp):
                raise RuntimeError("generator failed (exit %d) for %s: %s"
                                   % (proc.returncode, " ".join(args), (proc.stderr or "").strip()[-400:]))
            os.replace(tmp, path)
        return self._finish(url, path, template, palette, logo, "appclipcode generate")

    def _finish(self, url, path, template, palette, logo, source):
        with open(path) as f:
            info = svgcode.parse(f.read())
        drawn = info["palette"]
        if palette["third"] is None:
            palette = dict(palette, third=drawn.get("third"))
        for key in ("foreground", "background"):
            if drawn.get(key) and drawn[key] != palette[key]:
                raise ValueError("%s: drawn %s %s, asked for %s" % (path, key, drawn[key], palette[key]))
        if logo != "none" and info["logo"] not in (logo, "unknown"):
            raise ValueError("%s: drawn logo %s, asked for %s" % (path, info["logo"], logo))
        return Code(url, path, template, palette, logo, info, source, self._payloads.get(url))

    # ------------------------------------------------------------------ corpus fallback

    def _load_corpus(self):
        with open(os.path.join(CORPUS, "apple", "manifest.json")) as f:
            items = json.load(f)
        return {item["url"]: os.path.join(CORPUS, "apple", item["file"]) for item in items}

    def _make_corpus(self, url, template, palette, logo):
        src = self._corpus.get(url)
        if src is None:
            return None
        third = palette["third"] or midpoint(palette["foreground"], palette["background"])
        palette = dict(palette, third=third)
        with open(src) as f:
            text = f.read()
        text = recolor_apple_svg(text, palette, logo)
        key = _sha1(text)
        path = os.path.join(self.svg_dir, "corpus_" + key + ".svg")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write(text)
        return self._finish(url, path, template, palette, logo, "apple-corpus-recolored")

    # ------------------------------------------------------------------ renders

    def render(self, code, size):
        """Premultiplied BGRA uint8 render of size x size covering the viewBox 0..800."""
        key = (code.svg_sha1, size)
        img = self._renders.get(key)
        if img is not None:
            self._renders.move_to_end(key)
            return img
        path = os.path.join(self.render_dir, "%s_%d.png" % (code.svg_sha1, size))
        if not os.path.exists(path):
            tmp = path + ".tmp.png"
            subprocess.run(["rsvg-convert", "-w", str(size), "-h", str(size), "-o", tmp, code.svg_path],
                           check=True)
            os.replace(tmp, path)
        img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if img is None or img.shape != (size, size, 4):
            raise RuntimeError("bad render %s" % path)
        a = img[:, :, 3:4].astype(np.uint16)
        img = np.concatenate([((img[:, :, :3].astype(np.uint16) * a + 127) // 255).astype(np.uint8),
                              img[:, :, 3:4]], axis=2)
        self._renders[key] = img
        while sum(v.nbytes for v in self._renders.values()) > self.cache_bytes:
            self._renders.popitem(last=False)
        return img


def recolor_apple_svg(text, palette, logo):
    """Apple template-0 SVG -> the same rings in another palette, with another logo."""
    fg, bg, third = ("#" + palette[k].lower() for k in ("foreground", "background", "third"))
    text = re.sub(r'(id="Background"[^>]*fill:)#[0-9a-fA-F]{6}', lambda m: m.group(1) + bg, text)
    text = re.sub(r'(data-color="0"[^>]*stroke:)#[0-9a-fA-F]{6}', lambda m: m.group(1) + fg, text)
    text = re.sub(r'(data-color="1"[^>]*stroke:)#[0-9a-fA-F]{6}', lambda m: m.group(1) + third, text)
    logo_group = re.search(r'\s*<g id="Logo".*?</g>', text, re.S)
    if logo_group is None:
        raise ValueError("corpus SVG without a Logo group")
    if logo == "camera":
        body = re.sub(r"fill:#[0-9a-fA-F]{6}", "fill:" + fg, logo_group.group(0))
    elif logo == "nfc":
        nfc = svgcode.tables()["logos"]["nfc"]
        body = ('\n    <g id="Logo" data-logo-type="NFC" transform="%s">\n'
                '        <path d="%s" style="fill:%s"/>\n        <path d="%s" style="fill:%s"/>\n    </g>'
                % (nfc["transform_example"], nfc["outer_circle"], fg, nfc["phone_screen"], third))
    else:
        body = ""
    return text[:logo_group.start()] + body + text[logo_group.end():]
