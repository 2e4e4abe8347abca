# SPDX-License-Identifier: GPL-2.0-only
"""The SVG figures, read as XML: the lag figure (whole, downsampled to its
extremes, and a window), the run-length plot, a claim's bars and the sweep
plot."""
import json
import os
import subprocess
import xml.etree.ElementTree as ET

from outputs_harness import EEVDF, DATA, SVG, run, test, path, doc


def panels(file):
    root = ET.parse(file).getroot()
    assert root.tag == SVG + "svg"
    return root, root.findall(f".//{SVG}g[@class='panel']")


def series(panel):
    return {g.get("data-name"): int(g.get("data-points")) for g in panel.findall(f"{SVG}g[@class='series']")}


@test
def svg_lag_figure():
    root, ps = panels(path("lag.svg"))
    assert len(ps) == 2
    names = {t["name"] for t in doc["tasks"]}
    assert set(series(ps[0])) == names and set(series(ps[1])) == names  # lag, and v - V
    for p in ps:
        assert float(p.get("data-x-min")) <= 0 and float(p.get("data-x-max")) >= 199, p.attrib
        assert all(n > 10 for n in series(p).values())
    lag_ms = doc["summary"]["max_abs_lag_ns"] / 1e6
    assert float(ps[0].get("data-y-max")) >= lag_ms * 0.99 or float(ps[0].get("data-y-min")) <= -lag_ms * 0.99
    texts = {t.get("class") for t in root.iter(SVG + "text")}
    assert {"title", "xlabel", "ylabel", "tick", "legend"} <= texts


@test
def svg_run_length_figure():
    f = path("runs.svg")
    run("plot", "runs", "--hz", "1000,100", "--slices", "3ms,6ms", "--duration", "1s", "-o", f)
    root, ps = panels(f)
    assert len(ps) == 1
    s = series(ps[0])
    # at HZ=100 both slices run one 10 ms tick: the second curve is the first, and says so
    assert list(s) == ["HZ=1000 slice=3ms", "HZ=1000 slice=6ms", "HZ=100 slice=3ms",
                       "HZ=100 slice=6ms (= HZ=100 slice=3ms)"], s
    dashed = [g.get("data-name") for g in ps[0].findall(f"{SVG}g[@class='series']")
              if g.find(f"{SVG}polyline").get("stroke-dasharray")]
    assert dashed == ["HZ=100 slice=6ms (= HZ=100 slice=3ms)"], dashed
    # no curve on the frame: the axes reach past 0..1 and past the longest run (10 ms)
    assert float(ps[0].get("data-y-min")) < 0 and float(ps[0].get("data-y-max")) > 1, ps[0].attrib
    assert float(ps[0].get("data-x-max")) > 10, ps[0].attrib
    legend = [t.text for t in root.iter(SVG + "text") if t.get("class") == "legend"]
    assert legend == list(s)
    # the canvas fits the longest legend (about 7 px a character after its swatch at x = 628)
    assert float(root.get("width")) >= 628 + 7 * max(len(n) for n in s), root.get("width")
    # a workload file is named in the title by its name, not its path
    run("plot", "runs", os.path.join(DATA, "rtapp", "tutorial_simple.json"), "--hz", "250", "--slices", "3ms",
        "--duration", "100ms", "-o", f)
    title = ET.parse(f).getroot().find(f"{SVG}title").text
    assert "tutorial_simple.json" in title and DATA not in title and "/" not in title, title


