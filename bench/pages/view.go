package pages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// Page is one front end's page as the bench views it.
type Page struct {
	// URL is the page to view.
	URL string
	// Marker is the elementtiming name of the element whose paint means
	// the page's data is visible ("appointments" on the person page).
	Marker string
	// Count, when set, is a CSS selector whose matches are counted once
	// the marker is painted (View.Count): what the page shows.
	Count string
	// SignIn, when set, signs the view's context in before the view.
	SignIn *SignIn
	// Session, when set, is a session the view's context starts with
	// instead of signing in through the form.
	Session *Session
	// Text, when set, is a text the page should show once the marker is
	// painted (View.Shows): the data, not a sign-in form or an error.
	Text string
}

// SignIn is a sign-in form every crudbench front end has alike: at URL, the
// fields #f-username and #f-password and a submit button in the form; the
// sign-in is done once the browser has left the form's path.
type SignIn struct {
	URL, Username, Password string
}

// Session is a signed-in session a view's context starts with: cookies
// set for the page's URL (HttpOnly, as a site's session cookie is) and
// sessionStorage items written in every document before its own scripts
// run. A view with one costs the servers the page alone, not a sign-in
// (a password check, deliberately slow) per view.
type Session struct {
	Cookies map[string]string
	Storage map[string]string
}

// Options are how a view is made.
type Options struct {
	// Warm views the page as a returning visitor: in a tab of its own in a
	// browser context that has viewed it once before, unmeasured (Open),
	// so that the bundle comes from that context's cache. A cold view
	// opens a fresh context and loads everything with the cache off.
	Warm bool
	// Profile is the emulated device (Desktop when zero).
	Profile Profile
	// Timeout bounds the whole view, sign-in included (30 s when zero).
	Timeout time.Duration
}

// View is one page view's figures, all from the browser.
type View struct {
	// Start is when the view began (its tab opened), Wall how long it took
	// in all, a cold view's sign-in included (and the warm-up of a warm
	// view made alone, Browser.View): the runner's pacing figures, not the
	// page's.
	Start time.Time     `json:"start"`
	Wall  time.Duration `json:"wall"`
	// DataVisible is navigation start to the marker's paint, as Element
	// Timing reports it; LCP the largest contentful paint seen by then.
	DataVisible time.Duration `json:"dataVisible"`
	LCP         time.Duration `json:"lcp"`
	// Bytes is what came over the wire for the view (encodedDataLength:
	// headers and bodies as received), JSBytes the part of it that was
	// scripts. A resource from the cache counts 0 bytes.
	Bytes   int64 `json:"bytes"`
	JSBytes int64 `json:"jsBytes"`
	// Requests counts the view's requests, Cached those the cache served.
	Requests int `json:"requests"`
	Cached   int `json:"cached"`
	// Script and Task are the main thread's script and task time during
	// the view (Performance.getMetrics' ScriptDuration, TaskDuration).
	Script time.Duration `json:"script"`
	Task   time.Duration `json:"task"`
	// Count is how many elements matched Page.Count, Shows whether the
	// page's text held Page.Text, once the marker was painted.
	Count int  `json:"count"`
	Shows bool `json:"shows"`
	// Err is why the view failed; a view whose marker never appears fails.
	Err error `json:"-"`
}

// ErrNoMarker is a view's error when the page's marker was not painted
// within the view's time.
var ErrNoMarker = errors.New("the page's marker was never painted")

// observer runs in every document of a view's tab before the page's own
// scripts: it records the first paint of every elementtiming name and the
// latest LCP candidate, and wait(name, ms) resolves once name is painted
// (a frame later, so that the LCP of that paint is in) or rejects after ms.
const observer = `(() => {
  const s = { painted: {}, lcp: 0, waiters: [] };
  Object.defineProperty(window, '__crudbenchPages', { value: s });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.identifier && !(e.identifier in s.painted)) s.painted[e.identifier] = e.renderTime || e.loadTime;
    }
    for (const w of s.waiters.splice(0)) w();
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) s.lcp = e.renderTime || e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  s.wait = (name, ms, count, text) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('marker ' + name + ' not painted in ' + ms + ' ms')), ms);
    const check = () => {
      if (!(name in s.painted)) return s.waiters.push(check);
      clearTimeout(timer);
      requestAnimationFrame(() => setTimeout(() => resolve(JSON.stringify({
        marker: s.painted[name], lcp: s.lcp, count: count ? document.querySelectorAll(count).length : 0,
        shows: text ? document.body.innerText.includes(text) : false,
      })), 0));
    };
    check();
  });
})();`

// wire collects a tab's network figures from the moment measuring starts.
type wire struct {
	mu        sync.Mutex
	measuring bool
	counted   map[network.RequestID]network.ResourceType
	cached    map[network.RequestID]bool
	v         View
}

