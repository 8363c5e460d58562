package diff_test

import (
	"strings"
	"testing"

	"crudbench/bench/diff"
	"crudbench/bench/results"
)

func TestComparable(t *testing.T) {
	withModel := func(model string, clients int) *results.Run {
		r := run(result(results.VerdictOK, 5))
		r.Settings.Model, r.Settings.Clients = model, clients
		return r
	}
	open, before := withModel(results.ModelOpen, 0), withModel("", 0)
	closed1, closed10 := withModel(results.ModelClosed, 1), withModel(results.ModelClosed, 10)
	for _, tc := range []struct {
		name     string
		old, new *results.Run
		want     string // "" when comparable
	}{
		{"open with open", open, open, ""},
		{"a file from before the models with open", before, open, ""},
		{"closed with closed", closed10, closed10, ""},
		{"open with closed", open, closed10, "the old run's load is open (constant rates) and the new run's a closed loop of 10 client(s)"},
		{"closed with open", closed1, before, "the old run's load is a closed loop of 1 client(s) and the new run's open"},
		{"different clients", closed1, closed10, "compare runs with the same -clients"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := diff.Comparable(tc.old, tc.new)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Comparable: %v, want %q", err, tc.want)
			}
		})
	}
}
