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

// Run views the page at a constant rate (views per second) for the
// window, one view at a time in each of cs's contexts, and returns every
// view due in the window, in the order they were due, once the last has
// ended. A view due while every context is busy is not started: it is
// returned with ErrBusy.
func (cs *Contexts) Run(ctx context.Context, rate float64, window time.Duration) []View {
	if rate <= 0 || window <= 0 || cap(cs.free) == 0 {
		return nil
	}
	interval := time.Duration(float64(time.Second) / rate)
	n := int(window / interval)
	views := make([]View, n)
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
		var c *visitor
		select {
		case c = <-cs.free:
		default:
			views[i] = View{Start: due, Err: ErrBusy}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { cs.free <- c }()
			views[i] = cs.view(ctx, c)
		}()
	}
	wg.Wait()
	return views
}