func (w *wire) event(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.measuring {
		return
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if _, ok := w.counted[ev.RequestID]; !ok && ev.RedirectResponse == nil {
			w.v.Requests++
		}
		w.counted[ev.RequestID] = ev.Type
	case *network.EventRequestServedFromCache:
		w.cache(ev.RequestID)
	case *network.EventResponseReceived:
		// The memory cache says so with an event of its own, the HTTP
		// cache (a warm view's, in a tab of its own) on the response.
		if ev.Response.FromDiskCache {
			w.cache(ev.RequestID)
		}
	case *network.EventLoadingFinished:
		typ, ok := w.counted[ev.RequestID]
		if !ok {
			return
		}
		n := int64(ev.EncodedDataLength)
		w.v.Bytes += n
		if typ == network.ResourceTypeScript {
			w.v.JSBytes += n
		}
	}
}

// cache counts request id as served from the cache, once, when it is the
// view's.
func (w *wire) cache(id network.RequestID) {
	if _, ok := w.counted[id]; ok && !w.cached[id] {
		w.cached[id] = true
		w.v.Cached++
	}
}

func (w *wire) start() {
	w.mu.Lock()
	w.measuring, w.counted, w.cached = true, map[network.RequestID]network.ResourceType{}, map[network.RequestID]bool{}
	w.mu.Unlock()
}

func (w *wire) figures() View {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.v
}

// View makes one view of p as o says — cold in a fresh browser context,
// warm in a context it opens and warms for it first — and measures it. A
// failed view has Err set.
func (b *Browser) View(ctx context.Context, p Page, o Options) View {
	start := time.Now()
	cs, err := b.Open(ctx, p, o, 1)
	if err != nil {
		return View{Start: start, Wall: time.Since(start), Err: err}
	}
	defer cs.Close()
	v := cs.view(ctx, <-cs.free)
	v.Start, v.Wall = start, time.Since(start)
	return v
}

// timeout is the time a view, or a context's warm-up, has.
func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return 30 * time.Second
	}
	return o.Timeout
}

// tab opens a tab of b in the browser context opt says (a new one, or one
// of a visitor's), with the observer in its every document, its network
// and performance domains on and a wire listening. vctx carries the
// view's timeout and ctx's cancellation; closeTab closes the tab.
func (b *Browser) tab(ctx context.Context, timeout time.Duration, opt chromedp.ContextOption) (vctx context.Context, w *wire, closeTab func(), err error) {
	tctx, cancelTab := chromedp.NewContext(b.ctx, opt)
	if err := chromedp.Do(tctx); err != nil {
		cancelTab()
		return nil, nil, nil, fmt.Errorf("new tab: %w", err)
	}
	// The view's deadline is the caller's and the view's own; the tab's
	// context must not carry it to its creation above, which would end it.
	vctx, cancel := context.WithTimeout(tctx, timeout)
	stop := context.AfterFunc(ctx, cancel)
	closeTab = func() { stop(); cancel(); cancelTab() }
	w = &wire{}
	if err := chromedp.Listen(vctx, w.event); err != nil {
		closeTab()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(vctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: observer}); err != nil {
		closeTab()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(vctx, network.Enable, network.EnableParams{}); err != nil {
		closeTab()
		return nil, nil, nil, err
	}
	if _, err := chromedp.Call(vctx, performance.Enable, performance.EnableParams{}); err != nil {
		closeTab()
		return nil, nil, nil, err
	}
	return vctx, w, closeTab, nil
}

// coldView views p in a fresh browser context, signed in as p says, with
// the cache off.
func (b *Browser) coldView(ctx context.Context, p Page, o Options) (View, error) {
	vctx, w, closeTab, err := b.tab(ctx, o.timeout(), chromedp.WithNewBrowserContext())
	if err != nil {
		return View{}, err
	}
	defer closeTab()
	if err := startSignedIn(vctx, p); err != nil {
		return View{}, err
	}
	return measure(vctx, p, o, w)
}

// startSignedIn starts the tab's session: p's Session, else a sign-in
// through p's form, else none.
func startSignedIn(ctx context.Context, p Page) error {
	switch {
	case p.Session != nil:
		return startSession(ctx, p.URL, *p.Session)
	case p.SignIn != nil:
		return signIn(ctx, *p.SignIn)
	}
	return nil
}

// measure measures one view of p in the tab at vctx, its cache on for a
// warm view and off for a cold one, on o's device.
func measure(vctx context.Context, p Page, o Options, w *wire) (View, error) {
	if _, err := chromedp.Call(vctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: !o.Warm}); err != nil {
		return View{}, err
	}
	if err := emulate(vctx, o.Profile); err != nil {
		return View{}, err
	}

	before, err := mainThread(vctx)
	if err != nil {
		return View{}, err
	}
	w.start()
	if err := chromedp.Do(vctx, chromedp.Navigate(p.URL)); err != nil {
		// Navigate waits for the load event: a page still loading when
		// the view's time runs out has not shown its marker within it,
		// however slow a loaded machine made the steps before.
		if errors.Is(vctx.Err(), context.DeadlineExceeded) {
			return w.figures(), fmt.Errorf("%w (%s at %s): still loading", ErrNoMarker, p.Marker, p.URL)
		}
		return w.figures(), fmt.Errorf("view %s: %w", p.URL, err)
	}
	seen, err := waitMarker(vctx, p, o.timeout())
	if err != nil {
		return w.figures(), err
	}
	after, err := mainThread(vctx)
	if err != nil {
		return w.figures(), err
	}
	v := w.figures()
	v.DataVisible = millis(seen.Marker)
	v.LCP = millis(seen.LCP)
	v.Count, v.Shows = seen.Count, seen.Shows
	// A navigation to another process starts the counters again.
	if after.script >= before.script && after.task >= before.task {
		after.script, after.task = after.script-before.script, after.task-before.task
	}
	v.Script, v.Task = after.script, after.task
	return v, nil
}

