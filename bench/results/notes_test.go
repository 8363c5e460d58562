package results_test

import (
	"strings"
	"testing"
	"time"

	"crudbench/bench/results"
)

// TestMethodNotes checks that the method notes quote the run's figures and
// state the optional sources only when they were used.
func TestMethodNotes(t *testing.T) {
	base := results.Method{
		MaxConnections: 100, Warmup: 3 * time.Second, Duration: 15 * time.Second, Cooldown: 2 * time.Second,
		SampleInterval: 100 * time.Millisecond, TreeEvery: 10, MemoryEvery: 100,
		ReadSmallLimit: 200, DefaultLimit: 50, ReadSlimLimit: 500,
		Mix: []results.MixShare{{Percent: 60, Scenario: "read-one"}, {Percent: 40, Scenario: "write"}},
	}
	for _, tc := range []struct {
		name    string
		change  func(*results.Method)
		want    []string
		wantNot []string
	}{
		{"plain", func(*results.Method) {},
			[]string{"Open model: vegeta sends on schedule", "at most 100 connections per app", "3s of warm-up (discarded) then 15s measured", "limit/first 200", "read-slim asks each kind", "for the same 500 persons", "mixed: 60% read-one, 40% write,"},
			[]string{"App metrics", "replicas", "CPU profiles", "Field parity"}},
		{"closed loop", func(m *results.Method) { m.Clients = 4 },
			[]string{"Closed loop (-model closed): 4 client(s)", "never more than 4 request(s) in flight", "3s of warm-up (discarded) then 15s measured", "the requests the clients sent after the warm-up", "each step one request from the clients in turn"},
			[]string{"Open model", "scheduled after the warm-up", "at the target rate"}},
		{"scraped replicas", func(m *results.Method) { m.ScrapeInterval, m.Replicas = time.Second, true },
			[]string{"scraped every 1s", "An app run as replicas"}, []string{"CPU profiles"}},
		{"profiled, parity checked", func(m *results.Method) { m.ProfileCPU, m.ParitySource = true, "database" },
			[]string{"over the measured window's whole seconds (15s)", "Field parity was checked against the database"}, []string{"App metrics"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base
			tc.change(&m)
			all := strings.Join(results.MethodNotes(m), "\n")
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

// TestCapacityRepeatNote: repeated searches say the app was started
// afresh before each, and name the attached apps that could not be.
func TestCapacityRepeatNote(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		attached []string
		want     []string
	}{
		{"single", 1, nil, nil},
		{"started afresh", 3, nil, []string{"searched 3 times, the app stopped and started afresh before each search", "median, with their range"}},
		{"one attached", 2, []string{"candidate"}, []string{"candidate was attached and cannot be restarted by the runner: its 2 searches ran on the same process"}},
		{"several attached", 3, []string{"rest", "graphql"}, []string{"rest and graphql were attached and cannot be restarted by the runner: the 3 searches of each ran on the same process"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := results.CapacityRepeatNote(tt.n, tt.attached)
			if (got == "") != (tt.want == nil) {
				t.Fatalf("note %q", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("note %q lacks %q", got, w)
				}
			}
		})
	}
}

// TestCapacityNotes: the cores an app's CPU limit is judged against, as
// the runner knows them, and the apps run as replicas.
func TestCapacityNotes(t *testing.T) {
	tests := []struct {
		name     string
		attached bool
		appCores int
		replicas map[string]int
		want     []string
	}{
		{"started, sharing the machine", false, 0, nil, []string{"the runner starts the apps without GOMAXPROCS, so each may use all 4 cores"}},
		{"attached", true, 0, nil, []string{"judged against all 4 cores of this machine"}},
		{"on CPUs of their own", false, 2, nil, []string{"each app ran on 2 CPU(s) of its own"}},
		{"replicas", true, 0, map[string]int{"rest": 3, "graphql": 1}, []string{"all 4 cores", "rest runs as 3 replicas"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notes := results.CapacityNotes(tt.attached, 4, tt.appCores, []string{"rest", "graphql"}, tt.replicas)
			if len(notes) != len(tt.want) {
				t.Fatalf("notes %q, want %d", notes, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(notes[i], w) {
					t.Errorf("note %q lacks %q", notes[i], w)
				}
			}
		})
	}
}
