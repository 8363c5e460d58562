package config_test

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
)

func TestMetricsURLFlag(t *testing.T) {
	attach := "-attach=rest=http://10.0.0.5:8081,graphql=http://localhost:8082"
	cfg, err := config.Parse([]string{attach, "-no-proc",
		"-metrics-url", "rest=http://10.0.0.5:9090/metrics, graphql=https://metrics.example:443/apps/graphql?x=1"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"rest": {"http://10.0.0.5:9090/metrics"}, "graphql": {"https://metrics.example:443/apps/graphql?x=1"}}
	if d := cmp.Diff(want, cfg.MetricsURLs); d != "" || !cfg.NoProc {
		t.Errorf("metrics URLs (-want +got):\n%s\nno-proc %v", d, cfg.NoProc)
	}
	// An app named again is that many replicas, in the order given.
	cfg, err = config.Parse([]string{attach, "-pid", "graphql=1234",
		"-metrics-url", "rest=http://10.0.0.5:9100/metrics,graphql=http://localhost:9101/metrics,rest=http://10.0.0.6:9100/metrics"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string][]string{"rest": {"http://10.0.0.5:9100/metrics", "http://10.0.0.6:9100/metrics"}, "graphql": {"http://localhost:9101/metrics"}}
	if d := cmp.Diff(want, cfg.MetricsURLs); d != "" {
		t.Errorf("replicas' metrics URLs (-want +got):\n%s", d)
	}
	if cfg, err := config.Parse([]string{"-no-proc"}, env(nil), io.Discard); err != nil || !cfg.NoProc {
		t.Errorf("-no-proc without -attach: %v, NoProc %v; want no error, true (the runner's apps serve metrics)", err, cfg.NoProc)
	}

	for _, tt := range []struct {
		name string
		args []string
		err  string
	}{
		{"no scheme", []string{attach, "-metrics-url", "rest=10.0.0.5:9090/metrics"}, "want an http:// or https:// URL"},
		{"not http", []string{attach, "-metrics-url", "rest=ftp://10.0.0.5:9090/metrics"}, "want an http:// or https:// URL"},
		{"no host", []string{attach, "-metrics-url", "rest=http:///metrics"}, "want a host"},
		{"a user", []string{attach, "-metrics-url", "rest=http://me:secret@10.0.0.5:9090/metrics"}, "want no user"},
		{"no name", []string{attach, "-metrics-url", "http://10.0.0.5:9090/metrics"}, "want app=URL"},
		{"a bad name", []string{attach, "-metrics-url", "Rest!=http://10.0.0.5:9090/metrics"}, "-metrics-url \"Rest!=http"},
		{"an app not attached", []string{attach, "-metrics-url", "soap=http://10.0.0.5:9090/metrics"}, "-metrics-url: soap is not an attached app"},
		{"without -attach", []string{"-metrics-url", "rest=http://10.0.0.5:9090/metrics"}, "-metrics-url only applies with -attach"},
		{"-pid with -no-proc", []string{attach, "-no-proc", "-pid", "rest=1234"}, "-pid has no use with -no-proc"},
		{"a URL twice for one app", []string{attach, "-metrics-url", "rest=http://10.0.0.5:9100/metrics,rest=http://10.0.0.5:9100/metrics"},
			"-metrics-url: http://10.0.0.5:9100/metrics is given twice (for rest and rest)"},
		{"a URL twice for two apps", []string{attach, "-metrics-url", "rest=http://10.0.0.5:9100/metrics,graphql=http://10.0.0.5:9100/metrics"},
			"-metrics-url: http://10.0.0.5:9100/metrics is given twice (for rest and graphql)"},
		{"-pid for an app with replicas", []string{attach, "-pid", "rest=1234", "-metrics-url", "rest=http://10.0.0.5:9100/metrics,rest=http://10.0.0.6:9100/metrics"},
			"-pid rest: rest runs as 2 replicas (-metrics-url), which /proc cannot read as one app"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
