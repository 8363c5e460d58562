// Package pages measures page views in a real browser: headless Chromium,
// driven through the DevTools protocol (chromedp), opens a front end's page
// and reports the browser's own figures — navigation start to the page's
// data marker (Element Timing), LCP, bytes over the wire and requests
// (Network events), main-thread script and task time (Performance metrics)
// — cold (a fresh browser context per view, its cache off) or warm (a tab
// of its own in a browser context that viewed the page once before, so the
// bundle is cached), on the desktop or a mobile-like profile (throttled
// network and CPU).
package pages

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium is returned by Start when no Chromium is installed.
var ErrNoChromium = errors.New("page views need Chromium: install it with `apt-get install -y --no-install-recommends chromium` (Debian/Ubuntu)")

// FindChromium returns the path of the OS package's Chromium (or Chrome), or
// ErrNoChromium.
func FindChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Browser is one headless Chromium. A cold view opens a browser context of
// its own in it (own cookies, storage and cache) and closes it afterwards;
// a warm view opens a tab in a browser context that Open warmed.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc
	dir    string
}

// Start starts a headless Chromium with a user data folder of its own.
func Start() (*Browser, error) {
	path, err := FindChromium()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "crudbench-pages-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		// A view's timers and paints must not be slowed as a background
		// tab's are: every context's tab is measured as if in front.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// The first run starts the browser; it carries no timeout, which would
	// end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting Chromium (%s): %w", path, err)
	}
	return &Browser{ctx: ctx, cancel: func() { cancel(); cancelAlloc() }, dir: dir}, nil
}

// PID is the browser process's id, for the runner's CPU accounting.
func (b *Browser) PID() int {
	if p := chromedp.FromContext(b.ctx).Browser.Process(); p != nil {
		return p.Pid
	}
	return 0
}

// Version is the browser's product and version as it reports them
// ("Chrome/120.0.6099.224"), "" when it does not say.
func (b *Browser) Version() string {
	v, err := chromedp.CallBrowser(b.ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return ""
	}
	return v.Product
}

// Close ends the browser and removes its folder.
func (b *Browser) Close() error {
	b.cancel()
	return os.RemoveAll(b.dir)
}
