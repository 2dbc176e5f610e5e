"""Drives the operator console (`GET /console`) in Debian's Chromium through Playwright, against a running
urlsessiond: one scenario per run (see `Tests/IntegrationTests/ConsoleTests.swift`).

    console_browser.py SCENARIO --base URL --token T --admin-token T --origin URL [--screenshot FILE]

Each scenario prepares what it needs through the API (urllib, the same tokens), then acts and looks only
through the page. A failed check raises: the exit status is 1 and the traceback says which check. Every
wait is bounded (Playwright's timeouts, `deadline` loops).
"""

import argparse
import http.server
import json
import re
import threading
import time
import urllib.error
import urllib.request

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 20_000


class API:
    """The service's API with one token, through urllib."""

    def __init__(self, base, token):
        self.base, self.token = base, token

    def call(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {token or self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, self._body(response)
        except urllib.error.HTTPError as error:
            return error.code, self._body(error)

    @staticmethod
    def _body(response):
        """JSON answers parsed; anything else (a downloaded file) as bytes."""
        body = response.read()
        if not body:
            return None
        return json.loads(body) if "json" in (response.headers.get("Content-Type") or "") else body

    def ok(self, method, path, body=None):
        status, answer = self.call(method, path, body)
        assert 200 <= status < 300, f"{method} {path}: {status} {answer}"
        return answer

    def session(self, **members):
        return self.ok("POST", "/v1/sessions", {"configuration": {"kind": "default"}, **members})

    def task(self, session, url, kind="download", resume=False, **members):
        body = {"kind": kind, "request": {"url": url}, "resume": resume, **members}
        return self.ok("POST", f"/v1/sessions/{session['id']}/tasks", body)


def until(check, what, seconds=20):
    """Polls `check` (a function returning a truthy value) for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Browser:
    """One headless Chromium page, with the page's errors and policy violations collected."""

    def __init__(self, playwright, width=1280, height=900):
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        self.context = self.browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.problems = []
        self.dialogs = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))

    def _console(self, message):
        text = message.text
        # Failed API calls (401 of a wrong token, 403 of a user token on /v1/admin, 422 of a create the
        # page's forms send with a mistake) are expected; a policy violation or a script error never is.
        if message.type == "error" and not re.search(r"status of (401|403|404|422)", text):
            self.problems.append(f"console {message.type}: {text}")

    def sign_in(self, base, token):
        self.page.goto(base + "/console")
        self.page.fill("#token", token)
        self.page.click("#sign-in button[type=submit]")
        expect(self.page.locator("#nav")).to_be_visible()

    def close(self):
        assert not self.problems, f"the page reported: {self.problems}"
        assert not self.dialogs, f"a dialog opened (script ran): {self.dialogs}"
        self.browser.close()


def scenario_sign_in(playwright, options, api):
    browser = Browser(playwright)
    page = browser.page
    response = page.goto(options.base + "/console")
    headers = response.headers
    policy = headers["content-security-policy"]
    for directive in ["script-src 'self'", "frame-ancestors 'none'", "default-src 'none'", "form-action 'none'"]:
        assert directive in policy, f"{directive} missing from {policy}"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
    assert headers["x-frame-options"] == "DENY"
    assert page.locator("script:not([src])").count() == 0, "an inline script"

    # A wrong token: the 401 problem's own title and detail are shown.
    status, problem = api.call("GET", "/v1/usage", token="not-a-valid-token-0000")
    assert status == 401, status
    page.fill("#token", "not-a-valid-token-0000")
    page.click("#sign-in button[type=submit]")
    expect(page.locator("#sign-in-error")).to_have_text(f"{problem['title']}: {problem['detail']}")
    expect(page.locator("#nav")).to_be_hidden()
    assert page.evaluate("sessionStorage.length") == 0, "a refused token was kept"

    # The right one: the tenant's name, and a session created afterwards appears without a reload.
    page.fill("#token", options.token)
    page.click("#sign-in button[type=submit]")
    expect(page.locator("#who")).to_have_text("tenantA")
    expect(page.locator("#nav-admin")).to_be_hidden()  # a user token
    session = api.session(sessionDescription="appears while watching")
    row = page.locator(f"tr[data-session='{session['id']}']")
    expect(row).to_contain_text("appears while watching")
    expect(row).to_contain_text("default")

    # The token is in this tab's sessionStorage only: never in a URL, a cookie or localStorage.
    assert page.evaluate("sessionStorage.getItem('urlsessiond.token')") == options.token
    assert page.evaluate("localStorage.length") == 0
    assert browser.context.cookies() == []
    assert options.token not in page.url
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.reload()
    expect(row).to_be_visible()  # still signed in after a reload of the tab
    assert requested and not any(options.token in url for url in requested), requested

    page.click("#sign-out")
    expect(page.locator("#sign-in")).to_be_visible()
    assert page.evaluate("sessionStorage.length") == 0
    browser.close()


