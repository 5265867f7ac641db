"""Screenshots of the owner's console for the docs: ``python -m langmem_es_cli.screenshots [DIR]``
(or ``langmem-es serve --screenshots DIR``).

Starts ``langmem-es serve`` on a fresh embedded store and a free loopback port, writes
a small team's memories through the HTTP API (a supersession, a conflict, a playbook,
something forgotten), signs in as the owner in headless Chromium (Debian's
``chromium``; Playwright drives it, ``--chromium PATH`` or ``LANGMEM_ES_CHROMIUM``
to point elsewhere) and saves one PNG per page. Default DIR: ``docs/img``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["take_screenshots"]

TOKENS = {
    "owner": ("shot-owner-olga", "olga", "owner", ""),
    "sam": ("shot-member-sam", "sam", "member", "desk-sam"),
    "ravi": ("shot-member-ravi", "ravi", "member", "desk-ravi"),
}
WHY = "The team plans around it."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seed(url: str) -> dict[str, Any]:
    """A small team's memories, written through the API as its members would."""
    import httpx

    def client(who: str) -> httpx.Client:
        return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKENS[who][0]}"}, timeout=60)

    def put(c: httpx.Client, content: str, **kw: Any) -> dict[str, Any]:
        r = c.post("/v1/memories", json={"content": content, "reason": WHY, **kw})
        r.raise_for_status()
        return dict(r.json())

    with client("owner") as olga, client("sam") as sam, client("ravi") as ravi:
        put(olga, "The team stand-up is at 9:30.", subject_key="team.standup_time", scope="shared")
        standup = put(
            olga,
            "The team stand-up moved to 10:00.",
            subject_key="team.standup_time",
            scope="shared",
            sources=["chat:2026-11-28#14"],
        )
        put(sam, "Sam lives in Bristol.", subject_key="user.home_city")
        put(sam, "Sam moved to Edinburgh.", subject_key="user.home_city")
        put(
            sam,
            "Reset the smart hub by holding the button for ten seconds.",
            kind="procedural",
            scope="shared",
            steps=["hold the reset button for 10 s", "wait for the blue light", "re-pair the sensors"],
        )
        put(ravi, "Ravi demoed the new billing flow to ACME.", kind="episodic", scope="shared")
        put(
            sam,
            "The office wifi password is tulip-7.",
            subject_key="office.wifi_password",
            scope="shared",
            sources=["email:1182"],
        )
        put(
            ravi,
            "The office wifi password is orchid-9.",
            subject_key="office.wifi_password",
            scope="shared",
            sources=["chat:2026-11-29#3"],
        )
        put(
            sam,
            "ACME renews on 1 March.",
            subject_key="customer.acme.renewal_date",
            scope="shared",
            sources=["crm:acme"],
        )
        conflict = put(
            ravi,
            "ACME renews on 1 April.",
            subject_key="customer.acme.renewal_date",
            scope="shared",
            sources=["email:4411"],
        )
        a = next(c for c in olga.get("/v1/conflicts").json() if c["id"] == conflict["conflict_id"])
        olga.post(f"/v1/conflicts/{a['id']}/resolve", json={"winner": a["memory_ids"][0]}).raise_for_status()
        put(sam, "The old VPN host is vpn1.internal.", subject_key="office.vpn_host", scope="shared")
        olga.post("/v1/forget", json={"subject_key": "office.vpn_host"})
    return {"history": standup["id"]}


def take_screenshots(out_dir: str | Path = "docs/img", *, chromium: str | None = None) -> list[Path]:
    """Serve, seed, and save the console's pages as ``console-*.png`` in ``out_dir``; returns the files."""
    import httpx
    from playwright.sync_api import sync_playwright

    from langmem_es.errors import MissingDependencyError

    browser_path = chromium or os.environ.get("LANGMEM_ES_CHROMIUM") or shutil.which("chromium")
    if not browser_path:
        raise MissingDependencyError("screenshots need Chromium: apt-get install -y chromium (or --chromium PATH)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="langmem-shots-"))
    tokens = work / "tokens.toml"
    tokens.write_text(
        "".join(
            f'[[tokens]]\ntoken = "{t}"\ntenant = "acme"\nuser_id = "{u}"\nroles = ["{r}"]\n'
            + (f'agent_id = "{a}"\n' if a else "")
            for t, u, r, a in TOKENS.values()
        )
    )
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (work / "serve.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "langmem_es_cli.main",
            "serve",
            "--port",
            str(port),
            "--tokens",
            str(tokens),
            "--path",
            str(work / "memory.db"),
            "--shared-writers",
            "desk-sam,desk-ravi",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    written: list[Path] = []
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"the server did not start: {(work / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.2)
        seeded = _seed(url)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(base_url=url, viewport={"width": 1280, "height": 800}).new_page()
            page.goto("/console/login")
            page.fill("#token", TOKENS["owner"][0])
            page.click("#sign-in")
            pages = [
                ("memories", "/console/"),
                ("history", f"/console/memory/{seeded['history']}"),
                ("conflicts", "/console/conflicts"),
                ("audit", "/console/audit"),
                ("health", "/console/health"),
                ("forget", "/console/forget"),
            ]
            for name, path in pages:
                page.goto(path)
                if name == "conflicts" and page.locator(".conflict").count() == 0:
                    continue
                if name == "forget":
                    page.fill("input[name=subject_key]", "team.standup_time")
                    page.click("#preview")
                target = out / f"console-{name}.png"
                page.screenshot(path=str(target), full_page=True)
                written.append(target)
            browser.close()
    finally:
        server.terminate()
        server.wait(15)
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    return written


if __name__ == "__main__":  # pragma: no cover
    for shot in take_screenshots(sys.argv[1] if len(sys.argv) > 1 else "docs/img"):
        print(shot)
