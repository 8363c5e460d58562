package config_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
)

// TestParsePages sorts -apps and -scenarios into the apps the API
// scenarios drive and the front ends the page scenarios view: a front end
// of the table is never driven, an API app is never viewed, a site is
// both; -apps all and -scenarios all leave out what makes nothing to run,
// a name that does is an error.
func TestParsePages(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		args                 []string
		apps, fronts, scens  []string
		pageScenarios, notes []string
	}{
		{"the front ends alone", []string{"-apps", "htmx,web-rest,web-graphql", "-scenarios", "page-person,page-vacancies"},
			nil, []string{"htmx", "web-rest", "web-graphql"}, nil, []string{"page-person", "page-vacancies"}, nil},
		{"API and page scenarios", []string{"-apps", "rest,htmx,web-rest", "-scenarios", "read-one,page-person"},
			[]string{"rest", "htmx"}, []string{"htmx", "web-rest"}, []string{"read-one"}, []string{"page-person"}, nil},
		{"the default apps viewed", []string{"-scenarios", "page-person"},
			nil, []string{"htmx"}, nil, []string{"page-person"}, []string{"rest, graphql did not run"}},
		{"a front end's API named too", []string{"-apps", "rest,web-rest", "-scenarios", "page-person"},
			nil, []string{"web-rest"}, nil, []string{"page-person"}, nil},
		{"a front end without a page scenario", []string{"-apps", "rest,web-rest", "-scenarios", "read-one"},
			[]string{"rest"}, nil, []string{"read-one"}, nil, []string{"web-rest did not run: a front end is viewed by the page scenarios"}},
		{"-scenarios all without a front end", []string{"-apps", "rest", "-scenarios", "all"},
			[]string{"rest"}, nil, []string{"read-one", "read-small", "read-many", "read-slim", "write", "mixed", "control"}, nil, []string{"The page scenarios (page-person, page-vacancies) did not run"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse(tt.args, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.apps, cfg.Apps); d != "" {
				t.Errorf("apps (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.fronts, cfg.Pages.FrontEnds); d != "" {
				t.Errorf("front ends (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.scens, cfg.Scenarios); d != "" {
				t.Errorf("API scenarios (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.pageScenarios, cfg.Pages.Scenarios); d != "" {
				t.Errorf("page scenarios (-want +got):\n%s", d)
			}
			for _, n := range tt.notes {
				if !slices.ContainsFunc(cfg.Notes, func(s string) bool { return strings.Contains(s, n) }) {
					t.Errorf("notes %q lack %q", cfg.Notes, n)
				}
			}
			if len(tt.notes) == 0 && len(cfg.Notes) > 0 {
				t.Errorf("notes %q, want none", cfg.Notes)
			}
		})
	}

	// -apps all -scenarios all drives every API app and views every front
	// end, each once.
	cfg, err := config.Parse([]string{"-apps", "all", "-scenarios", "all"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"htmx", "htmx-tuned", "web-rest", "web-graphql"}, cfg.Pages.FrontEnds); d != "" {
		t.Errorf("-apps all -scenarios all: front ends (-want +got):\n%s", d)
	}
	if slices.Contains(cfg.Apps, "web-rest") || !slices.Contains(cfg.Apps, "htmx") || !slices.Contains(cfg.Apps, "rest") {
		t.Errorf("-apps all -scenarios all: apps %v, want every API app and no front end of the table", cfg.Apps)
	}

	cfg, err = config.Parse([]string{"-scenarios", "page-person", "-profiles", "all", "-rate", "page-person=0.5,high.page-person=3", "-page-devices", "all", "-page-contexts", "2"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]map[string]float64{"light": {"page-person": 0.5}, "medium": {"page-person": 0.5}, "high": {"page-person": 3}}, cfg.Pages.Rates); d != "" {
		t.Errorf("page rates (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"desktop", "mobile"}, cfg.Pages.Devices); d != "" || cfg.Pages.Contexts != 2 {
		t.Errorf("devices %v (-want +got):\n%s, contexts %d", cfg.Pages.Devices, d, cfg.Pages.Contexts)
	}
	if cfg, err := config.Parse(nil, env(nil), io.Discard); err != nil || cfg.Pages.Contexts != config.DefaultPageContexts || !slices.Equal(cfg.Pages.Devices, []string{"desktop"}) || cfg.Pages.Rates["light"] != nil {
		t.Errorf("defaults: %+v, %v", cfg.Pages, err)
	}

	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"-apps", "web-rest", "-scenarios", "read-one"}, "-apps names only front ends (web-rest), which the API scenarios (read-one) do not drive"},
		{[]string{"-apps", "web-rest"}, "-apps names only front ends (web-rest)"},
		{[]string{"-apps", "rest", "-scenarios", "page-person"}, "-scenarios page-person view front ends (an app of kind site, or web-rest, web-graphql), and -apps names none"},
		{[]string{"-page-devices", "tablet"}, `-page-devices: unknown device "tablet" (known: desktop, mobile, or all)`},
		{[]string{"-page-contexts", "0"}, "-page-contexts must be at least 1"},
		{[]string{"-attach", "a=rest@http://h:1", "-apps", "a,web-rest"}, `unknown app "web-rest"`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