def scenario_progress(playwright, options, api):
    receiver = Receiver()
    receiver.accepting = True
    session = api.session(sessionDescription="nightly exports", delegate={"url": receiver.url})
    # 1.5 MB at 300 kB/s: about five seconds of progress to watch.
    slow = api.task(session, f"{options.origin}/bytes/1500000?seed=7&rate=300000", taskDescription="slow export")
    done = api.task(session, f"{options.origin}/bytes/65536?seed=3", resume=True, taskDescription="small report")
    api.ok("GET", f"/v1/tasks/{done['id']}?wait=10")
    endless = api.task(session, f"{options.origin}/bytes/50000000?seed=9&rate=100000", resume=True, taskDescription="archive")
    api.task(session, f"{options.origin}/bytes/1000?seed=1", taskDescription="waiting its turn")
    resumable = api.task(session, f"{options.origin}/bytes/50000000?seed=11&rate=100000", resume=True, taskDescription="mirror")

    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    page.goto(f"{options.base}/console#/sessions/{session['id']}")
    expect(page.locator(".live")).to_have_text("live")
    bar = page.locator(f"tr[data-task='{slow['id']}'] [role=progressbar]")
    expect(page.locator(f"tr[data-task='{slow['id']}']")).to_contain_text("suspended")

    api.ok("POST", f"/v1/tasks/{slow['id']}/resume")
    seen = []
    shot = False
    rates = []  # the row's figures while it runs: the throughput and the time left, from the task's progress

    def progressed():
        value = bar.get_attribute("aria-valuenow")
        if value is not None and (not seen or seen[-1] != int(value)):
            seen.append(int(value))
        return seen and seen[-1] == 100

    deadline = time.monotonic() + 30
    while not progressed():
        assert time.monotonic() < deadline, f"the bar stopped at {seen}"
        if seen and 20 <= seen[-1] <= 90:
            rates.append(page.locator(f"tr[data-task='{slow['id']}'] .figures").text_content())
        if options.screenshot and not shot and seen and 35 <= seen[-1] <= 75:  # the README's picture
            page.screenshot(path=options.screenshot, full_page=True)
            shot = True
        time.sleep(0.1)
    moving = [value for value in seen if 0 < value < 100]
    assert len(moving) >= 3, f"the bar did not move through the download: {seen}"
    assert seen == sorted(seen), f"the bar went backwards: {seen}"
    assert any(re.search(r"\d+ KiB/s · .* left", figures) for figures in rates), f"no throughput or time left: {rates}"
    expect(page.locator(f"tr[data-task='{slow['id']}']")).to_contain_text("completed")
    expect(page.locator(f"tr[data-task='{slow['id']}'] .figures")).to_contain_text("100 %")
    assert api.ok("GET", f"/v1/tasks/{slow['id']}")["countOfBytesReceived"] == 1_500_000

    # Cancel the endless download from its row.
    row = page.locator(f"tr[data-task='{endless['id']}']")
    expect(row).to_contain_text("running")
    row.get_by_role("button", name="Cancel").click()
    expect(row).to_contain_text("cancelled")
    cancelled = api.ok("GET", f"/v1/tasks/{endless['id']}")
    assert cancelled["state"] == "completed" and cancelled["error"]["code"] == -999, cancelled

    # The finished task's page: request, response, the metrics timeline and the events.
    page.locator(f"tr[data-task='{slow['id']}'] a").click()
    expect(page.locator("#view h1")).to_contain_text("download task")
    expect(page.locator(".timeline .row")).to_have_count(1)
    expect(page.locator(".timeline .phase.response")).to_have_count(1)
    expect(page.locator("#events code", has_text="downloadTask.didFinishDownloadingTo")).to_be_visible()
    page.get_by_role("button", name="Delete file").click()
    until(lambda: api.call("GET", f"/v1/tasks/{slow['id']}/file")[0] == 404, "the file to be deleted")

    # Cancel producing resume data, from the task's page: the page shows the resume data.
    page.goto(f"{options.base}/console#/tasks/{resumable['id']}")
    until(lambda: api.ok("GET", f"/v1/tasks/{resumable['id']}")["countOfBytesReceived"] > 0, "the mirror to receive bytes")
    page.get_by_role("button", name="Cancel producing resume data").click()
    expect(page.locator("textarea")).not_to_be_empty()
    ended = api.ok("GET", f"/v1/tasks/{resumable['id']}")
    assert ended["error"]["code"] == -999, ended
    assert ended["error"]["userInfo"]["NSURLSessionDownloadTaskResumeData"] == page.locator("textarea").input_value()
    expect(page.locator("#view .toolbar")).to_contain_text("cancelled")
    receiver.shutdown()
    browser.close()


