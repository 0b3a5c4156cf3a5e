#!/usr/bin/env python3
"""The HTML report, rendered by headless Chromium and checked from its DOM.

  check_report.py PTX2AMDGPU FIXTURE.ptx WORKDIR [--screenshot OUT.png]

What the page must show is not taken from the page generator: each
translated line's rule and AMD mnemonics are compared with what
`ptx2amdgpu explain` gives for that instruction alone, each rule's hover
note with `ptx2amdgpu rules --format=json`, the register counts with
`--stats=json`, and every unsupported line with the driver's own
diagnostics. The screenshot is decoded and must show the page's error and
translated row colours. Exits non-zero with a message on any mismatch.
"""
import html.parser
import json
import os
import re
import struct
import subprocess
import sys
import zlib

TARGET = "gfx1100"


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args, ok_codes=(0,), cwd=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=cwd,
                       env=dict(os.environ, NO_COLOR="1"))
    if p.returncode not in ok_codes:
        fail(f"{args}: exit {p.returncode}\n{p.stderr[:2000]}")
    return p


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for d in os.environ.get("PATH", "").split(os.pathsep):
            path = os.path.join(d, name)
            if os.access(path, os.X_OK):
                return path
    fail("Chromium is not installed (scripts/setup.sh installs Debian's chromium)")


def chromium(browser, args, url):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--disable-dev-shm-usage", *args, url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if p.returncode != 0:
        fail(f"chromium failed ({p.returncode}): {p.stderr[-2000:]}")
    return p.stdout


class Dom(html.parser.HTMLParser):
    """The listing rows, function rows and rule spans of the rendered page."""

    def __init__(self):
        super().__init__()
        self.rows = {}        # line -> {"class":..., "cells": [text...], "rules": [(name, title)]}
        self.functions = {}   # name -> {"vgprs":..., "sgprs":...}
        self.summary = None
        self._row = None
        self._cell = None
        self._fn = None
        self._fn_cell = None
        self._span = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-line" in a:
            self._row = {"class": a.get("class", ""), "cells": [], "rules": []}
            self.rows[int(a["data-line"])] = self._row
        elif tag == "tr" and "data-function" in a:
            self._fn = {"cells": []}
            self.functions[a["data-function"]] = self._fn
        elif tag == "td" and self._row is not None:
            self._cell = ""
        elif tag == "td" and self._fn is not None:
            self._fn_cell = ""
        elif tag == "span" and "rule" in a.get("class", "").split() and self._row is not None:
            self._span = {"title": a.get("title"), "note": a.get("data-note"), "name": ""}
        elif tag == "p" and "summary" in a.get("class", ""):
            self.summary = a
        elif tag == "br" and self._cell is not None:
            self._cell += "\n"

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._row["cells"].append(self._cell)
            self._cell = None
        elif tag == "td" and self._fn_cell is not None:
            self._fn["cells"].append(self._fn_cell)
            self._fn_cell = None
        elif tag == "tr":
            self._row = None
            self._fn = None
        elif tag == "span" and self._span is not None:
            self._row["rules"].append(self._span)
            self._span = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._fn_cell is not None:
            self._fn_cell += data
        if self._span is not None:
            self._span["name"] += data


