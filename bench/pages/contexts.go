package pages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Contexts are the browser contexts a run of views of one page is made in
// (Run), one view at a time in each: for cold views each view opens a
// fresh context of its own; for warm views each is a returning visitor's,
// opened and warmed once by Open, before the run.
type Contexts struct {
	b *Browser
	p Page
	o Options
	// free holds the contexts no view is in: visitors for warm views,
	// nils (a fresh context per view) for cold ones.
	free chan *visitor
	all  []*visitor
}

// visitor is a browser context that has viewed the page once: its cache
// holds the page's files, its cookie jar the session's cookies, and
// storage is the sessionStorage its warm-up tab ended with, which every
// view's tab starts with (sessionStorage is a tab's, not a context's).
type visitor struct {
	id      cdp.BrowserContextID
	storage map[string]string
}

// Open makes n contexts for views of p as o says. For warm views it opens
// n browser contexts and warms each: its session started (p.Session, else
// p's sign-in form) and p viewed once, unmeasured, in a tab it then
// closes. A warm view in one (a tab of its own) then finds the bundle in
// the context's cache and costs the servers only itself, and a run's
// warm-up loads are made here, before its measured window. Cold views need
// nothing opened. Close the contexts once done.
func (b *Browser) Open(ctx context.Context, p Page, o Options, n int) (*Contexts, error) {
	cs := &Contexts{b: b, p: p, o: o, free: make(chan *visitor, max(n, 0))}
	for range n {
		if !o.Warm {
			cs.free <- nil
			continue
		}
		c, err := b.visit(ctx, p, o.timeout())
		if err != nil {
			cs.Close()
			return nil, fmt.Errorf("warming a browser context: %w", err)
		}
		cs.all = append(cs.all, c)
		cs.free <- c
	}
	return cs, nil
}

// Close ends the warm contexts.
func (cs *Contexts) Close() error {
	var errs []error
	for _, c := range cs.all {
		if _, err := chromedp.CallBrowser(cs.b.ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: c.id}); err != nil {
			errs = append(errs, fmt.Errorf("closing browser context %s: %w", c.id, err))
		}
	}
	cs.all = nil
	return errors.Join(errs...)
}

// view makes one view in c (nil: a fresh context) and times it.
func (cs *Contexts) view(ctx context.Context, c *visitor) View {
	start := time.Now()
	var v View
	var err error
	if c == nil {
		v, err = cs.b.coldView(ctx, cs.p, cs.o)
	} else {
		v, err = cs.b.warmView(ctx, c, cs.p, cs.o)
	}
	v.Start, v.Wall, v.Err = start, time.Since(start), err
	return v
}

// visit opens a browser context and views p in it once, signed in.
func (b *Browser) visit(ctx context.Context, p Page, timeout time.Duration) (*visitor, error) {
	res, err := chromedp.CallBrowser(b.ctx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return nil, fmt.Errorf("new browser context: %w", err)
	}
	c := &visitor{id: res.BrowserContextID}
	if err := b.warm(ctx, c, p, timeout); err != nil {
		if _, derr := chromedp.CallBrowser(b.ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: c.id}); derr != nil {
			err = errors.Join(err, derr)
		}
		return nil, err
	}
	return c, nil
}

// warm is c's warm-up: a tab signed in views p until its marker is
// painted, and c keeps the tab's sessionStorage.
func (b *Browser) warm(ctx context.Context, c *visitor, p Page, timeout time.Duration) error {
	vctx, _, closeTab, err := b.tab(ctx, timeout, chromedp.WithExistingBrowserContext(c.id))
	if err != nil {
		return err
	}
	defer closeTab()
	if err := startSignedIn(vctx, p); err != nil {
		return err
	}
	if err := chromedp.Do(vctx, chromedp.Navigate(p.URL)); err != nil {
		return fmt.Errorf("warm-up view %s: %w", p.URL, err)
	}
	if _, err := waitMarker(vctx, p, timeout); err != nil {
		return fmt.Errorf("warm-up view: %w", err)
	}
	raw, err := chromedp.Run(vctx, chromedp.Evaluate[string]("JSON.stringify(Object.fromEntries(Object.entries(sessionStorage)))"))
	if err != nil {
		return fmt.Errorf("warm-up view's sessionStorage: %w", err)
	}
	return json.Unmarshal([]byte(raw), &c.storage)
}

// warmView views p in a new tab of c, with c's sessionStorage and the
// cache on.
func (b *Browser) warmView(ctx context.Context, c *visitor, p Page, o Options) (View, error) {
	vctx, w, closeTab, err := b.tab(ctx, o.timeout(), chromedp.WithExistingBrowserContext(c.id))
	if err != nil {
		return View{}, err
	}
	defer closeTab()
	if len(c.storage) > 0 {
		if err := startSession(vctx, p.URL, Session{Storage: c.storage}); err != nil {
			return View{}, err
		}
	}
	return measure(vctx, p, o, w)
}