class Receiver(http.server.ThreadingHTTPServer):
    """A delegate's webhook receiver that fails (500) until told to accept; it counts what it accepted."""

    def __init__(self):
        self.accepting = False
        self.accepted = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(handler):
                body = handler.rfile.read(int(handler.headers.get("Content-Length", 0)))
                status = 204 if self.accepting else 500
                if self.accepting:
                    self.accepted.append(json.loads(body))
                handler.send_response(status)
                handler.send_header("Content-Length", "0")
                handler.end_headers()

            def log_message(handler, *arguments):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"


def scenario_held_webhook(playwright, options, api):
    receiver = Receiver()
    # A background session without launch events holds its delegate queue once the delegate is unreachable.
    session = api.ok("POST", "/v1/sessions", {
        "configuration": {"kind": "background", "identifier": "com.example.console", "sessionSendsLaunchEvents": False},
        "delegate": {"url": receiver.url},
        "sessionDescription": "held deliveries",
    })
    api.task(session, f"{options.origin}/bytes/2048?seed=5", kind="data", resume=True)
    until(lambda: (api.ok("GET", f"/v1/sessions/{session['id']}").get("delivery") or {}).get("state") == "held",
          "the delegate queue to be held")

    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    row = page.locator(f"tr[data-session='{session['id']}']")
    expect(row).to_contain_text("held")
    row.locator("a").click()
    expect(page.locator("#delegate")).to_contain_text("held")
    resend = page.get_by_role("button", name="Re-send held webhooks")
    expect(resend).to_be_enabled()

    receiver.accepting = True
    resend.click()
    until(lambda: any(event["type"] == "task.didCompleteWithError" for event in receiver.accepted),
          "the held events to reach the receiver")
    expect(page.locator("#delegate")).to_contain_text("idle", timeout=WAIT_MS)
    sequences = [event["sequence"] for event in receiver.accepted]
    assert sequences == sorted(sequences) and sequences[0] == 1, sequences
    receiver.shutdown()
    browser.close()


def scenario_escaping(playwright, options, api):
    hostile = "<script>window.__pwned=1</script>"
    session = api.session(sessionDescription="<img src=x onerror=\"window.__pwned=2\">")
    url = f"{options.origin}/status/404?q={hostile}"
    task = api.ok("POST", f"/v1/sessions/{session['id']}/tasks", {
        "kind": "data", "resume": True, "taskDescription": hostile,
        "request": {"url": url, "allHTTPHeaderFields": {"X-Note": "<b onmouseover=alert(3)>bold</b>"}},
    })
    shown_url = api.ok("GET", f"/v1/tasks/{task['id']}?wait=10")["originalRequest"]["url"]

    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    expect(page.locator(f"tr[data-session='{session['id']}']")).to_contain_text(session["sessionDescription"])
    page.goto(f"{options.base}/console#/sessions/{session['id']}")
    link = page.locator(f"tr[data-task='{task['id']}'] a")
    expect(link).to_have_text(shown_url)
    assert "<script>" in link.text_content(), "the URL is shown as it is, as text"
    link.click()
    expect(page.locator("#view h1")).to_contain_text(hostile)
    expect(page.locator("td", has_text="<b onmouseover=alert(3)>bold</b>").first).to_be_visible()
    assert page.evaluate("window.__pwned") is None, "a script from the data ran"
    assert page.locator("main img, main script, main b").count() == 0, "markup from the data became elements"
    browser.close()


