#!/usr/bin/python3
"""Renders a pacl trace (PACL_TRACE / `pacl run --trace`) as one self-contained HTML page: a
timeline with one track per host thread and per stream (spans, instants) and, below it, the op
kernels with their arguments. For a quick look without Perfetto or network access; the same file
opens in https://ui.perfetto.dev and chrome://tracing.

    python3 scripts/trace_html.py trace.json trace.html [--title TEXT]
"""
import argparse
import html
import json
import zlib

WIDTH = 1400       # pixels of the timeline area
LABEL = 190        # pixels of the track labels
ROW = 22           # pixels per lane
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#86bcb6", "#8cd17d", "#d37295"]


def color(name):
    return PALETTE[zlib.crc32(name.encode()) % len(PALETTE)]


def lanes_for(spans):
    """Nested spans go to deeper lanes (a span starts inside the one before it)."""
    ends = []
    out = []
    for s in sorted(spans, key=lambda e: (e["ts"], -e.get("dur", 0))):
        lane = 0
        while lane < len(ends) and ends[lane] > s["ts"] + 1e-9:
            lane += 1
        if lane == len(ends):
            ends.append(0)
        ends[lane] = s["ts"] + s.get("dur", 0)
        out.append((lane, s))
    return out, max(1, len(ends))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    events = json.load(open(a.trace))
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    timed = [e for e in events if e.get("ph") in ("X", "i", "I")]
    if not timed:
        raise SystemExit("the trace holds no timed events")
    t0 = min(e["ts"] for e in timed)
    t1 = max(e["ts"] + e.get("dur", 0) for e in timed)
    scale = WIDTH / max(t1 - t0, 1e-3)
    tracks = {}
    for e in timed:
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)

    svg, y = [], 30
    # Time axis.
    step = 10 ** len(str(int((t1 - t0) / 8) or 1)) / 10
    while (t1 - t0) / step > 12:
        step *= 2
    t = 0.0
    while t <= t1 - t0:
        x = LABEL + t * scale
        svg.append(f'<line x1="{x:.1f}" y1="22" x2="{x:.1f}" y2="100%" stroke="#e4e4e4"/>'
                   f'<text x="{x + 2:.1f}" y="16" class="axis">{t:.0f} µs</text>')
        t += step
    for key in sorted(tracks, key=lambda k: (k[0], k[1])):
        spans = [e for e in tracks[key] if e["ph"] == "X"]
        instants = [e for e in tracks[key] if e["ph"] != "X"]
        placed, nlanes = lanes_for(spans)
        h = nlanes * ROW + (10 if instants else 0)
        label = names.get(key, f"pid {key[0]} tid {key[1]}")
        svg.append(f'<rect x="0" y="{y}" width="{LABEL + WIDTH}" height="{h}" fill="#fafafa" stroke="#ddd"/>'
                   f'<text x="6" y="{y + 15}" class="track">{html.escape(label)}</text>')
        for lane, s in placed:
            x = LABEL + (s["ts"] - t0) * scale
            w = max(s.get("dur", 0) * scale, 1.0)
            args = s.get("args", {})
            tip = f'{s["name"]}  {s.get("dur", 0):.1f} µs'
            if "kernel" in args:
                tip += f'\nkernel {args["kernel"]}, workspace {args.get("workspace_bytes", 0)} B'
                tip += "\n" + "\n".join(args.get("inputs", []) + args.get("outputs", []))
            sy = y + lane * ROW + 2
            svg.append(f'<g><title>{html.escape(tip)}</title><rect x="{x:.2f}" y="{sy}" width="{w:.2f}" '
                       f'height="{ROW - 4}" rx="2" fill="{color(s["name"])}"/>')
            if w > 7 * len(s["name"]):
                svg.append(f'<text x="{x + 3:.2f}" y="{sy + 13}" class="span">{html.escape(s["name"])}</text>')
            svg.append("</g>")
        for s in instants:
            x = LABEL + (s["ts"] - t0) * scale
            svg.append(f'<g><title>{html.escape(s["name"] + " " + json.dumps(s.get("args", {})))}</title>'
                       f'<path d="M{x:.2f},{y + h - 9} l4,8 l-8,0 z" fill="#333"/></g>')
        y += h + 6

    kernels = [e for e in timed if e["ph"] == "X" and "kernel" in e.get("args", {})]
    rows = "".join(
        f'<tr><td>{e["ts"] - t0:.1f}</td><td>{e.get("dur", 0):.1f}</td><td>{html.escape(names.get((e["pid"], e["tid"]), ""))}</td>'
        f'<td>{html.escape(e["args"]["op"])}</td><td>{html.escape(e["args"]["kernel"])}</td>'
        f'<td>{e["args"].get("workspace_bytes", 0)}</td>'
        f'<td>{html.escape(", ".join(e["args"].get("inputs", [])))}</td>'
        f'<td>{html.escape(", ".join(e["args"].get("outputs", [])))}</td></tr>' for e in kernels)
    title = a.title or a.trace
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>
body {{ font: 13px system-ui, sans-serif; margin: 16px; color: #222; }}
.axis {{ font-size: 10px; fill: #777; }} .track {{ font-size: 12px; fill: #333; font-weight: 600; }}
.span {{ font-size: 11px; fill: #fff; pointer-events: none; }}
table {{ border-collapse: collapse; margin-top: 14px; }} td, th {{ border: 1px solid #ddd; padding: 3px 7px; text-align: left; }}
th {{ background: #f0f0f0; }}
</style></head><body>
<h3>{html.escape(title)}</h3>
<div>{len(timed)} events over {t1 - t0:.0f} µs; {len(tracks)} tracks (host threads: API calls; streams: tasks). Hover a span for its details.</div>
<svg width="{LABEL + WIDTH + 10}" height="{y + 10}" xmlns="http://www.w3.org/2000/svg">{''.join(svg)}</svg>
<table><tr><th>start µs</th><th>µs</th><th>stream</th><th>op</th><th>kernel</th><th>workspace B</th><th>inputs</th><th>outputs</th></tr>{rows}</table>
</body></html>"""
    open(a.out, "w").write(page)


if __name__ == "__main__":
    main()
