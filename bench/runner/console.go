package runner

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"crudbench/bench/load"
)

// console writes the runner's messages and, on a terminal, one progress
// line rewritten in place with \r. Elsewhere (a pipe, a log file, a test)
// the progress line is left out and every run ends with a line of its own.
type console struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	progress int // length of the progress line on screen, 0 when none
	// width is the app column's (app).
	width int
}

// newConsole writes to w, the app column as wide as the longest of apps.
func newConsole(w io.Writer, apps []string) *console {
	c := &console{w: w, width: 8}
	for _, a := range apps {
		c.width = max(c.width, len(a))
	}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			c.tty = true
		}
	}
	return c
}

// printf writes a message on a line of its own, clearing the progress line.
func (c *console) printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
	fmt.Fprintf(c.w, format, args...)
}

// status replaces the progress line (terminals only).
func (c *console) status(line string) {
	if !c.tty {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprint(c.w, "\r"+line)
	if pad := c.progress - len(line); pad > 0 {
		fmt.Fprint(c.w, strings.Repeat(" ", pad))
	}
	c.progress = len(line)
}

func (c *console) clear() {
	if c.progress > 0 {
		fmt.Fprint(c.w, "\r"+strings.Repeat(" ", c.progress)+"\r")
		c.progress = 0
	}
}

// round formats a duration to whole seconds (tenths below ten seconds).
func round(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// progress is a run's load.Options.Progress: it keeps the status line on
// the run's phase, elapsed time and what is left of the whole benchmark.
func (m *measurer) progress(j load.Job, label string, left time.Duration) func(load.Progress) {
	return func(p load.Progress) {
		phase := "measuring"
		if p.Warmup {
			phase = "warming up"
		}
		m.con.status(fmt.Sprintf("%s %s %s %s  %s %s/%s  %s left  %.1f req/s  %d errors",
			label, j.Profile, j.Scenario, j.App, phase, round(p.Elapsed), round(p.Total),
			round(left+p.Total-p.Elapsed), p.Rate, p.Errors))
	}
}

// app pads an app's name to the longest measured name (at least 8
// characters), so the console's columns line up with variants' longer
// names too.
func (c *console) app(name string) string {
	return fmt.Sprintf("%-*s", c.width, name)
}
