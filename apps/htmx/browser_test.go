package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

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
	// The person picker loads its options the first time the field gets
	// the focus; picking the showcase person fills in their id.
	b.htmx(ctx, "focus the person picker",
		chromedp.Focus(css("#f-filledBy")),
		until(fmt.Sprintf(`document.querySelectorAll("#f-filledBy-options option").length === %d`, seed.DefaultPersons)),
	)
	showcase := eval[string](b, ctx, `[...document.querySelectorAll("#f-filledBy-options option")].find(o => o.textContent === "`+seed.ShowcaseLastName+", "+seed.ShowcaseFirstName+`")?.value ?? ""`)
	if showcase != strconv.Itoa(seed.ShowcaseID) {
		t.Errorf("the picker offers %s, %s as %q, want their id %d", seed.ShowcaseLastName, seed.ShowcaseFirstName, showcase, seed.ShowcaseID)
	}
	b.do(ctx, "pick the showcase person", chromedp.SendKeys(css("#f-filledBy"), showcase))
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
	if got := eval[string](b, ctx, `document.querySelector(".record-fields a[data-person-id]")?.textContent ?? ""`); got != seed.ShowcaseFirstName+" "+seed.ShowcaseLastName {
		t.Errorf("after create, filled by %q, want the person picked", got)
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