def scenario_phone(playwright, options, api):
    session = api.session(sessionDescription="ten thousand")
    for batch in range(10):
        tasks = [{"kind": "data", "request": {"url": f"{options.origin}/bytes/1?n={batch * 1000 + index}"}} for index in range(1000)]
        answer = api.ok("POST", f"/v1/sessions/{session['id']}/tasks/batch", {"tasks": tasks})
        assert all("id" in item for item in answer["items"]), "a member was refused"

    browser = Browser(playwright, width=390, height=844)
    page = browser.page
    browser.sign_in(options.base, options.token)
    started = time.monotonic()
    page.goto(f"{options.base}/console#/sessions/{session['id']}")
    rows = page.locator("tr[data-task]")
    expect(rows).to_have_count(50)
    expect(rows.first).to_contain_text("1")
    expect(page.get_by_role("button", name="Next")).to_be_enabled()
    assert time.monotonic() - started < 10, "a page of a 10,000-task session took too long"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    page.get_by_role("button", name="Next").click()
    expect(rows.first.locator("td").first).to_have_text("51")
    expect(page.locator(".pager")).to_contain_text("Page 2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    browser.close()


def scenario_admin(playwright, options, api):
    admin = API(options.base, options.admin_token)
    api.session(sessionDescription="counted in the usage")
    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.admin_token)
    expect(page.locator("#who")).to_have_text("tenantA · admin")
    page.click("#nav-admin")
    networks = page.locator("#networks")
    expect(networks).to_contain_text("default")
    expect(networks.locator(".badge")).to_have_text("up")
    networks.get_by_role("button", name="Mark down").click()
    expect(networks.locator(".badge")).to_have_text("down")
    listed = admin.ok("GET", "/v1/networks")["items"]
    assert listed[0]["available"] is False and listed[0]["adminOverride"] is False, listed
    networks.get_by_role("button", name="Mark up").click()
    expect(networks.locator(".badge")).to_have_text("up")
    expect(page.locator("#usage")).to_contain_text("tenantA")
    # The quotas' headings are names for people, not the metric's label values.
    expect(page.locator("#usage th")).to_have_text(["Tenant", "Sessions", "Tasks", "Blob bytes", "Blobs", "Stored bytes", "Streams"])
    expect(page.locator("#figures")).to_contain_text("urlsessiond_http_requests_total")
    expect(page.locator("#nodes")).to_contain_text("live")
    browser.close()


