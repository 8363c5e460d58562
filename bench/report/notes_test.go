package report_test

import (
	"strings"
	"testing"
	"time"

	"crudbench/bench/report"
)

// TestMethodNotes checks that the method notes quote the run's figures and
// state the optional sources only when they were used.
func TestMethodNotes(t *testing.T) {
	base := report.Method{
		MaxConnections: 100, Warmup: 3 * time.Second, Duration: 15 * time.Second, Cooldown: 2 * time.Second,
		SampleInterval: 100 * time.Millisecond, TreeEvery: 10, MemoryEvery: 100,
		ReadSmallLimit: 200, DefaultLimit: 50,
		Mix: []report.MixShare{{Percent: 60, Scenario: "read-one"}, {Percent: 40, Scenario: "write"}},
	}
	for _, tc := range []struct {
		name    string
		change  func(*report.Method)
		want    []string
		wantNot []string
	}{
		{"plain", func(*report.Method) {},
			[]string{"at most 100 connections per app", "3s of warm-up (discarded) then 15s measured", "limit/first 200", "read-slim asks each kind", "mixed: 60% read-one, 40% write,"},
			[]string{"App metrics", "replicas", "CPU profiles", "Field parity"}},
		{"scraped replicas", func(m *report.Method) { m.ScrapeInterval, m.Replicas = time.Second, true },
			[]string{"scraped every 1s", "An app run as replicas"}, []string{"CPU profiles"}},
		{"profiled, parity checked", func(m *report.Method) { m.ProfileCPU, m.ParitySource = true, "database" },
			[]string{"over the measured window's whole seconds (15s)", "Field parity was checked against the database"}, []string{"App metrics"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base
			tc.change(&m)
			all := strings.Join(report.MethodNotes(m), "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("notes lack %q:\n%s", w, all)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(all, w) {
					t.Errorf("notes say %q:\n%s", w, all)
				}
			}
		})
	}
}
