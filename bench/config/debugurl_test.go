package config_test

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
)

func TestDebugURLFlag(t *testing.T) {
	attach := "-attach=rest=http://10.0.0.5:8081,graphql=http://localhost:8082,htmx=site@http://localhost:8083"
	cfg, err := config.Parse([]string{attach, "-profile-cpu",
		"-debug-url", "rest=http://127.0.0.1:6060/, graphql=http://localhost:6061,htmx=http://[::1]:6062"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"rest": "http://127.0.0.1:6060", "graphql": "http://localhost:6061", "htmx": "http://[::1]:6062"}
	if d := cmp.Diff(want, cfg.DebugURLs); d != "" || !cfg.ProfileCPU {
		t.Errorf("debug URLs (-want +got):\n%s\nprofile-cpu %v", d, cfg.ProfileCPU)
	}

	for _, tt := range []struct {
		name string
		args []string
		err  string
	}{
		{"not loopback", []string{attach, "-profile-cpu", "-debug-url", "rest=http://10.0.0.5:6060"}, "not a loopback address"},
		{"a path", []string{attach, "-profile-cpu", "-debug-url", "rest=http://127.0.0.1:6060/debug/pprof"}, "without path"},
		{"no port", []string{attach, "-profile-cpu", "-debug-url", "rest=http://127.0.0.1"}, "want a port"},
		{"no scheme", []string{attach, "-profile-cpu", "-debug-url", "rest=127.0.0.1:6060"}, "want an http:// URL"},
		{"not http", []string{attach, "-profile-cpu", "-debug-url", "rest=ftp://127.0.0.1:6060"}, "want an http:// URL"},
		{"no name", []string{attach, "-profile-cpu", "-debug-url", "http://127.0.0.1:6060"}, "want app=URL"},
		{"an app not attached", []string{attach, "-profile-cpu", "-debug-url", "soap=http://127.0.0.1:6060"}, "-debug-url: soap is not an attached app"},
		{"without -attach", []string{"-profile-cpu", "-debug-url", "rest=http://127.0.0.1:6060"}, "only applies with -attach"},
		{"without -profile-cpu", []string{attach, "-debug-url", "rest=http://127.0.0.1:6060"}, "only applies with -profile-cpu"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
