"""A small Markdown-to-HTML converter for the rules pages (``src/parlour/rules/*.md``).

It covers what the rules files use: headings, paragraphs, bullet and numbered lists (one
level, with continuation lines), block quotes, fenced code, simple pipe tables, and inline
``**bold**``, ``*italic*``, ```code``` and ``[links](url)``. All text is HTML-escaped first,
so a rules file cannot inject markup.

>>> print(to_html("# Slapjack\\n\\nSlap the **Jack**.\\n\\n- one\\n- two *fast*"))
<h1 id="slapjack">Slapjack</h1>
<p>Slap the <strong>Jack</strong>.</p>
<ul>
<li>one</li>
<li>two <em>fast</em></li>
</ul>
>>> to_html("<script>x</script> [a](javascript:void)")
'<p>&lt;script&gt;x&lt;/script&gt; <a href="#">a</a></p>'
"""

from __future__ import annotations

import html
import re

_BULLET = re.compile(r"^\s*[-*+•]\s+(.*)$")
_NUMBER = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _inline(text: str) -> str:
    out = html.escape(text, quote=True)
    codes: list[str] = []

    def keep_code(m: re.Match[str]) -> str:
        codes.append(m.group(1))
        return f"\x00{len(codes) - 1}\x00"

    out = re.sub(r"`([^`]+)`", keep_code, out)

    def link(m: re.Match[str]) -> str:
        url = m.group(2)
        if not re.match(r"^(https?://|/|#|[\w./-]+$)", url) or url.lower().startswith("javascript"):
            url = "#"
        return f'<a href="{url}">{m.group(1)}</a>'

    out = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", out)
    out = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<em>\1</em>", out)
    return re.sub(r"\x00(\d+)\x00", lambda m: f"<code>{codes[int(m.group(1))]}</code>", out)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def to_html(markdown: str) -> str:
    """The HTML of ``markdown`` (a fragment, without ``<html>``)."""
    lines = markdown.splitlines()
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append(f"<{list_tag}>")
            out.extend(f"<li>{_inline(item)}</li>" for item in items)
            out.append(f"</{list_tag}>")
            items.clear()
            list_tag = ""

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            code: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(code))}</code></pre>")
        elif not stripped:
            flush()
        elif m := _HEADING.match(stripped):
            flush()
            level, text = len(m.group(1)), m.group(2)
            out.append(f'<h{level} id="{_slug(text)}">{_inline(text)}</h{level}>')
        elif stripped.startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            flush()
            head = "".join(f"<th>{_inline(c)}</th>" for c in _cells(stripped))
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append("<tr>" + "".join(f"<td>{_inline(c)}</td>"
                                             for c in _cells(lines[i])) + "</tr>")
                i += 1
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
            continue
        elif stripped.startswith(">"):
            flush()
            quote: list[str] = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].strip())
                i += 1
            out.append(f"<blockquote>{to_html(chr(10).join(quote))}</blockquote>")
            continue
        elif (m := _BULLET.match(line)) or (m := _NUMBER.match(line)):
            tag = "ul" if _BULLET.match(line) else "ol"
            if para or (items and tag != list_tag):
                flush()
            list_tag = tag
            items.append(m.group(1))
        elif items and line[:1] in (" ", "\t"):
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out)
