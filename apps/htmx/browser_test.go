package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

// findChromium locates the browser of the OS package, or fails the test
// with what to install: the browser test never skips.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("the browser test needs Chromium: install it with `apt-get install -y --no-install-recommends chromium` (Debian/Ubuntu)")
	return ""
}

// browser is one headless Chromium for a test, with helpers that run
// steps with a timeout and name the step that failed.
type browser struct {
	t        *testing.T
	ctx      context.Context
	base     string
	shots    string // what screenshot file names start with: "htmx" unless set
	mu       sync.Mutex
	dialogs  []string // messages of the confirm dialogs accepted
	problems []string // CSP violations and script errors seen in the console
}

func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(findChromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// The first run starts the browser; it must not carry a timeout, which
	// would end the browser with it.
	start := time.Now()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	t.Logf("Chromium started in %v", time.Since(start).Round(time.Millisecond))
	return &browser{t: t, ctx: ctx, base: base}
}

// watch accepts every confirm dialog (hx-confirm) and records console
// problems of the tab of ctx.
func (b *browser) watch(ctx context.Context) {
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, ev.Message)
			b.mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			// A 4xx answer is logged by the browser as a failed resource;
			// the site answers 422 and 409 on purpose.
			if m.Type == chromedp.ConsoleException || strings.Contains(m.Text, "Content Security Policy") ||
				(m.Type == chromedp.ConsoleError && !strings.Contains(m.Text, "the server responded with a status of 4")) {
				b.mu.Lock()
				b.problems = append(b.problems, string(m.Type)+": "+m.Text)
				b.mu.Unlock()
			}
		}
	}()
}

// do runs one named step on ctx with a timeout; on failure it saves a
// screenshot and fails the test.
func (b *browser) do(ctx context.Context, name string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	start := time.Now()
	defer func() { b.t.Logf("step %q took %v", name, time.Since(start).Round(time.Millisecond)) }()
	if err := chromedp.Do(sctx, steps...); err != nil {
		b.screenshot(ctx, "failed-"+regexp.MustCompile(`\W+`).ReplaceAllString(name, "-"))
		loc, _ := chromedp.Run(ctx, chromedp.Location())
		b.t.Fatalf("browser step %q failed at %s: %v", name, loc, err)
	}
}

// eval evaluates a JavaScript expression in the page of ctx.
func eval[T any](b *browser, ctx context.Context, expr string) T {
	b.t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// until waits until a JavaScript expression is true in the page.
func until(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))(ctx, t); err != nil {
			return fmt.Errorf("waiting for %s: %w", expr, err)
		}
		return nil
	})
}

// settleCounter runs in every document of a tab with scripts on, before the
// page's own scripts. window.htmxSettled counts the moments htmx has finished
// with new content: its first pass over a loaded document (htmx:load on
// <body>) and the settle of each swap (htmx:afterSettle), which comes after
// htmx has processed the swapped elements. Until then a click on a new link
// or button is the browser's own, not htmx's: a test that clicks sooner races
// htmx.
const settleCounter = `window.htmxSettled = 0;
document.addEventListener("htmx:load", e => { if (e.target === document.body) window.htmxSettled++; });
document.addEventListener("htmx:afterSettle", () => window.htmxSettled++);`

// htmx runs one named step whose actions make htmx swap in new content, and
// waits until htmx has settled it (see settleCounter), so that the next
// step's clicks reach the controls htmx has taken over.
func (b *browser) htmx(ctx context.Context, name string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	n := eval[int](b, ctx, "window.htmxSettled")
	b.do(ctx, name, append(steps, until(fmt.Sprintf("window.htmxSettled > %d", n)))...)
}

// load runs one named step whose actions load a whole document, and waits
// until htmx has processed it.
func (b *browser) load(ctx context.Context, name string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	b.do(ctx, name, append(steps, until("window.htmxSettled > 0"))...)
}

