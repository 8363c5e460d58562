package main_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestCapacityRepeat runs TestCapacity's tiny search twice on rest
// (-capacity -repeat 2): two searches, each on an app process the runner
// started afresh for it (their pids differ, and the console says so),
// folded into their median, whose range report.md shows. What the
// searches found is a loaded machine's to decide, as in TestCapacity: the
// test checks each search's outcome against its own probes, and the
// median and range against the searches.
func TestCapacityRepeat(t *testing.T) {
	run, dir, console := runBench(t, []string{"DATABASE_URL="},
		"-capacity", "-repeat", "2", "-scenarios", "read-one", "-apps", "rest",
		"-capacity-start", "5", "-capacity-max", "10", "-slo-p99", capSLO.String(),
		"-probe-warmup", "1s", "-probe-duration", "1s",
		"-warmup", "1s", "-duration", capDuration.String(), "-cooldown", "0s")

	if len(run.Capacities) != 1 {
		t.Fatalf("%d capacities, want the 2 searches folded into 1", len(run.Capacities))
	}
	c := run.Capacities[0]
	if len(c.Searches) != 2 {
		t.Fatalf("%d searches, want 2", len(c.Searches))
	}
	var pids []int
	for i, s := range c.Searches {
		if s.Search != i+1 || s.Scenario != "read-one" || s.App != "rest" || s.PID <= 0 || s.Searches != nil {
			t.Errorf("search %d: number %d, %s on %s, pid %d, %d searches of its own", i+1, s.Search, s.Scenario, s.App, s.PID, len(s.Searches))
		}
		pids = append(pids, s.PID)
		if want := fmt.Sprintf("read-one   rest     search %d of 2: restarted the app (pid %d)", i+1, s.PID); !strings.Contains(console, want) {
			t.Errorf("the console does not say search %d restarted the app: lacks %q", i+1, want)
		}
		for j, p := range s.Probes {
			checkProbe(t, j, p)
		}
		checkOutcome(t, s)
		if r := s.Confirmation; r != nil {
			base := fmt.Sprintf("capacity-read-one-rest-s%d", i+1)
			if !strings.Contains(r.RawFile, base) {
				t.Errorf("search %d's confirmation file %q, want it named %s", i+1, r.RawFile, base)
			}
			if fi, err := os.Stat(filepath.Join(dir, r.RawFile)); err != nil || fi.Size() == 0 {
				t.Errorf("search %d's confirmation file: %v", i+1, err)
			}
		}
	}
	if pids[0] == pids[1] {
		t.Errorf("both searches measured pid %d, want a freshly started process each", pids[0])
	}

	// The fold is the median search's fields, by the rule results owns.
	if want := results.FoldCapacities(c.Searches); !cmp.Equal(c, want) {
		t.Errorf("capacity %+v is not the fold of its searches:\n%s", c, cmp.Diff(want, c))
	}
	lo, hi, n := c.Range()
	if n != 2 || lo != min(c.Searches[0].Rate, c.Searches[1].Rate) || hi != max(c.Searches[0].Rate, c.Searches[1].Rate) ||
		!slices.ContainsFunc(c.Searches, func(s results.Capacity) bool { return s.Search == c.Search && s.Rate == c.Rate }) {
		t.Errorf("median %v (search %d), range %v–%v of %d, from searches at %v and %v", c.Rate, c.Search, lo, hi, n, c.Searches[0].Rate, c.Searches[1].Rate)
	}

	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	// An unconfirmed search is left out of the median, and the cell says
	// so; which one a run gets is the machine's to decide.
	if re := regexp.MustCompile(fmt.Sprintf(`median of 2( with 1 unconfirmed left out)?: %s–%s`, rate(lo), rate(hi))); !re.Match(md) {
		t.Errorf("report.md has no cell matching %s", re)
	}
	for _, want := range []string{
		"| each search req/s |",
		"each (scenario, app) was searched 2 times, the app stopped and started afresh before each search",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// rate is a capacity as the report prints it, rounded to whole req/s.
func rate(v float64) string { return fmt.Sprintf("%.0f", math.Round(v)) }