def scenario_create(playwright, options, api):
    """A session and a task made from the page, the problems of refused ones shown in place, and the
    shared session listed once."""
    shared = api.ok("GET", "/v1/sessions/shared")
    api.task(shared, f"{options.origin}/bytes/10?seed=2", kind="data", resume=True)  # used: now in the list
    assert any(item["id"] == shared["id"] for item in api.ok("GET", "/v1/sessions")["items"])
    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    expect(page.locator(f"tr[data-session='{shared['id']}']")).to_have_count(1)
    expect(page.locator("tr[data-shared]")).to_contain_text("Shared session")
    expect(page.locator("a[href='#/sessions/shared']")).to_have_count(1)

    # A background session without its identifier: the API's problem, its detail and field, under the form.
    status, refused = api.call("POST", "/v1/sessions", {"configuration": {"kind": "background"}})
    assert status == 422 and refused["field"] == "configuration.identifier", refused
    page.locator("#new-session summary").click()
    page.select_option("#new-session-kind", "background")
    page.get_by_role("button", name="Create session").click()
    problem = page.locator("#new-session-problem")
    expect(problem).to_contain_text(refused["detail"])
    expect(problem).to_contain_text(f"Field: {refused['field']}")
    expect(page.locator("#new-session-identifier")).to_have_attribute("aria-invalid", "true")
    page.fill("#new-session-identifier", "com.example.console-form")
    page.fill("#new-session-description", "made in the console")
    page.get_by_role("button", name="Create session").click()
    expect(page.locator("#view h1")).to_have_text("made in the console")
    made = [item for item in api.ok("GET", "/v1/sessions")["items"] if item["sessionDescription"] == "made in the console"]
    assert len(made) == 1 and made[0]["configuration"]["kind"] == "background", made
    assert made[0]["configuration"]["identifier"] == "com.example.console-form", made
    assert page.url.endswith(f"#/sessions/{made[0]['id']}"), page.url

    # A task with a URL the API refuses, then a download of 400 kB at 200 kB/s, resumed at once.
    status, refused = api.call("POST", f"/v1/sessions/{made[0]['id']}/tasks", {"kind": "download", "request": {"url": "not a url"}})
    assert status in (400, 422) and refused.get("field"), refused
    page.locator("#new-task summary").click()
    page.select_option("#new-task-kind", "download")
    page.fill("#new-task-url", "not a url")
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#new-task-problem")).to_contain_text(refused["detail"])
    expect(page.locator("#new-task-problem")).to_contain_text(f"Field: {refused['field']}")
    expect(page.locator("#new-task-url")).to_have_attribute("aria-invalid", "true")
    url = f"{options.origin}/bytes/400000?seed=4&rate=200000"
    page.fill("#new-task-url", url)
    page.get_by_role("button", name="Create task").click()
    expect(page.locator("#new-task-problem")).to_be_hidden()
    expect(page.locator("#new-task-url")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#new-task-created")).to_contain_text("Created task 1")
    task = api.ok("GET", f"/v1/sessions/{made[0]['id']}/tasks")["items"][0]
    assert task["kind"] == "download" and task["originalRequest"]["url"] == url and task["state"] != "suspended", task
    expect(page.locator(f"tr[data-task='{task['id']}']")).to_contain_text("completed", timeout=30_000)
    browser.close()


def visible_rows(page, event_type):
    return page.locator(f"#events tr[data-type='{event_type}']:visible")


def scenario_task_page(playwright, options, api):
    """A task's page: a finished download's file saved through the page, its progress events filtered,
    sent counts only for a task that sends a body, and the whole length of a download resumed with a
    Range."""
    session = api.session(sessionDescription="task pages")
    # 400 kB at 200 kB/s: a few progress events.
    download = api.task(session, f"{options.origin}/bytes/400000?seed=4&rate=200000", resume=True)
    finished = api.ok("GET", f"/v1/tasks/{download['id']}?wait=15")
    assert finished["state"] == "completed" and finished["location"], finished
    upload = api.ok("POST", f"/v1/sessions/{session['id']}/tasks?wait=10", {
        "kind": "upload", "resume": True, "request": {"url": f"{options.origin}/upload", "httpMethod": "POST"},
        "uploadSource": {"data": {"text": "twelve bytes"}},
    })
    first = api.task(session, f"{options.origin}/bytes/600000?seed=12&rate=200000", resume=True)
    until(lambda: api.ok("GET", f"/v1/tasks/{first['id']}")["countOfBytesReceived"] > 100_000, "bytes to arrive")
    resume_data = api.ok("POST", f"/v1/tasks/{first['id']}/cancel", {"byProducingResumeData": True})["resumeData"]
    assert resume_data, "no resume data"
    resumed = api.ok("POST", f"/v1/sessions/{session['id']}/tasks?wait=15",
                     {"kind": "download", "resumeData": resume_data, "resume": True})
    assert resumed["state"] == "completed" and not resumed["error"], resumed
    response = resumed["response"]
    assert response["statusCode"] == 206 and 0 < response["expectedContentLength"] < 600_000, response
    assert resumed["countOfBytesExpectedToReceive"] == 600_000, resumed

    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    page.goto(f"{options.base}/console#/sessions/{session['id']}")
    expect(page.locator(f"tr[data-task='{download['id']}']").get_by_role("button", name="Download")).to_be_visible()

    # The download's page: no "Sent 0 B of 0 B"; the file saved through the page, the token in a header.
    page.goto(f"{options.base}/console#/tasks/{download['id']}")
    expect(page.locator("#view h1")).to_contain_text("download task 1")
    facts = page.locator("#view .card dl.facts").first
    expect(facts.locator("dt", has_text="Received")).to_have_count(1)
    expect(facts.locator("dt", has_text="Sent")).to_have_count(0)
    expected = api.ok("GET", finished["location"])
    with page.expect_download() as saving:
        page.locator("#view .toolbar").get_by_role("button", name="Download").click()
    saved = saving.value
    assert saved.suggested_filename == finished["response"]["suggestedFilename"], saved.suggested_filename
    with open(saved.path(), "rb") as file:
        assert file.read() == expected, "the saved file differs from the download"

    # Progress events are hidden until asked for; a type picked shows that type alone.
    events = api.ok("GET", f"/v1/tasks/{download['id']}/events?limit=1000")["items"]
    progress = [event for event in events if event["type"] == "downloadTask.didWriteData"]
    assert len(progress) >= 2, [event["type"] for event in events]
    expect(page.locator("#events code", has_text="task.didCompleteWithError")).to_be_visible()
    expect(page.locator("#events tbody tr")).to_have_count(len(events))
    expect(visible_rows(page, "downloadTask.didWriteData")).to_have_count(0)
    expect(page.locator("#events-hidden")).to_have_text(f"{len(progress)} events hidden by the filter")
    page.get_by_label("Show progress events").check()
    expect(visible_rows(page, "downloadTask.didWriteData")).to_have_count(len(progress))
    expect(page.locator("#events-hidden")).to_have_text("")
    page.get_by_label("Show progress events").uncheck()
    page.select_option("#events select", "downloadTask.didWriteData")
    expect(visible_rows(page, "downloadTask.didWriteData")).to_have_count(len(progress))
    expect(visible_rows(page, "task.didCompleteWithError")).to_have_count(0)

    # An upload sends a body: its page shows what was sent.
    page.goto(f"{options.base}/console#/tasks/{upload['id']}")
    facts = page.locator("#view .card dl.facts").first
    expect(facts.locator("dt", has_text="Sent")).to_have_count(1)
    expect(facts).to_contain_text("12 B of 12 B")

    # The resumed download: the whole file's length, not the 206's.
    page.goto(f"{options.base}/console#/tasks/{resumed['id']}")
    length = page.locator("#view dt", has_text="Expected length").locator("xpath=following-sibling::dd[1]")
    expect(length).to_contain_text("586 KiB (the whole file; this 206 carries")
    expect(page.locator("#view dl.facts").first).to_contain_text("586 KiB of 586 KiB")
    browser.close()


def scenario_overview(playwright, options, api):
    """The tenant's running and failed tasks, listed across its sessions."""
    one = api.session(sessionDescription="one")
    other = api.session(sessionDescription="elsewhere")
    running = api.task(other, f"{options.origin}/bytes/50000000?seed=9&rate=100000", resume=True)
    failed = api.ok("POST", f"/v1/sessions/{one['id']}/tasks?wait=10",
                    {"kind": "data", "resume": True, "request": {"url": "http://127.0.0.1:1/refused"}})
    assert failed["error"] and failed["error"]["code"] != -999, failed
    cancelled = api.task(one, f"{options.origin}/bytes/1000?seed=1")
    api.ok("POST", f"/v1/tasks/{cancelled['id']}/cancel", {})

    browser = Browser(playwright)
    page = browser.page
    browser.sign_in(options.base, options.token)
    page.click("#nav-tasks")
    expect(page.locator("#view h1")).to_have_text("Tasks across sessions")
    expect(page.locator(f"tr[data-task='{running['id']}']")).to_contain_text("running")
    expect(page.locator(f"tr[data-task='{running['id']}']")).to_contain_text("elsewhere")
    expect(page.locator(f"tr[data-task='{failed['id']}']")).to_have_count(0)
    expect(page.locator("#overview-note")).to_contain_text("the API lists tasks per session")
    page.select_option("#overview-state", "failed")
    expect(page.locator(f"tr[data-task='{failed['id']}']")).to_contain_text("failed")
    expect(page.locator(f"tr[data-task='{failed['id']}']")).to_contain_text("one")
    expect(page.locator(f"tr[data-task='{running['id']}']")).to_have_count(0)
    expect(page.locator(f"tr[data-task='{cancelled['id']}']")).to_have_count(0)  # cancelled is not failed
    page.locator(f"tr[data-task='{failed['id']}'] a.mono").click()
    expect(page.locator("#view h1")).to_contain_text("data task")
    api.ok("POST", f"/v1/tasks/{running['id']}/cancel", {})
    browser.close()


SCENARIOS = {
    "sign-in": scenario_sign_in,
    "progress": scenario_progress,
    "held-webhook": scenario_held_webhook,
    "escaping": scenario_escaping,
    "phone": scenario_phone,
    "admin": scenario_admin,
    "create": scenario_create,
    "task-page": scenario_task_page,
    "overview": scenario_overview,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--origin", required=True)
    parser.add_argument("--screenshot")
    options = parser.parse_args()
    with sync_playwright() as playwright:
        SCENARIOS[options.scenario](playwright, options, API(options.base, options.token))
    print(f"{options.scenario}: passed")


if __name__ == "__main__":
    main()