// screenshot saves the whole page as a PNG under $CRUDBENCH_ARTIFACTS (or
// the test's temporary folder) and logs where.
func (b *browser) screenshot(ctx context.Context, name string) string {
	b.t.Helper()
	dir := os.Getenv("CRUDBENCH_ARTIFACTS")
	if dir == "" {
		dir = b.t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Errorf("artifacts folder: %v", err)
		return ""
	}
	sctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	shots := b.shots
	if shots == "" {
		shots = "htmx"
	}
	path := filepath.Join(dir, shots+"-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return ""
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

// TestBrowser uses the site in headless Chromium as a person would: once
// with JavaScript (htmx) on, once with it off, in separate browser contexts
// (separate cookies) of one browser.
func TestBrowser(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	b := newBrowser(t, ts.URL)
	t.Run("with htmx", func(t *testing.T) { browseWithHTMX(t, ts, b.tab(t, true)) })
	t.Run("without JavaScript", func(t *testing.T) { browseWithoutJavaScript(t, ts, b.tab(t, false)) })
	// The tuned renderer's pages must work in a browser as the default's do:
	// the main flow once more, on a site started with it.
	t.Run("with htmx, templ renderer", func(t *testing.T) {
		tuned := startSiteWith(t, dbtest.Seeded(t), db.Options{}, db.DefaultTimeout, rendererTempl)
		tab := b.tab(t, true)
		tab.base, tab.shots = tuned.URL, "htmx-tuned"
		browseWithHTMX(t, tuned, tab)
	})
}

// tab opens a new tab in a new browser context of b, with scripts on or off,
// reporting to t.
func (b *browser) tab(t *testing.T, scripts bool) *browser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("new tab: %v", err)
	}
	if scripts {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: settleCounter}); err != nil {
			t.Fatal(err)
		}
	} else {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
	}
	tb := &browser{t: t, ctx: ctx, base: b.base}
	tb.watch(ctx)
	return tb
}

