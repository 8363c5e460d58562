package report_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

func TestBottomLine(t *testing.T) {
	run := bottomLineRun(t)
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	section := between(md, "## Bottom line\n", "\n## ")
	want := []string{
		// htmx's search stopped when the load generator fell behind: the
		// machine's limit, not htmx's, in a clause of its own.
		"On read-one, rest met the SLO up to 1450 req/s on this machine, graphql up to 610 req/s; htmx met it up to at least 700 req/s (machine-bound: load-generator), where the machine, not its own core, was full: more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL) would lift the bound.",
		"On read-small, rest met the SLO up to the search's cap of 5000 req/s on this machine, graphql up to 900 req/s; htmx did not meet it even at 50 req/s.",
		"On read-one (capacity confirmation runs, each app at its own capacity), htmx spent 2.10× rest's CPU per request (1.05 vs 0.50 ms); graphql spent 2.40× rest's CPU per request (1.20 vs 0.50 ms), 41% of it in encoding.",
		"rest used the least memory, 30.0 MB RSS at most; htmx 1.10× that (33.0 MB) and graphql 1.47× that (44.0 MB).",
		"htmx's binary is 1.07× rest's (15.0 vs 14.0 MB), with 1.25× its hand-written Go lines (1,000 vs 800); graphql's binary is 1.57× rest's (22.0 vs 14.0 MB), with 3.00× its hand-written Go lines (2,400 vs 800).",
	}
	var got []string
	for _, l := range strings.Split(section, "\n") {
		if s, ok := strings.CutPrefix(l, "- "); ok {
			got = append(got, s)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("bottom line sentences:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	rows := map[string]string{
		"rest":    "| rest | 1450 | ≥ 5000 (cap reached) | 0.50 | 4,210 | n/a | n/a | 4.00 | 84,200 | 0.60 | 12,630 | 30.0 | 14.0 | 800 |",
		"graphql": "| graphql | 610 | 900 | 1.20 | 4,210 | 0.40 | 3,368 | 10.0 | 84,200 | 1.50 | 12,630 | 44.0 | 22.0 | 2,400 |",
		"htmx":    "| htmx | ≥ 700 (machine-bound: load-generator) | none below 50 | 1.05 | 4,210 | 0.24 | 3,368 | 6.00 | 84,200 | n/a | n/a | 33.0 | 15.0 | 1,000 |",
	}
	for app, row := range rows {
		if !strings.Contains(section, row) {
			t.Errorf("bottom line lacks the row of %s:\n%s\nsection:\n%s", app, row, section)
		}
	}
	// Every figure of a sentence is a figure of the table (ratios and the
	// layer share aside, which are computed from them or shown under Where
	// the CPU goes).
	table := between(section, "| app |", "\n\n")
	for _, s := range want {
		for _, n := range regexp.MustCompile(`\d[\d,.]*\d|\d`).FindAllString(s, -1) {
			if i := strings.Index(s, n) + len(n); i < len(s) && (s[i:i+1] == "%" || strings.HasPrefix(s[i:], "×")) {
				continue
			}
			if !strings.Contains(table, " "+n+" ") {
				t.Errorf("sentence figure %s is not in the table: %s", n, s)
			}
		}
	}
	for _, src := range []string{"read-one: capacity confirmation runs, each app at its own capacity", "read-small: profile high at 1200 req/s", "read-many: profile light at 20 req/s", "write: profile high at 100 req/s"} {
		if !strings.Contains(section, src) {
			t.Errorf("bottom line does not say %q", src)
		}
	}
}

// bottomLineCase changes fullRun and says what its bottom line must then
// leave out, and what it must say instead.
type bottomLineCase struct {
	name   string
	change func(t *testing.T, run *results.Run)
	absent []string
	want   []string
}

// testBottomLineCases runs each case as a subtest on the bottom line of
// report.md.
func testBottomLineCases(t *testing.T, tests []bottomLineCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := fullRun(t)
			tt.change(t, run)
			md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
			section := between(md, "## Bottom line\n", "\n## ")
			for _, a := range tt.absent {
				if strings.Contains(section, a) {
					t.Errorf("bottom line has %q without the numbers for it:\n%s", a, section)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(section, w) {
					t.Errorf("bottom line lacks %q:\n%s", w, section)
				}
			}
		})
	}
}