@test
def svg_claim_figure():
    claim = os.path.join(os.path.dirname(DATA), "..", "claims", "seed001-avgrun.json")
    f = path("claim.svg")
    p = subprocess.run([EEVDF, "check", claim, "--svg", f], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    rows = json.loads(subprocess.run([EEVDF, "check", claim, "--json"], capture_output=True, text=True).stdout)[0]["rows"]
    root, ps = panels(f)
    bars = [(b.get("data-series"), b.get("data-group"), float(b.get("data-value"))) for b in root.iter(SVG + "rect")
            if b.get("class") == "bar"]
    assert len(bars) == sum(2 if r.get("claimed") is not None else 1 for r in rows)
    for r in rows:
        model = [v for s, g, v in bars if s == "model" and g.startswith(r["row"])]
        assert len(model) == 1 and abs(model[0] - r["model"]) <= 1e-5 * max(1, abs(r["model"])), r["row"]
        if r.get("claimed") is not None:
            claimed = [v for s, g, v in bars if s == "claimed" and g.startswith(r["row"])]
            assert claimed and abs(claimed[0] - r["claimed"]) < 1e-9
    # one panel per claim and metric, each with its own value axis that reaches past its bars
    assert [p.get("data-title") for p in ps] == ["seed001-avgrun.json: mean_run_ms"], [p.get("data-title") for p in ps]
    assert float(ps[0].get("data-x-max")) > max(v for _, _, v in bars)
    # the canvas fits the longest row label (about 7 px a character, right-aligned at its left edge)
    width = float(root.get("width"))
    assert width >= 20 + 7 * max(len(g) for _, g, _ in bars) + 420, width
    two = path("claims2.svg")
    subprocess.run([EEVDF, "check", claim, os.path.join(os.path.dirname(DATA), "..", "claims", "seed004-nohz.json"),
                    "--svg", two], capture_output=True, text=True)
    _, ps = panels(two)
    assert [p.get("data-title") for p in ps] == ["seed001-avgrun.json: mean_run_ms", "seed004-nohz.json: ticks_per_second"]


def polyline_y_range(panel, name):
    """The data-space (min, max) of a series' polyline, from its pixels and the panel's axes."""
    rect = panel.find(f"{SVG}rect")
    top, h = float(rect.get("y")), float(rect.get("height"))
    y0, y1 = float(panel.get("data-y-min")), float(panel.get("data-y-max"))
    g = [g for g in panel.findall(f"{SVG}g[@class='series']") if g.get("data-name") == name][0]
    ys = [float(p.split(",")[1]) for p in g.find(f"{SVG}polyline").get("points").split()]
    val = lambda py: y0 + (top + h - py) / h * (y1 - y0)
    return val(max(ys)), val(min(ys)), (y1 - y0) / h  # value per pixel


@test
def a_long_lag_figure_keeps_every_extreme_and_a_window_zooms_in():
    svgf, chrome = path("long-lag.svg"), path("long-c.json")
    # tick jitter makes every period's peak different: every-k-th thinning missed them by up to 0.2 ms
    run("sim", "--hogs", "4", "--duration", "30s", "--tick-jitter", "300us", "--seed", "3", "--svg-lag", svgf, "--chrome", chrome)
    _, ps = panels(svgf)
    lags = {}
    for e in json.load(open(chrome))["traceEvents"]:
        if e["ph"] == "C" and e["name"].startswith("lag "):
            lags.setdefault(e["name"][4:], []).append(e["args"]["lag_ns"] / 1e6)
    for name, n in series(ps[0]).items():
        assert n <= 3004, (name, n)  # downsampled ...
        lo, hi, per_px = polyline_y_range(ps[0], name)
        assert abs(lo - min(lags[name])) <= per_px and abs(hi - max(lags[name])) <= per_px, (name, lo, hi)  # ... to the extremes
    assert "downsampled" in ps[0].get("data-title")
    w = path("win-lag.svg")
    run("sim", "--hogs", "4", "--duration", "30s", "--svg-lag", w, "--from", "1s", "--to", "1100ms")
    _, ps = panels(w)
    for p in ps:
        # the window, and 4 % more where the data reaches the frame
        assert 996 <= float(p.get("data-x-min")) and float(p.get("data-x-max")) <= 1104, p.attrib
        assert "downsampled" not in p.get("data-title")
    e = run("sim", "--hogs", "1", "--duration", "10ms", "--from", "1ms", code=2).stderr
    assert "--svg-lag" in e, e
    e = run("sim", "--hogs", "1", "--duration", "10ms", "--svg-lag", w, "--from", "5ms", "--to", "2ms", code=2).stderr
    assert "--to 2ms: must be after --from" in e, e


@test
def plot_sweep_draws_the_sweep_tables_metric_one_line_per_other_value():
    f = path("sweep.svg")
    sweeps = ["--sweep", "hz=100,1000", "--sweep", "slice=1ms..8ms"]
    run("plot", "sweep", "--hogs", "3", "--duration", "1s", *sweeps, "--metric", "switches", "-o", f)
    rows = json.loads(run("sim", "--hogs", "3", "--duration", "1s", *sweeps, "--json").stdout)
    root, ps = panels(f)
    assert list(series(ps[0])) == ["hz=100", "hz=1000"] and set(series(ps[0]).values()) == {4}, series(ps[0])
    rect = ps[0].find(f"{SVG}rect")
    top, h = float(rect.get("y")), float(rect.get("height"))
    y0, y1 = float(ps[0].get("data-y-min")), float(ps[0].get("data-y-max"))
    for g in ps[0].findall(f"{SVG}g[@class='series']"):
        hz = g.get("data-name").split("=")[1]
        want = [r["summary"]["switches"] for r in rows if str(r["sweep"]["hz"]) == hz]
        cy = [float(c.get("cy")) for c in g.findall(f"{SVG}circle")]
        got = [y0 + (top + h - y) / h * (y1 - y0) for y in cy]
        assert len(got) == len(want) and all(abs(a - b) <= (y1 - y0) / h for a, b in zip(got, want)), (hz, got, want)
    assert ps[0].get("data-title").startswith("switches")
    e = run("plot", "sweep", "--sweep", "hz=100,250", "--x", "slice", "-o", f, code=2).stderr
    assert "--x slice: not a swept key" in e, e
    e = run("plot", "sweep", "--sweep", "kernel=6.6,6.18", "-o", f, code=2).stderr
    assert "--x kernel: not a number" in e, e
    e = run("plot", "sweep", "--sweep", "hz=100,250", "--metric", "nope", "-o", f, code=2).stderr
    assert "--metric nope" in e, e
