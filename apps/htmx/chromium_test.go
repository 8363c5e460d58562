package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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
