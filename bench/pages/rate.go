package pages

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrBusy is a view's error when it was due while every allowed browser
// context was still busy: in an open model a view is never postponed, so
// it is counted as failed rather than started late.
var ErrBusy = errors.New("no browser context free when the view was due")

// Run views p at a constant rate (views per second) for the window, in at
// most contexts concurrent browser contexts, and returns every view due in
// the window, in the order they were due, once the last has ended. A view
// due while contexts are all busy is not started: it is returned with
// ErrBusy.
func (b *Browser) Run(ctx context.Context, p Page, o Options, rate float64, window time.Duration, contexts int) []View {
	if rate <= 0 || window <= 0 || contexts <= 0 {
		return nil
	}
	interval := time.Duration(float64(time.Second) / rate)
	n := int(window / interval)
	views := make([]View, n)
	slots := make(chan struct{}, contexts)
	var wg sync.WaitGroup
	begin := time.Now()
	for i := range n {
		due := begin.Add(time.Duration(i) * interval)
		select {
		case <-time.After(time.Until(due)):
		case <-ctx.Done():
			for j := i; j < n; j++ {
				views[j] = View{Start: begin.Add(time.Duration(j) * interval), Err: ctx.Err()}
			}
			wg.Wait()
			return views
		}
		select {
		case slots <- struct{}{}:
		default:
			views[i] = View{Start: due, Err: ErrBusy}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			views[i] = b.View(ctx, p, o)
		}()
	}
	wg.Wait()
	return views
}