// browseWithHTMX signs in, searches, opens the showcase person, creates a
// vacancy with a mistake, fixes it, edits it and deletes it, checking the
// page after each step. Every step that swaps content waits until htmx has
// settled it before the next step clicks.
func browseWithHTMX(t *testing.T, ts *testSite, b *browser) {
	ctx := b.ctx
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }

	b.load(ctx, "open the site", chromedp.Navigate(ts.URL+"/persons"), chromedp.WaitVisible(css("#f-username")))
	if loc := eval[string](b, ctx, "location.pathname + location.search"); loc != "/login?next=%2Fpersons" {
		t.Errorf("anonymous visit landed on %s, want the login page", loc)
	}
	b.htmx(ctx, "sign in",
		chromedp.SendKeys(css("#f-username"), "editor"),
		chromedp.SendKeys(css("#f-password"), "editor"),
		chromedp.Click(css(`form[action="/login"] button[type="submit"]`)),
		chromedp.WaitVisible(css("#person-search")),
		until(`location.pathname === "/persons" && document.querySelectorAll("tr.person").length === 50`),
	)
	if who := eval[string](b, ctx, `document.querySelector(".session .user").textContent`); !strings.HasPrefix(who, "editor") {
		t.Errorf("signed in as %q", who)
	}

	b.htmx(ctx, "search",
		chromedp.SendKeys(css("#person-search"), seed.ShowcaseLastName),
		until(`document.querySelectorAll("#person-results tr.person").length === 1`),
		until(`location.search === "?q=`+seed.ShowcaseLastName+`"`),
	)
	if got := eval[string](b, ctx, `document.querySelector("#person-results tr.person a").textContent`); got != "Lovelace, Ada" {
		t.Errorf("search result = %q", got)
	}

	b.htmx(ctx, "open the showcase person",
		chromedp.Click(css(`#person-results a[href="/persons/1"]`)),
		chromedp.WaitVisible(css("section.appointment")),
		until(`location.pathname === "/persons/1"`),
	)
	counts := eval[map[string]int](b, ctx, `({
		appointments: document.querySelectorAll("section.appointment").length,
		stipends: document.querySelectorAll("tr.stipend").length,
		fundings: document.querySelectorAll("tr.funding").length})`)
	want := map[string]int{
		"appointments": seed.ShowcaseAppointments,
		"stipends":     seed.ShowcaseAppointments * seed.ShowcaseStipends,
		"fundings":     seed.ShowcaseAppointments * seed.ShowcaseFundings,
	}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("showcase page shows %d %s, want %d", counts[k], k, n)
		}
	}
	if title := eval[string](b, ctx, "document.title"); title != "Ada Lovelace · crudbench" {
		t.Errorf("title after the boosted navigation = %q", title)
	}
	if !eval[bool](b, ctx, `getComputedStyle(document.querySelector("header.site")).display === "flex"`) {
		t.Error("the style sheet is not applied")
	}
	b.screenshot(ctx, "person-detail")

	b.htmx(ctx, "open the vacancy list",
		chromedp.Click(css(`header.site a[href="/vacancies"]`)),
		chromedp.WaitVisible(css("#status-filter")),
	)
	b.htmx(ctx, "open the new vacancy form",
		chromedp.Click(css(`a[href="/vacancies/new"]`)),
		chromedp.WaitVisible(css("#vacancy-form")),
	)
	const title = "Browser test engineer"
	b.htmx(ctx, "submit a vacancy that closes before it opens",
		chromedp.SendKeys(css("#f-title"), title),
		chromedp.SendKeys(css("#f-department"), "Physics"),
		chromedp.SendKeys(css("#f-location"), "Lisbon"),
		chromedp.SendKeys(css("#f-salaryMin"), "50000"),
		chromedp.SendKeys(css("#f-salaryMax"), "60000"),
		chromedp.SetValue(css("#f-opensOn"), "2030-06-01"),
		chromedp.SetValue(css("#f-closesOn"), "2030-05-01"),
		chromedp.Click(css(`#vacancy-form button[type="submit"]`)),
		chromedp.WaitVisible(css("#f-closesOn-error")),
	)
	if msg := eval[string](b, ctx, `document.querySelector("#f-closesOn-error").textContent`); msg != "Closes on must not be before the opening date." {
		t.Errorf("inline message = %q", msg)
	}
	if v := eval[string](b, ctx, `document.querySelector("#f-title").value`); v != title {
		t.Errorf("after the 422 the title field holds %q, want the typed %q", v, title)
	}
	if loc := eval[string](b, ctx, "location.pathname"); loc != "/vacancies/new" {
		t.Errorf("after the 422 the address is %s", loc)
	}

	b.htmx(ctx, "fix the closing date",
		chromedp.SetValue(css("#f-closesOn"), "2030-07-31"),
		chromedp.Click(css(`#vacancy-form button[type="submit"]`)),
		chromedp.WaitVisible(css(".vacancy-title")),
		until(`/^\/vacancies\/\d+$/.test(location.pathname)`),
	)
	if got := eval[string](b, ctx, `document.querySelector(".vacancy-title").textContent + " | " + document.querySelector(".flash").textContent`); got != title+" | Vacancy created." {
		t.Errorf("after create: %q", got)
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(eval[string](b, ctx, "location.pathname"), "/vacancies/"), 10, 64)

	b.htmx(ctx, "open the edit form",
		chromedp.Click(css(`.page-head a[href$="/edit"]`)),
		chromedp.WaitReady(css(`#vacancy-form input[name="version"]`)),
	)
	b.htmx(ctx, "save the edit",
		chromedp.SetValue(css("#f-title"), "Senior "+strings.ToLower(title)),
		chromedp.Click(css(`#vacancy-form button[type="submit"]`)),
		until(`document.querySelector(".vacancy-title")?.textContent === "Senior browser test engineer"`),
	)
	if got := eval[string](b, ctx, `document.querySelector(".record-fields .version").textContent`); got != "2" {
		t.Errorf("version after the edit = %s, want 2", got)
	}

	// A click on a Delete control htmx has not processed yet (a copy of
	// it, which htmx has never seen, stands for content swapped in a moment
	// ago) is the browser's own: it must open the page that asks first,
	// never delete.
	vacancyPath := "/vacancies/" + strconv.FormatInt(id, 10)
	b.load(ctx, "click a Delete control htmx has not processed",
		chromedp.Evaluate[chromedp.Void](`{
			const copy = document.querySelector(".page-head a.danger").cloneNode(true);
			copy.id = "unprocessed-delete";
			document.querySelector(".page-head .actions").append(copy);
		}`),
		chromedp.Click(css("#unprocessed-delete")),
		chromedp.WaitVisible(css("form.confirm-delete")),
		until(`location.pathname === "`+vacancyPath+`/delete"`),
	)
	if q := eval[string](b, ctx, `document.querySelector(".confirm-delete .question").textContent`); q != "Delete the vacancy “Senior browser test engineer”? This cannot be undone." {
		t.Errorf("confirmation page asks %q", q)
	}
	if _, err := ts.store.FindVacancyByID(context.Background(), id); err != nil {
		t.Fatalf("vacancy %d after the click that should only ask: %v", id, err)
	}
	b.htmx(ctx, "cancel",
		chromedp.Click(css(`.confirm-delete a[href="`+vacancyPath+`"]`)),
		chromedp.WaitVisible(css(".vacancy-title")),
		until(`location.pathname === "`+vacancyPath+`"`),
	)

	b.htmx(ctx, "delete the vacancy",
		chromedp.Click(css(`.page-head a.danger`)),
		chromedp.WaitVisible(css("#status-filter")),
		until(`location.pathname === "/vacancies" && document.querySelector(".flash")?.textContent === "Vacancy deleted."`),
	)
	if eval[bool](b, ctx, `document.body.textContent.includes("Senior browser test engineer")`) {
		t.Error("the deleted vacancy is still listed")
	}
	if _, err := ts.store.FindVacancyByID(context.Background(), id); db.ErrorCode(err) != db.ENOTFOUND {
		t.Errorf("vacancy %d after delete: %v", id, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dialogs) != 1 || !strings.Contains(b.dialogs[0], "Senior browser test engineer") {
		t.Errorf("confirm dialogs = %q, want one naming the vacancy", b.dialogs)
	}
	if len(b.problems) > 0 {
		t.Errorf("browser console problems:\n%s", strings.Join(b.problems, "\n"))
	}
}