// TestBottomLineWithoutCapacity takes capacity figures away from the
// bottom line.
func TestBottomLineWithoutCapacity(t *testing.T) {
	testBottomLineCases(t, []bottomLineCase{
		{
			name:   "no capacity search",
			change: func(t *testing.T, run *results.Run) { run.Capacities = nil },
			absent: []string{"met the SLO", "capacity req/s", "read-one: capacity confirmation runs"},
		},
		{
			name: "no app met the SLO on read-one",
			change: func(t *testing.T, run *results.Run) {
				for i := range run.Capacities[:3] {
					c := &run.Capacities[i]
					c.Status, c.Rate, c.Upper, c.Confirmation, c.Held = results.CapacityNone, 0, 50, nil, false
				}
			},
			absent: []string{"On read-one, rest met", "read-one: capacity confirmation runs"},
			want:   []string{"- On read-one, rest, graphql and htmx did not meet the SLO even at 50 req/s.\n", "| rest | none below 50 | ≥ 5000 (cap reached) |"},
		},
		{
			name: "apps missed the SLO at different first rates",
			change: func(t *testing.T, run *results.Run) {
				for i, upper := range []float64{50, 100} {
					c := &run.Capacities[1+i]
					c.Status, c.Rate, c.Upper, c.Confirmation, c.Held = results.CapacityNone, 0, upper, nil, false
				}
			},
			want: []string{"- On read-one, rest met the SLO up to 1450 req/s on this machine; graphql did not meet it even at 50 req/s and htmx did not meet it even at 100 req/s.\n"},
		},
	})
}

// TestBottomLineUnconfirmed: a rate that only the short probes met, with
// no full-length run holding the SLO at it or below it, is not quoted as a
// capacity: the sentence and the table say it stands on the probes.
func TestBottomLineUnconfirmed(t *testing.T) {
	// missAll marks every confirmation of c as missed, at its rate and at
	// 90% and 81% of it.
	missAll := func(c *results.Capacity) {
		c.Held = false
		c.Confirmation.Verdict, c.Confirmation.Reason = results.VerdictSlow, "p99 80.0 ms is over the 50ms SLO"
		for _, share := range []float64{0.9, 0.81} {
			r := *confirmation(c.Scenario, c.App, c.Rate*share, 0.6, 30)
			r.Verdict, r.Reason = results.VerdictSlow, "p99 70.0 ms is over the 50ms SLO"
			c.Missed = append(c.Missed, r)
		}
	}
	testBottomLineCases(t, []bottomLineCase{
		{
			name:   "one app",
			change: func(t *testing.T, run *results.Run) { missAll(&run.Capacities[1]) }, // read-one graphql, 610
			absent: []string{"graphql up to 610", "| graphql | 610 |"},
			want: []string{
				"- On read-one, rest met the SLO up to 1450 req/s on this machine; htmx met it up to at least 700 req/s (machine-bound: load-generator), where the machine, not its own core, was full: more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL) would lift the bound; graphql met it only in its 5s probes, up to 610 req/s, and in no full-length run down to 494 req/s.\n",
				"| graphql | 610 (unconfirmed) |",
			},
		},
		{
			name: "every app, one without a confirmation",
			change: func(t *testing.T, run *results.Run) {
				missAll(&run.Capacities[0])
				missAll(&run.Capacities[1])
				c := &run.Capacities[2]
				c.Held, c.Confirmation = false, nil
			},
			absent: []string{"On read-one, rest met the SLO up to"},
			want: []string{
				"- On read-one, rest met the SLO only in its 5s probes, up to 1450 req/s, and in no full-length run down to 1175 req/s; " +
					"graphql met it only in its 5s probes, up to 610 req/s, and in no full-length run down to 494 req/s; " +
					"htmx met it only in its 5s probes, up to 700 req/s, and no full-length run confirmed it.\n",
				"| rest | 1450 (unconfirmed) |", "| htmx | 700 (unconfirmed) |",
			},
		},
		{
			name:   "the cap",
			change: func(t *testing.T, run *results.Run) { missAll(&run.Capacities[3]) }, // read-small rest, capped at 5000
			absent: []string{"up to the search's cap of 5000 req/s on this machine"},
			want: []string{
				"- On read-small, graphql met the SLO up to 900 req/s on this machine; rest met it only in its 5s probes, up to the search's cap of 5000 req/s, and in no full-length run down to 4050 req/s; htmx did not meet it even at 50 req/s.\n",
				"| rest | 1450 | ≥ 5000 (cap reached, unconfirmed) |",
			},
		},
	})
}

