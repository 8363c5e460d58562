package scenario_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/scenario"
)

// TestRates pins the profile table to the reference study's rates.
func TestRates(t *testing.T) {
	want := map[string]map[string]float64{
		"light":  {"read-one": 100, "read-small": 100, "read-many": 20, "read-slim": 20, "write": 20, "mixed": 100, "control": 100},
		"medium": {"read-one": 400, "read-small": 400, "read-many": 40, "read-slim": 40, "write": 50, "mixed": 400, "control": 400},
		"high":   {"read-one": 1200, "read-small": 1200, "read-many": 20, "read-slim": 20, "write": 100, "mixed": 1200, "control": 1200},
	}
	pages := map[string]float64{"light": 1, "medium": 2, "high": 4} // views/s
	withPages := map[string]map[string]float64{}
	for p, rates := range want {
		withPages[p] = map[string]float64{"page-person": pages[p], "page-vacancies": pages[p]}
		for s, r := range rates {
			withPages[p][s] = r
		}
	}
	if d := cmp.Diff(withPages, scenario.Rates); d != "" {
		t.Errorf("Rates (-want +got):\n%s", d)
	}
	got, err := scenario.RateTable(scenario.Profiles, scenario.All, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RateTable without overrides (-want +got):\n%s", d)
	}
}

func TestRateTableOverrides(t *testing.T) {
	overrides, err := scenario.ParseRates("read-one=50, high.read-one=800,write=2.5")
	if err != nil {
		t.Fatal(err)
	}
	got, err := scenario.RateTable([]string{"light", "high"}, []string{"read-one", "write"}, overrides)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]float64{
		"light": {"read-one": 50, "write": 2.5},
		"high":  {"read-one": 800, "write": 2.5},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RateTable (-want +got):\n%s", d)
	}

	for _, bad := range []string{"nope=5", "extreme.read-one=5", "read-one=0", "read-one=-1"} {
		t.Run(bad, func(t *testing.T) {
			o, err := scenario.ParseRates(bad)
			if err == nil {
				_, err = scenario.RateTable(scenario.Profiles, scenario.All, o)
			}
			if err == nil {
				t.Errorf("override %q accepted", bad)
			}
		})
	}
	if _, err := scenario.ParseRates("read-one"); err == nil {
		t.Error(`ParseRates("read-one") accepted a rate without a number`)
	}
}

func TestParseList(t *testing.T) {
	tests := []struct {
		value string
		want  []string
		err   string
	}{
		{"light", []string{"light"}, ""},
		{"high, light", []string{"light", "high"}, ""},
		{"all", []string{"light", "medium", "high"}, ""},
		{"light,all,light", []string{"light", "medium", "high"}, ""},
		{"", nil, "no profile"},
		{"heavy", nil, `unknown profile "heavy"`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := scenario.ParseList("profile", tt.value, scenario.Profiles)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	got, err := scenario.ParseList("scenario", "all", scenario.All)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"read-one", "read-small", "read-many", "read-slim", "write", "mixed", "control"}, got); d != "" {
		t.Errorf("all scenarios (-want +got):\n%s", d)
	}
}

func TestMixWeights(t *testing.T) {
	total := 0
	for _, w := range scenario.MixWeights {
		total += w.Percent
	}
	if total != 100 {
		t.Errorf("mix weights add up to %d%%, want 100%%", total)
	}
}