// browseWithoutJavaScript does the write cycle with scripts disabled:
// plain forms, POST -> 303 -> GET, the 422 as a whole page, and a delete
// that asks on a page of its own before it deletes.
func browseWithoutJavaScript(t *testing.T, ts *testSite, b *browser) {
	ctx := b.ctx
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }

	b.do(ctx, "sign in",
		chromedp.Navigate(ts.URL+"/vacancies/new"),
		chromedp.WaitVisible(css("#f-username")),
		chromedp.SendKeys(css("#f-username"), "editor"),
		chromedp.SendKeys(css("#f-password"), "editor"),
		chromedp.Click(css(`form[action="/login"] button[type="submit"]`)),
		chromedp.WaitVisible(css("#vacancy-form")),
	)
	b.do(ctx, "submit a mistake",
		chromedp.SendKeys(css("#f-title"), "No-script vacancy"),
		chromedp.SendKeys(css("#f-department"), "Physics"),
		chromedp.SendKeys(css("#f-location"), "Oslo"),
		chromedp.SendKeys(css("#f-salaryMin"), "70000"),
		chromedp.SendKeys(css("#f-salaryMax"), "60000"),
		chromedp.SetValue(css("#f-opensOn"), "2030-06-01"),
		chromedp.Click(css(`#vacancy-form button[type="submit"]`)),
		chromedp.WaitVisible(css("#f-salaryMax-error")),
	)
	msg, err := chromedp.Run(ctx, chromedp.Text(css("#f-salaryMax-error")))
	if err != nil || msg != "Maximum salary must not be less than the minimum salary." {
		t.Errorf("inline message = %q, %v", msg, err)
	}
	b.do(ctx, "fix it",
		chromedp.SetValue(css("#f-salaryMax"), "80000"),
		chromedp.Click(css(`#vacancy-form button[type="submit"]`)),
		chromedp.WaitVisible(css(".vacancy-title")),
	)
	b.do(ctx, "delete it",
		chromedp.Click(css(`.page-head a.danger`)),
		chromedp.WaitVisible(css("form.confirm-delete")),
	)
	question, err := chromedp.Run(ctx, chromedp.Text(css(".confirm-delete .question")))
	if err != nil || question != "Delete the vacancy “No-script vacancy”? This cannot be undone." {
		t.Errorf("confirmation page asks %q, %v", question, err)
	}
	if n := vacancyCount(t, ts); n != 121 {
		t.Fatalf("%d vacancies on the confirmation page, want 121: opening it must not delete", n)
	}
	b.do(ctx, "confirm",
		chromedp.Click(css(`.confirm-delete button[type="submit"]`)),
		chromedp.WaitVisible(css("#status-filter")),
	)
	flash, err := chromedp.Run(ctx, chromedp.Text(css(".flash")))
	if err != nil || flash != "Vacancy deleted." {
		t.Errorf("after delete: flash %q, %v", flash, err)
	}
	if n := vacancyCount(t, ts); n != 120 {
		t.Errorf("%d vacancies after create and delete, want the seeded 120", n)
	}
}
