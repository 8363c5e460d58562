package config_test

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestParseFlags(t *testing.T) {
	cfg, err := config.Parse(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"light"}, cfg.Profiles); d != "" {
		t.Errorf("default profiles (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"read-one", "read-small", "read-many"}, cfg.Scenarios); d != "" {
		t.Errorf("default scenarios (-want +got):\n%s", d)
	}
	if cfg.Warmup != 3*time.Second || cfg.Duration != 15*time.Second || cfg.Cooldown != 2*time.Second ||
		cfg.Timeout != 30*time.Second || cfg.MaxConnections != 100 || cfg.Repeat != 1 || cfg.Out != "results" ||
		cfg.SampleInterval != 100*time.Millisecond || cfg.Mode() != "embedded" {
		t.Errorf("defaults %+v", cfg)
	}
	if cfg.Rates["light"]["read-many"] != 20 {
		t.Errorf("light read-many rate %v, want 20", cfg.Rates["light"]["read-many"])
	}

	cfg, err = config.Parse([]string{"-profiles", "all", "-scenarios", "all", "-rate", "high.read-one=900", "-repeat", "3"},
		env(map[string]string{"DATABASE_URL": "postgres://x/y"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Scenarios) != len(scenario.All) || len(cfg.Profiles) != 3 || cfg.Rates["high"]["read-one"] != 900 ||
		cfg.Rates["medium"]["read-one"] != 400 || cfg.Repeat != 3 || cfg.Mode() != "database" {
		t.Errorf("parsed %+v", cfg)
	}

	cfg, err = config.Parse([]string{"-attach", "htmx=http://localhost:8083/,rest=http://localhost:8081", "-pid", "rest=12"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"rest", "htmx"}, cfg.Apps); d != "" {
		t.Errorf("attached apps (-want +got):\n%s", d)
	}
	if len(cfg.Attach) != 2 || cfg.PIDs["rest"] != 12 || cfg.Mode() != "attach" {
		t.Errorf("attach %v, pids %v, mode %s", cfg.Attach, cfg.PIDs, cfg.Mode())
	}

	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"-profiles", "extreme"}, `unknown profile "extreme"`},
		{[]string{"-apps", "soap"}, `unknown app "soap" (known: ` + strings.Join(slices.Concat(stack.BuiltinNames(), stack.FrontEndNames()), ", ") + `, or all, go, node)`},
		{[]string{"-rate", "read-one"}, "want scenario=N"},
		{[]string{"-duration", "0s"}, "-duration"},
		{[]string{"-repeat", "0"}, "-repeat"},
		{[]string{"-reset-db"}, "-reset-db needs DATABASE_URL"},
		{[]string{"-pid", "rest=1"}, "-pid only applies with -attach"},
		{[]string{"-attach", "rest=http://x", "-apps", "rest,graphql"}, "no URL for app graphql"},
		{[]string{"stray"}, "unexpected arguments"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
	if _, err := config.Parse([]string{"-h"}, env(nil), io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
}

// TestParseAttachFlags reads every form of -attach, with -apps, -pid and
// -debug-url naming attached apps, and the mistakes each can hold.
func TestParseAttachFlags(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		apps   []string
		attach []stack.Attached
	}{
		{"built-in shorthand", []string{"-attach", "htmx=http://h:8083/,rest=http://h:8081"}, []string{"rest", "htmx"},
			[]stack.Attached{{Name: "htmx", Kind: scenario.KindSite, URL: "http://h:8083"}, {Name: "rest", Kind: scenario.KindREST, URL: "http://h:8081"}}},
		{"names of their own", []string{"-attach", "a=rest@http://h:1, b=graphql@http://h:2,c=site@https://h:3/"}, []string{"a", "b", "c"},
			[]stack.Attached{{Name: "a", Kind: scenario.KindREST, URL: "http://h:1"}, {Name: "b", Kind: scenario.KindGraphQL, URL: "http://h:2"}, {Name: "c", Kind: scenario.KindSite, URL: "https://h:3"}}},
		{"a built-in name with its own kind", []string{"-attach", "cand_2=rest@http://h:9,graphql=graphql@http://h:2"}, []string{"graphql", "cand_2"},
			[]stack.Attached{{Name: "cand_2", Kind: scenario.KindREST, URL: "http://h:9"}, {Name: "graphql", Kind: scenario.KindGraphQL, URL: "http://h:2"}}},
		{"grpc at host:port", []string{"-attach", "cand=grpc@10.0.0.5:9090,grpc=grpc://h:8087/,g2=grpc@grpc://h:1"}, []string{"grpc", "cand", "g2"},
			[]stack.Attached{{Name: "cand", Kind: scenario.KindGRPC, URL: "grpc://10.0.0.5:9090"}, {Name: "grpc", Kind: scenario.KindGRPC, URL: "grpc://h:8087"}, {Name: "g2", Kind: scenario.KindGRPC, URL: "grpc://h:1"}}},
		{"amqp at its broker's URL", []string{"-attach", "cand=amqp@amqp://u:p@h:5672/v,amqp=amqp://u:p@h:5672/v"}, []string{"amqp", "cand"},
			[]stack.Attached{{Name: "cand", Kind: scenario.KindAMQP, URL: "amqp://u:p@h:5672/v"}, {Name: "amqp", Kind: scenario.KindAMQP, URL: "amqp://u:p@h:5672/v"}}},
		{"-apps picks among them", []string{"-attach", "a=rest@http://h:1,b=site@http://h:3", "-apps", "b", "-pid", "b=7",
			"-profile-cpu", "-debug-url", "b=http://127.0.0.1:6060"}, []string{"b"},
			[]stack.Attached{{Name: "a", Kind: scenario.KindREST, URL: "http://h:1"}, {Name: "b", Kind: scenario.KindSite, URL: "http://h:3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse(tt.args, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.apps, cfg.Apps); d != "" {
				t.Errorf("apps (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.attach, cfg.Attach); d != "" {
				t.Errorf("attach (-want +got):\n%s", d)
			}
		})
	}

	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"-attach", "candidate=http://h:1"}, "candidate is not a built-in app (" + strings.Join(stack.BuiltinNames(), ", ") + "): give its kind, e.g. candidate=rest@http://h:1"},
		{[]string{"-attach", "candidate=soap@http://h:1"}, `unknown kind "soap" (known: rest, graphql, site, grpc, trpc, amqp)`},
		{[]string{"-attach", "graphql=rest@http://h:1"}, "graphql is the built-in app of kind graphql: attach a rest server under another name"},
		{[]string{"-attach", "cand=grpc@http://h:1"}, `a grpc app is attached at host:port, e.g. candidate=grpc@10.0.0.5:9090, not "http://h:1"`},
		{[]string{"-attach", "cand=grpc@h"}, `a grpc app is attached at host:port`},
		{[]string{"-attach", "grpc=http://h:1"}, "grpc is of kind grpc: a grpc app is at grpc://host:port, an amqp app at its broker's amqp://user:pass@host:port/vhost, every other at an http(s) URL"},
		{[]string{"-attach", "amqp=http://h:1"}, "amqp is of kind amqp: a grpc app is at grpc://host:port, an amqp app at its broker's amqp://user:pass@host:port/vhost"},
		{[]string{"-attach", "rest=amqp://u:p@h:5672/v"}, "rest is of kind rest: a grpc app is at grpc://host:port, an amqp app at its broker's"},
		{[]string{"-attach", "cand=rest@amqp://u:secret@h:5672/v"}, `-attach "cand=rest@amqp://u:xxxxx@h:5672/v": an AMQP URL is an amqp app's broker: attach it as name=amqp@amqp://u:xxxxx@h:5672/v, not as kind rest`},
		{[]string{"-attach", "cand=amqp@http://h:1"}, `an amqp app is attached at its broker's URL, amqp://user:pass@host:port/vhost (or amqps://), not "http://h:1"`},
		{[]string{"-attach", "cand=amqp@amqp:///v"}, "an amqp app is attached at its broker's URL"},
		{[]string{"-attach", "a=amqp@amqp://u:p@h1/v,b=amqp@amqp://u:p@h2/v"}, "the amqp apps of a run are on one broker; b is on another"},
		{[]string{"-amqp-conns", "0"}, "-amqp-conns must be in 1..-max-connections"},
		{[]string{"-attach", "rest=grpc://h:1"}, "rest is of kind rest: a grpc app is at grpc://host:port"},
		{[]string{"-grpc-conns", "0"}, "-grpc-conns must be in 1..-max-connections"},
		{[]string{"-attach", "htmx=site@http://h:1,htmx=http://h:2"}, "app htmx is attached twice"},
		{[]string{"-attach", "my app=rest@http://h:1"}, `app name "my app": use letters, digits, '-' and '_' only`},
		{[]string{"-attach", "../x=rest@http://h:1"}, `app name "../x"`},
		{[]string{"-attach", "=rest@http://h:1"}, "an app needs a name"},
		{[]string{"-attach", "candidate"}, "want name=kind@URL"},
		{[]string{"-attach", "candidate=rest@"}, "want name=kind@URL"},
		{[]string{"-attach", "candidate=rest"}, "want name=kind@URL"},
		{[]string{"-attach", "a=rest@http://h:1", "-apps", "a,b"}, `unknown app "b"`},
		{[]string{"-attach", "a=rest@http://h:1", "-apps", "rest"}, "-attach has no URL for app rest"},
		{[]string{"-attach", "a=rest@http://h:1", "-pid", "b=12"}, "-pid: b is not an attached app"},
		{[]string{"-attach", "a=rest@http://h:1", "-pid", "a/b=12"}, `app name "a/b"`},
		{[]string{"-attach", "a=rest@http://h:1", "-profile-cpu", "-debug-url", "b=http://127.0.0.1:6060"}, "-debug-url: b is not an attached app"},
		{[]string{"-apps", "rest,candidate"}, `unknown app "candidate" (known: ` + strings.Join(slices.Concat(stack.BuiltinNames(), stack.FrontEndNames()), ", ") + `, or all, go, node)`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// TestParseValidateOnly: -validate-only checks every scenario unless
// -scenarios names some.
func TestParseValidateOnly(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"-validate-only"}, scenario.All},
		{[]string{"-validate-only", "-scenarios", "write"}, []string{"write"}},
		{nil, scenario.Core},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cfg, err := config.Parse(tt.args, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.ValidateOnly != (len(tt.args) > 0) {
				t.Errorf("ValidateOnly = %v", cfg.ValidateOnly)
			}
			if d := cmp.Diff(tt.want, cfg.Scenarios); d != "" {
				t.Errorf("scenarios (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseCapacityFlags(t *testing.T) {
	cfg, err := config.Parse(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SLOP99 != results.DefaultSLOP99 || cfg.Capacity.Search {
		t.Errorf("defaults: SLO %v, capacity %+v; want %v and no search", cfg.SLOP99, cfg.Capacity, results.DefaultSLOP99)
	}

	t.Run("capacity alone", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-capacity", "-scenarios", "read-one,read-small", "-slo-p99", "80ms"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		want := config.DefaultCapacity
		want.Search = true
		if d := cmp.Diff(want, cfg.Capacity); d != "" {
			t.Errorf("capacity (-want +got):\n%s", d)
		}
		if len(cfg.Profiles) != 0 || len(cfg.Rates) != 0 || cfg.SLOP99 != 80*time.Millisecond {
			t.Errorf("profiles %v, rates %v, SLO %v; want no fixed profiles and 80ms", cfg.Profiles, cfg.Rates, cfg.SLOP99)
		}
	})
	t.Run("capacity with profiles", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-capacity", "-profiles", "light", "-capacity-start", "5", "-capacity-max", "10",
			"-capacity-precision", "0.1", "-probe-warmup", "0s", "-probe-duration", "1s"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		want := config.CapacityOptions{Search: true, Start: 5, Max: 10, Precision: 0.1, ProbeDuration: time.Second}
		if d := cmp.Diff(want, cfg.Capacity); d != "" {
			t.Errorf("capacity (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"light"}, cfg.Profiles); d != "" {
			t.Errorf("profiles (-want +got):\n%s", d)
		}
	})

	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"-slo-p99", "0s"}, "-slo-p99 must be above zero"},
		{[]string{"-capacity-max", "10"}, "-capacity-max only applies with -capacity"},
		{[]string{"-probe-duration", "3s"}, "-probe-duration only applies with -capacity"},
		{[]string{"-capacity", "-capacity-start", "0"}, "-capacity-start must be above zero"},
		{[]string{"-capacity", "-capacity-max", "50"}, "-capacity-max (50) must be at least -capacity-start (100)"},
		{[]string{"-capacity", "-capacity-precision", "1"}, "-capacity-precision must be between 0 and 1"},
		{[]string{"-capacity", "-probe-warmup", "-1s"}, "-probe-warmup must not be negative"},
		{[]string{"-capacity", "-probe-duration", "500ms"}, "-probe-duration must be at least 1s"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
