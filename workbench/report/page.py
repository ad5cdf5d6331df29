"""The balance report as one HTML page: a header, a table of contents, then each section's
text, tables and figures. plotly.js is inlined once in the head, so the page opens offline:
the basic partial bundle (lines and bars, about 1.2 MB) when it draws every figure
(:mod:`workbench.figures.bundle`).
"""
from __future__ import annotations

import datetime as _dt
import html
from typing import Sequence

from ..analysis import pool_label, pools_for
from ..rules.registry import get_system
from .sections import Table

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; background: white; }
header h1 { font-size: 28px; margin: 8px 0 4px; }
header p { color: #555; margin: 4px 0; }
nav ol { columns: 2; color: #0072b2; padding-left: 20px; }
nav a { color: #0072b2; text-decoration: none; }
section { margin-top: 40px; border-top: 1px solid #e5e5e5; padding-top: 8px; }
h2 { font-size: 22px; margin: 12px 0 6px; }
h3 { font-size: 16px; margin: 24px 0 6px; }
p.intro { color: #444; max-width: 860px; line-height: 1.45; }
p.note { color: #666; font-style: italic; }
.figure { margin: 12px 0 24px; }
table.wb-table { border-collapse: collapse; font-size: 13px; margin: 6px 0 16px; }
table.wb-table th { background: #f1f4f8; text-align: left; padding: 5px 10px;
                    border-bottom: 2px solid #cfd8e3; }
table.wb-table td { padding: 4px 10px; border-bottom: 1px solid #eee; vertical-align: top;
                    white-space: nowrap; }
table.wb-table td:last-child { white-space: normal; }
table.wb-table tr:hover td { background: #f8fafc; }
footer { color: #777; font-size: 12px; margin-top: 48px; }
"""


def render_page(title: str, sections: Sequence, systems: Sequence[str],
                variants: Sequence[str], pool_sizes: Sequence[int], *,
                progress: bool = False) -> str:
    """The whole page as text (see :func:`workbench.report.build_report`)."""
    from tqdm.auto import tqdm  # lazy: tqdm.auto loads ipywidgets

    from ..figures import figure_html  # lazy: plotly loads only to write a page
    from ..figures.bundle import plotly_script  # lazy: plotly

    body = []
    count = 0
    with tqdm(total=len(sections), desc="balance report", unit="section",
              disable=None if progress else True) as bar:
        for section in sections:
            parts = [f'<section id="{section.anchor}"><h2>{html.escape(section.title)}</h2>',
                     f'<p class="intro">{html.escape(section.intro)}</p>']
            for item in section.items:
                if isinstance(item, Table):
                    if item.caption:
                        parts.append(f"<h3>{html.escape(item.caption)}</h3>")
                    parts.append(item.html())
                elif isinstance(item, str):
                    parts.append(f'<p class="note">{html.escape(item)}</p>')
                else:
                    count += 1
                    parts.append(f'<div class="figure">{figure_html(item, div_id=f"figure-{count}")}</div>')
            parts.append("</section>")
            body.append("\n".join(parts))
            bar.update()
    drawn = [item for section in sections for item in section.items
             if not isinstance(item, (Table, str))]
    toc = "".join(f'<li><a href="#{s.anchor}">{html.escape(s.title)}</a></li>' for s in sections)
    chosen = ", ".join(systems) + (f"; variants {', '.join(variants)}" if variants else "")
    today = _dt.date.today().isoformat()
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
<script type="text/javascript">{plotly_script(drawn)}</script>
</head>
<body>
<main>
<header>
<h1>{html.escape(title)}</h1>
<p>Systems: {html.escape(chosen)}. {html.escape(pools_sentence(systems, pool_sizes))}
Made {today} with <code>workbench report</code>.</p>
</header>
<nav><ol>{toc}</ol></nav>
{"".join(body)}
<footer>Exact odds from the dice unless marked simulated; differences in percentage points (pp).</footer>
</main>
</body>
</html>
"""


def pools_sentence(systems: Sequence[str], pool_sizes: Sequence[int]) -> str:
    """What the curves and tables span, in each system's own words when they differ.

    Example:
        >>> pools_sentence(["uwr", "fons"], range(1, 11))
        'Pool sizes 1 to 10.'
        >>> pools_sentence(["uwr", "call-of-cthulhu-7e", "risk", "erzahlspiel"], range(1, 11))
        'Pools: uwr 1 to 10 dice; call-of-cthulhu-7e skill 10 to skill 90; risk attackers 1 to attackers 3.'
    """
    sizes = list(pool_sizes)
    # A system without a pool size (Erzählspiel's one die) has nothing to say here.
    spans = [(name, pools_for(name, sizes)) for name in systems if get_system(name).pool_parameter]
    if all(pools == sizes for _, pools in spans):
        return f"Pool sizes {sizes[0]} to {sizes[-1]}."
    parts = []
    for name, pools in spans:
        if not pools:
            continue
        last = pool_label(name, pools[-1])
        first = str(pools[0]) if last.endswith(" dice") else pool_label(name, pools[0])
        parts.append(f"{name} {last}" if len(pools) == 1 else f"{name} {first} to {last}")
    return "Pools: " + "; ".join(parts) + "."