def png_pixels(path):
    """Width, height and the set of RGB colours of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                fail(f"unexpected PNG format depth={depth} colour={colour}")
            bpp = 3 if colour == 2 else 4
        elif ctype == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    colours, prev = set(), bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            colours.add(tuple(line[x:x + 3]))
        prev = line
    return width, height, colours


def main():
    if len(sys.argv) < 4:
        fail(__doc__)
    tool, fixture, work = sys.argv[1:4]
    work = os.path.abspath(work)
    shot = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--screenshot" else os.path.join(work, "report.png")
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, "report.html")
    out_s = os.path.join(work, "out.s")

    # Run from the fixture's folder with its bare name, so that the report (and
    # the screenshot docs/report.png copies) names no machine's paths.
    fixture = os.path.abspath(fixture)
    p = run([os.path.abspath(tool), os.path.basename(fixture), "-o", out_s, "-mcpu=" + TARGET, "--report=" + report,
             "--stats=json"], ok_codes=(1,), cwd=os.path.dirname(fixture))
    stats = json.loads(p.stdout)
    diagnostics = p.stderr
    source = open(fixture, encoding="utf-8").read().split("\n")

    browser = find_chromium()
    dom_text = chromium(browser, ["--dump-dom"], "file://" + os.path.abspath(report))
    dom = Dom()
    dom.feed(dom_text)

    # Every source line is in the listing, with its text.
    for n, text in enumerate(source[:-1] if source[-1] == "" else source, start=1):
        row = dom.rows.get(n)
        if row is None:
            fail(f"line {n} is missing from the listing")
        if row["cells"][1].rstrip() != text.replace("\t", "    ").rstrip():
            fail(f"line {n}: shows {row['cells'][1]!r}, the file has {text!r}")

    # Errors: every located diagnostic's line is highlighted with its message.
    errors = re.findall(r"^[^:\n]+:(\d+):\d+: (error|warning): (.*)$", diagnostics, re.M)
    if len(errors) < 3:
        fail("expected at least three diagnostics from the fixture:\n" + diagnostics)
    for line, kind, msg in errors:
        row = dom.rows[int(line)]
        if kind not in row["class"].split():
            fail(f"line {line} ({kind}: {msg}) is not highlighted as {kind}: class={row['class']!r}")
        if re.sub(r" \[-W[a-z-]+\]$", "", msg) not in row["cells"][2]:
            fail(f"line {line}: the message {msg!r} is not shown: {row['cells'][2]!r}")

    # Translated lines: the rule and the AMD mnemonics explain gives for the
    # instruction alone; the hover note is the rule table's restriction.
    translated = [n for n, r in dom.rows.items() if "translated" in r["class"].split()]
    if len(translated) < 5:
        fail(f"only {len(translated)} translated lines")
    restriction_cache = {}
    for n in translated:
        row = dom.rows[n]
        if not row["rules"]:
            # Kernel ABI code, memory and special registers are lowered
            # directly, not by a rule: labelled so, with code beside them.
            # A statement folded into another (a constant into its readers, a
            # bitwise tree into one lop3) says so and has no code of its own;
            # so does a uniform value its readers take from its SGPRs.
            if ("folded into" in row["cells"][3] or "read in place" in row["cells"][3]) and not row["cells"][2].strip():
                continue
            if "kernel ABI / memory" not in row["cells"][3] or not row["cells"][2].strip():
                fail(f"line {n}: neither a rule nor the kernel-lowering label: {row['cells']!r}")
            continue
        # A bitwise tree fused into one lop3 uses the lop3 rule, not the line's own.
        if "fused with line" in row["cells"][3]:
            continue
        instr = source[n - 1].strip().rstrip(";")
        ex = json.loads(run([tool, "explain", "--format=json", "-mcpu=" + TARGET, instr + ";"]).stdout)
        want_rule = ex["instructions"][0]["rule"]
        want_ops = [g.split()[0] for g in ex["instructions"][0]["gcn"]]
        # Issue-order additions (waits, hazard nops, gfx11+ s_delay_alu hints)
        # depend on the neighbouring code, not on the rule: compare the rest.
        got_ops = [op for op in (g.split()[0] for g in row["cells"][2].split("\n") if g.strip())
                   if op not in ("s_delay_alu", "s_nop", "v_nop") and not op.startswith("s_wait")]
        if [r["name"] for r in row["rules"]] != [want_rule]:
            fail(f"line {n}: rule {[r['name'] for r in row['rules']]}, explain says {want_rule}")
        if got_ops != want_ops:
            fail(f"line {n}: AMD {got_ops}, explain says {want_ops}")
        if want_rule not in restriction_cache:
            rj = json.loads(run([tool, "rules", "--format=json", "-mcpu=" + TARGET, want_rule]).stdout)
            restriction_cache[want_rule] = next(r["restriction"] for r in rj["rules"] if r["name"] == want_rule)
        for span in row["rules"]:
            if span["title"] != restriction_cache[want_rule] or span["note"] != restriction_cache[want_rule]:
                fail(f"line {n}: hover note {span['note']!r} is not the rule's restriction")
        cost = float(row["cells"][4])
        if cost != ex["instructions"][0]["cost"]:
            fail(f"line {n}: cost {cost}, explain says {ex['instructions'][0]['cost']}")

    # Register use per function, as --stats=json reports it.
    for f in stats["per_file"][0]["functions"]:
        row = dom.functions.get(f["name"])
        if row is None:
            fail(f"function {f['name']} missing from the page")
        if int(row["cells"][3]) != f["vgprs"] or int(row["cells"][4]) != f["sgprs"]:
            fail(f"function {f['name']}: page VGPR/SGPR {row['cells'][3:5]}, stats {f['vgprs']}/{f['sgprs']}")
    if dom.summary is None or dom.summary.get("data-failed") != "1":
        fail("the summary does not count the failed file")

    # The rendered page: error rows pink, translated PTX cells green.
    chromium(browser, ["--window-size=1200,1300", "--screenshot=" + os.path.abspath(shot)],
             "file://" + os.path.abspath(report))
    width, height, colours = png_pixels(shot)
    if (width, height) != (1200, 1300):
        fail(f"screenshot is {width}x{height}")
    # Solid backgrounds only: text colours are anti-aliased differently by
    # each font and Chromium version.
    for name, rgb in (("error row", (0xff, 0xeb, 0xe9)), ("translated row", (0xee, 0xf8, 0xf0)),
                      ("warning row", (0xff, 0xf8, 0xc5)), ("table header", (0xf6, 0xf8, 0xfa))):
        if rgb not in colours:
            fail(f"the screenshot shows no {name} colour #{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}")
    print(f"report OK: {len(dom.rows)} lines, {len(translated)} translated, {len(errors)} diagnostics; "
          f"screenshot {shot}")


if __name__ == "__main__":
    main()
