"""The owner's console in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Locally these tests skip when no Chromium is installed; in CI (``CI`` set) or with
``LANGMEM_ES_REQUIRED=1`` they FAIL instead (``apt-get install -y chromium``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import sync_playwright

from .conftest import Server, required
from .test_http_api import WHY, recall_texts, remember


def chromium_path() -> str:
    path = os.environ.get("LANGMEM_ES_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        message = "no Chromium for the console's browser tests: apt-get install -y chromium"
        if required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page_as(browser, server: Server):
    contexts = []

    def open_as(who: str):
        context = browser.new_context(base_url=server.url)
        contexts.append(context)
        page = context.new_page()
        page.goto("/console/login")
        page.fill("#token", server.tokens[who])
        page.click("#sign-in")
        return page

    yield open_as
    for c in contexts:
        c.close()


def test_signed_out_visitors_are_sent_to_sign_in(browser, server: Server) -> None:
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    page.goto("/console/conflicts")
    assert page.url.endswith("/console/login")  # a first visit: a sign-in prompt, not an error
    assert page.locator(".error").count() == 0
    assert "langmem-es serve --tokens FILE" in page.text_content("#sign-in-help")
    page.fill("#token", "not-a-valid-token")
    page.click("#sign-in")
    assert "unknown bearer token" in page.text_content("#error-message")
    context.close()


def test_a_stale_sign_in_says_why_on_the_sign_in_page(browser, server: Server) -> None:
    context = browser.new_context(base_url=server.url)
    host = server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": "langmem_token", "value": server.tokens["expired"], "domain": host, "path": "/console"}]
    )
    page = context.new_page()
    page.goto("/console/")
    assert "/console/login?error=" in page.url
    assert "bearer token expired" in page.text_content(".error")
    context.close()


def test_owner_filtering_by_user_is_told_what_an_owner_cannot_see(page_as, server: Server) -> None:
    with server.client("member") as sam:
        private = remember(sam, "Sam's locker code is 4711.", subject_key="user.locker_code")
        shared = remember(sam, "The kettle is descaled on Fridays.", subject_key="office.kettle", scope="shared")
    page = page_as("owner")
    page.goto("/console/")
    assert "another user's are never shown, even to an owner" in " ".join(page.text_content("#visibility").split())
    page.goto("/console/?user=sam")
    assert page.locator(f"#memories tr[data-id='{shared['id']}']").count() == 1  # written through sam's agent
    assert page.locator(f"#memories tr[data-id='{private['id']}']").count() == 0  # the policy: own only
    assert (
        "Only the shared memories of sam can be shown: their private and conversation memories are never shown, "
        "even to an owner." in " ".join(page.text_content("#visibility").split())
    )


def test_owner_resolves_a_conflict_and_the_next_recall_shows_the_winner(page_as, server: Server) -> None:
    key = "office.door_code"
    with server.client("member") as sam, server.client("member2") as ravi:
        a = remember(sam, "The office door code is 2468.", subject_key=key, scope="shared")
        b = remember(ravi, "The office door code is 1357.", subject_key=key, scope="shared")
        assert b["action"] == "conflict"
        assert recall_texts(sam, "office door code", kinds=["semantic"])[0] == "The office door code is 1357."

        page = page_as("owner")
        page.goto("/console/conflicts")
        card = page.locator(f".conflict[data-id='{b['conflict_id']}']")
        assert "The office door code is 2468." in card.text_content() and "sam" in card.text_content()
        card.locator(f"button[data-winner='{a['id']}']").click()
        assert f"{b['conflict_id']} resolved: {a['id']} kept" in page.text_content("#notice")
        assert page.locator(f".conflict[data-id='{b['conflict_id']}']").count() == 0

        assert recall_texts(ravi, "office door code", kinds=["semantic"])[0] == "The office door code is 2468."
        page.goto(f"/console/memory/{a['id']}")
        rows = page.locator("#history tr[data-id]")
        assert rows.count() == 2 and "active" in page.locator(f"#history tr[data-id='{a['id']}']").text_content()


def test_owner_browses_and_reads_a_facts_history(page_as, server: Server) -> None:
    with server.client("owner") as olga:
        old = remember(olga, "The team stand-up is at 9:30.", subject_key="team.standup_time", scope="shared")
        new = remember(olga, "The team stand-up moved to 10:00.", subject_key="team.standup_time", scope="shared")
    page = page_as("owner")
    assert page.url.endswith("/console/")
    page.goto("/console/?kind=semantic&scope=shared&status=superseded")
    assert page.locator(f"#memories tr[data-id='{old['id']}']").count() == 1
    assert page.locator(f"#memories tr[data-id='{new['id']}']").count() == 0
    page.goto("/console/?q=stand-up")
    assert page.locator(f"#memories tr[data-id='{new['id']}']").count() == 1
    page.click(f"a[href='/console/memory/{new['id']}']")
    history = page.text_content("#history")
    assert history.index("9:30") < history.index("10:00") and "superseded by" in history and WHY in history
    page.goto("/console/audit")
    page.goto("/console/health")
    assert "sqlite" in page.text_content("#health")


def test_member_is_refused_the_owner_pages_and_sees_their_own(page_as, server: Server) -> None:
    with server.client("member") as sam:
        mine = remember(sam, "Sam's bike is the green one.", subject_key="user.bike")
    page = page_as("member")
    assert page.url.endswith("/console/mine")
    assert page.locator(f"#memories tr[data-id='{mine['id']}']").count() == 1
    for path in (
        "/console/",
        "/console/conflicts",
        "/console/forget",
        "/console/purge",
        "/console/audit",
        "/console/health",
        "/console/pending",
        f"/console/memory/{mine['id']}",
    ):
        response = page.goto(path)
        assert response.status == 403, path
        assert "for the workspace owner" in page.text_content("#error-message")
    # a member's form post is refused the same way (and changes nothing)
    r = httpx.post(
        server.url + "/console/purge",
        data={"user_id": "olga", "confirm_user": "olga"},
        cookies={"langmem_token": server.tokens["member"]},
    )
    assert r.status_code == 403


def test_purge_needs_the_user_id_typed_twice(page_as, server: Server) -> None:
    with server.client("member2") as ravi:
        remember(ravi, "Ravi's locker is 31.", subject_key="user.locker")
    page = page_as("owner")
    page.goto("/console/purge")
    page.fill("#purge-user", "ravi")
    page.fill("#purge-confirm", "rav")
    page.click("#purge")
    assert "type the user id 'ravi' again" in page.text_content("main")
    page.fill("#purge-user", "ravi")
    page.fill("#purge-confirm", "ravi")
    page.click("#purge")
    assert "purged user ravi" in page.text_content("#notice")
    with server.client("member2") as ravi:
        assert "Ravi's locker is 31." not in recall_texts(ravi, "locker")


def test_forget_preview_lists_every_copy_then_forgets(page_as, server: Server) -> None:
    with server.client("owner") as olga:
        a = remember(olga, "The supplier contact is Dana.", subject_key="team.supplier_contact", scope="shared")
        b = remember(olga, "The supplier contact is now Eli.", subject_key="team.supplier_contact", scope="shared")
    page = page_as("owner")
    page.goto("/console/forget")
    page.fill("input[name=subject_key]", "team.supplier_contact")
    page.click("#preview")
    preview = page.locator("#forget-preview")
    assert "2 copies will be forgotten" in preview.text_content()
    assert (
        preview.locator(f"tr[data-id='{a['id']}']").count() == 1
        and preview.locator(f"tr[data-id='{b['id']}']").count() == 1
    )
    with server.client("owner") as olga:  # nothing is gone yet
        assert olga.get(f"/v1/memories/{b['id']}").status_code == 200
    page.click("#confirm-forget")
    assert "forgot 2" in page.text_content("#notice")
    with server.client("owner") as olga:
        assert olga.get(f"/v1/memories/{b['id']}").status_code == 404
        assert "supplier contact" not in " ".join(recall_texts(olga, "supplier contact"))


def test_cross_site_form_posts_are_refused(server: Server) -> None:
    with server.client("member") as sam:
        remember(sam, "Sam's bike is the green one.", subject_key="user.bike")
    cookies = {"langmem_token": server.tokens["owner"]}
    r = httpx.post(
        server.url + "/console/purge",
        data={"user_id": "sam", "confirm_user": "sam"},
        cookies=cookies,
        headers={"Origin": "http://evil.example"},
    )
    assert r.status_code == 403 and "cross-site form post refused" in r.text
    with server.client("member") as sam:
        assert sam.get("/v1/whoami").status_code == 200 and recall_texts(sam, "bike")  # sam's memories are still there
