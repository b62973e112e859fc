"""axe-core in the browser tests: what it finds serious or critical on the page as it is now.

axe-core (Deque Systems, MPL-2.0) comes with the ``axe-playwright-python`` package of the
dev extras, which ships ``axe.min.js`` (axe 4.12 with version 0.1.8); its source is
evaluated through the browser's own protocol, which the page's Content-Security-Policy does
not govern, so the page under test runs under the very policy people get. axe's
experimental rules run too: ``label-content-name-mismatch`` (a control whose accessible
name does not contain the words it shows, so "click Stack 1" by voice misses it) is one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import axe_playwright_python

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")

RUN = """async () => {
    const rules = {};
    for (const rule of axe.getRules(["experimental"])) rules[rule.ruleId] = { enabled: true };
    const results = await axe.run(document, { resultTypes: ["violations"], rules });
    return results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 5)
            .map((n) => n.target.join(" ") + " " + (n.failureSummary || "").split("\\n").slice(1, 2)
            .join("")).join("; "));
}"""


def serious(page: Any) -> list[str]:
    """axe's serious and critical findings on ``page`` now, one line each (none: ``[]``)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE)
    found: list[str] = page.evaluate(RUN)
    return found