type painted struct {
	Marker float64 `json:"marker"`
	LCP    float64 `json:"lcp"`
	Count  int     `json:"count"`
	Shows  bool    `json:"shows"`
}

// waitMarker waits, in the page, for p's marker to be painted; a page that
// never paints it is ErrNoMarker.
func waitMarker(ctx context.Context, p Page, timeout time.Duration) (painted, error) {
	marker, _ := json.Marshal(p.Marker)
	count, _ := json.Marshal(p.Count)
	text, _ := json.Marshal(p.Text)
	expr := fmt.Sprintf("window.__crudbenchPages.wait(%s, %d, %s, %s)", marker, timeout.Milliseconds(), count, text)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return painted{}, fmt.Errorf("%w (%s at %s)", ErrNoMarker, p.Marker, p.URL)
		}
		return painted{}, fmt.Errorf("%w (%s at %s): %v", ErrNoMarker, p.Marker, p.URL, err)
	}
	var seen painted
	if err := json.Unmarshal([]byte(raw), &seen); err != nil {
		return painted{}, err
	}
	return seen, nil
}

// signIn fills in and submits the sign-in form and waits until the browser
// has left the form's path.
func signIn(ctx context.Context, s SignIn) error {
	u, err := url.Parse(s.URL)
	if err != nil {
		return err
	}
	left, _ := json.Marshal(u.Path)
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.URL),
		chromedp.WaitVisible(chromedp.CSS("#f-username")),
		chromedp.SendKeys(chromedp.CSS("#f-username"), s.Username),
		chromedp.SendKeys(chromedp.CSS("#f-password"), s.Password),
		chromedp.Click(chromedp.CSS(`form button[type="submit"]`)),
	)
	if err != nil {
		return fmt.Errorf("sign-in at %s: %w", s.URL, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf("location.pathname !== %s", left))); err != nil {
		return fmt.Errorf("sign-in at %s: still on the form: %w", s.URL, err)
	}
	return nil
}

// startSession gives the view's context the session s of the page at
// pageURL.
func startSession(ctx context.Context, pageURL string, s Session) error {
	httpOnly := true
	for name, value := range s.Cookies {
		if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: name, Value: value, URL: pageURL, HTTPOnly: &httpOnly}); err != nil {
			return fmt.Errorf("session cookie %s: %w", name, err)
		}
	}
	if len(s.Storage) == 0 {
		return nil
	}
	items, _ := json.Marshal(s.Storage)
	src := fmt.Sprintf("(() => { const items = %s; for (const k in items) sessionStorage.setItem(k, items[k]); })();", items)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		return fmt.Errorf("session storage: %w", err)
	}
	return nil
}

// emulate applies the profile's network conditions and CPU slowdown.
func emulate(ctx context.Context, p Profile) error {
	if p.throttlesNetwork() {
		down, up := p.Download, p.Upload
		if down == 0 {
			down = -1
		}
		if up == 0 {
			up = -1
		}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: p.Latency, DownloadThroughput: down, UploadThroughput: up}},
		}); err != nil {
			return fmt.Errorf("network conditions: %w", err)
		}
	}
	if p.CPUSlowdown > 1 {
		if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: p.CPUSlowdown}); err != nil {
			return fmt.Errorf("CPU throttling: %w", err)
		}
	}
	return nil
}

type threadTime struct{ script, task time.Duration }

// mainThread reads the tab's cumulative script and task time.
func mainThread(ctx context.Context) (threadTime, error) {
	res, err := chromedp.Call(ctx, performance.GetMetrics, struct{}{})
	if err != nil {
		return threadTime{}, fmt.Errorf("performance metrics: %w", err)
	}
	var t threadTime
	for _, m := range res.Metrics {
		switch m.Name {
		case "ScriptDuration":
			t.script = time.Duration(m.Value * float64(time.Second))
		case "TaskDuration":
			t.task = time.Duration(m.Value * float64(time.Second))
		}
	}
	return t, nil
}

func millis(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