// TestBottomLineMachineBound: a capacity the machine's other side
// stopped is a lower bound, said apart from the apps their own limit
// stopped, with what would lift it.
func TestBottomLineMachineBound(t *testing.T) {
	testBottomLineCases(t, []bottomLineCase{
		{
			name: "PostgreSQL and the load generator",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities[0].StopReason = results.StopPostgresCPU // read-one rest, 1450
			},
			absent: []string{"rest met the SLO up to 1450", "| rest | 1450 |"},
			want: []string{
				"- On read-one, graphql met the SLO up to 610 req/s on this machine; rest met it up to at least 1450 req/s (machine-bound: postgres-cpu) and htmx up to at least 700 req/s (machine-bound: load-generator), where the machine, not their own cores, was full: more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL) would lift the bounds.\n",
				"| rest | ≥ 1450 (machine-bound: postgres-cpu) |",
			},
		},
		{
			name: "other processes, and no app's own limit",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities[0].StopReason = results.StopOtherLoad
				run.Capacities[1].StopReason = results.StopPostgresCPU
			},
			want: []string{
				"- On read-one, rest met the SLO up to at least 1450 req/s (machine-bound: other-load), graphql up to at least 610 req/s (machine-bound: postgres-cpu) and htmx up to at least 700 req/s (machine-bound: load-generator), where the machine, not their own cores, was full: a machine without the other work, or more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL) would lift the bounds.\n",
			},
		},
		{
			name: "an amqp app's broker",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities[0].StopReason = results.StopBrokerCPU
			},
			absent: []string{"rest met the SLO up to 1450", "| rest | 1450 |"},
			want: []string{
				"rest met it up to at least 1450 req/s (machine-bound: broker-cpu) and htmx up to at least 700 req/s (machine-bound: load-generator), where the machine, not their own cores, was full: more CPUs for RabbitMQ, PostgreSQL and the load generator (-cpus app=…,rest=…) or RabbitMQ on a host of its own (AMQP_URL), or more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL) would lift the bounds.\n",
				"| rest | ≥ 1450 (machine-bound: broker-cpu) |",
			},
		},
		{
			// A rate no full-length run held bounds nothing.
			name: "unconfirmed",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities[2].Held = false
			},
			absent: []string{"machine-bound"},
			want:   []string{"| htmx | 700 (unconfirmed) |"},
		},
	})
}

// TestBottomLineWithoutNumbers takes away the stack facts, the app CPU or
// every held read-one run.
func TestBottomLineWithoutNumbers(t *testing.T) {
	testBottomLineCases(t, []bottomLineCase{
		{
			name:   "no stack facts",
			change: func(t *testing.T, run *results.Run) { run.Stacks = nil },
			absent: []string{"binary", "own Go lines"},
		},
		{
			name: "app CPU of one app only",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities = nil
				for i := range run.Results {
					if r := &run.Results[i]; r.App != "rest" {
						r.AppCost = results.ProcessCost{}
					}
				}
			},
			absent: []string{"CPU per request", "used the least memory"},
		},
		{
			name: "every profile queued on read-one",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities = nil
				find(t, run, "light", "read-one", "rest").Verdict = results.VerdictSaturated
			},
			absent: []string{"read-one CPU-ms/req", "On read-one"},
		},
	})
}
