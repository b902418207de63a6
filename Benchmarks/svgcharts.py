"""SVG charts for docs/benchmarks.md, written by `compare` with nothing but the Python standard library.

Two kinds: horizontal bars of ratios against a target line (one group per benchmark, one bar per contender), and
lines of throughput against the thread count (one panel per shape, one line per contender). Both render on GitHub as
plain images, with their own white background so that a dark page shows them too.
"""

from html import escape

# One colour per contender, the same in every chart.
COLOURS = {
    "floor": "#7f7f7f",
    "Mutex": "#bcbd22",
    "GCD": "#1f1f1f",
    "BoltsStyle": "#1f77b4",
    "PromiseKitStyle": "#d62728",
    "PromiseKitStyle cauterize": "#ff9896",
    "FBLStyle": "#2ca02c",
}
FONT = 'font-family="-apple-system, Helvetica, Arial, sans-serif"'


def colour(name):
    return COLOURS.get(name, "#9467bd")


def _svg(width, height, body):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} font-size="12">\n'
        f'<rect width="{width}" height="{height}" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def _text(x, y, text, anchor="start", size=12, weight="normal", fill="#000"):
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}">{escape(text)}</text>'
    )


def ratio_bars(title, groups, note):
    """groups: [(label, [(contender, ratio or None, target or None)])]; bars start at 0, a dashed tick marks each
    bar's target, and the bar's value is written at its end."""
    values = [r for _, bars in groups for _, r, t in bars for r in (r, t) if r is not None]
    top = max(values + [1.0]) * 1.1
    left, right, bar_h, gap = 190, 70, 14, 12
    plot_w = 520
    height = 60 + sum(len(bars) * bar_h + gap for _, bars in groups) + 40
    width = left + plot_w + right
    scale = plot_w / top
    body = [_text(10, 22, title, size=15, weight="bold")]
    y = 44
    # Vertical grid at each whole ratio, and the 1x line darker.
    step = 0.5 if top <= 4 else 1.0
    tick = 0.0
    while tick <= top:
        x = left + tick * scale
        stroke = "#444" if tick == 1.0 else "#ddd"
        body.append(f'<line x1="{x:.1f}" y1="{y - 6}" x2="{x:.1f}" y2="{height - 36}" stroke="{stroke}"/>')
        body.append(_text(x, height - 22, f"{tick:g}x", anchor="middle", size=10, fill="#555"))
        tick += step
    for label, bars in groups:
        body.append(_text(left - 8, y + bar_h * len(bars) / 2 + 4, label, anchor="end", weight="bold"))
        for contender, r, target in bars:
            if r is not None:
                body.append(
                    f'<rect x="{left}" y="{y}" width="{r * scale:.1f}" height="{bar_h - 2}" '
                    f'fill="{colour(contender)}"><title>{escape(contender)}: {r:.2f}x</title></rect>'
                )
                label_x = left + max(r, target or 0) * scale + 5  # past the target's tick, if it is further
                body.append(_text(label_x, y + bar_h - 4, f"{r:.2f}x", size=10))
            else:
                body.append(_text(left + 4, y + bar_h - 4, "n/a", size=10, fill="#555"))
            if target is not None:
                x = left + target * scale
                body.append(
                    f'<line x1="{x:.1f}" y1="{y - 1}" x2="{x:.1f}" y2="{y + bar_h - 1}" stroke="#000" '
                    f'stroke-width="2" stroke-dasharray="2,2"/>'
                )
            y += bar_h
        y += gap
    body.append(_text(10, height - 6, note, size=10, fill="#555"))
    # Legend: one swatch per contender, in order of first appearance.
    seen = []
    for _, bars in groups:
        for contender, _, _ in bars:
            if contender not in seen:
                seen.append(contender)
    lx = left
    for contender in seen:
        body.append(f'<rect x="{lx}" y="28" width="10" height="10" fill="{colour(contender)}"/>')
        body.append(_text(lx + 14, 37, contender, size=10))
        lx += 30 + 7 * len(contender)
    return _svg(width, height, body)


def throughput_lines(title, panels, note):
    """panels: [(panel title, unit, {contender: [(threads, throughput)]})]; the thread axis is logarithmic (1, 2,
    4, 8, 16), the throughput axis linear from 0, one panel beside the other."""
    panel_w, panel_h, margin = 300, 230, 58
    width = margin + len(panels) * (panel_w + margin)
    height = panel_h + 150
    body = [_text(10, 22, title, size=15, weight="bold")]
    import math

    for index, (panel_title, unit, series) in enumerate(panels):
        x0 = margin + index * (panel_w + margin)
        y0 = 50 + panel_h  # the x axis
        threads = sorted({t for points in series.values() for t, _ in points})
        top = max([v for points in series.values() for _, v in points] + [1]) * 1.1
        lo, hi = math.log2(threads[0]), math.log2(threads[-1]) if threads[-1] > threads[0] else 1

        def px(t):
            return x0 + (math.log2(t) - lo) / ((hi - lo) or 1) * panel_w

        def py(v):
            return y0 - v / top * panel_h

        body.append(_text(x0 + panel_w / 2, 44, panel_title, anchor="middle", weight="bold"))
        body.append(f'<rect x="{x0}" y="{y0 - panel_h}" width="{panel_w}" height="{panel_h}" fill="none" stroke="#999"/>')
        for t in threads:
            body.append(f'<line x1="{px(t):.1f}" y1="{y0 - panel_h}" x2="{px(t):.1f}" y2="{y0}" stroke="#eee"/>')
            body.append(_text(px(t), y0 + 14, str(t), anchor="middle", size=10))
        body.append(_text(x0 + panel_w / 2, y0 + 28, "threads", anchor="middle", size=10, fill="#555"))
        for k in range(5):
            v = top * k / 4
            body.append(f'<line x1="{x0}" y1="{py(v):.1f}" x2="{x0 + panel_w}" y2="{py(v):.1f}" stroke="#eee"/>')
            body.append(_text(x0 - 4, py(v) + 4, f"{v / 1e6:.1f}", anchor="end", size=10))
        body.append(_text(x0 - 44, y0 - panel_h - 8, f"M {unit}/s", size=10, fill="#555"))
        for contender, points in series.items():
            points = sorted(points)
            path = " ".join(f"{px(t):.1f},{py(v):.1f}" for t, v in points)
            body.append(f'<polyline points="{path}" fill="none" stroke="{colour(contender)}" stroke-width="2"/>')
            for t, v in points:
                body.append(
                    f'<circle cx="{px(t):.1f}" cy="{py(v):.1f}" r="3" fill="{colour(contender)}">'
                    f"<title>{escape(contender)}, {t} threads: {v / 1e6:.2f} M {escape(unit)}/s</title></circle>"
                )
    names = []
    for _, _, series in panels:
        for contender in series:
            if contender not in names:
                names.append(contender)
    lx = margin
    for contender in names:
        body.append(f'<rect x="{lx}" y="{height - 44}" width="10" height="10" fill="{colour(contender)}"/>')
        body.append(_text(lx + 14, height - 35, contender, size=10))
        lx += 30 + 7 * len(contender)
    body.append(_text(10, height - 12, note, size=10, fill="#555"))
    return _svg(width, height, body)
