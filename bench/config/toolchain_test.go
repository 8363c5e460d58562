package config_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
	"crudbench/bench/stack"
)

// TestMissingNode reads -apps on a PATH that holds go and nothing else, as
// on a machine without Node.js: -apps all leaves the Node apps out with a
// note saying what to install, and an app named explicitly is an error
// saying the same.
func TestMissingNode(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	bin := t.TempDir()
	if err := os.Symlink(goBin, filepath.Join(bin, "go")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)

	t.Run("all", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-apps", "all"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"rest", "graphql", "graphql-tuned", "grpc", "htmx", "htmx-tuned"}
		if d := cmp.Diff(want, cfg.Apps); d != "" {
			t.Errorf("apps (-want +got):\n%s", d)
		}
		note := "-apps all left out express, express-cluster, fastify, yoga, apollo, mercurius, mercurius-jit: they need node and npm (not on PATH); to measure them, " + stack.NodeInstall + "."
		if !slices.Contains(cfg.Notes, note) {
			t.Errorf("notes %q, want %q", cfg.Notes, note)
		}
	})
	for _, apps := range []string{"express", "rest,yoga", "express-cluster"} {
		t.Run(apps, func(t *testing.T) {
			_, err := config.Parse([]string{"-apps", apps}, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), "needs node and npm (not on PATH)") || !strings.Contains(err.Error(), stack.NodeInstall) {
				t.Errorf("error %v, want one saying node and npm are missing and %q", err, stack.NodeInstall)
			}
		})
	}
	t.Run("attached", func(t *testing.T) {
		// An attached app runs elsewhere: the runner starts nothing.
		cfg, err := config.Parse([]string{"-attach", "express=http://localhost:8084"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"express"}, cfg.Apps); d != "" || len(cfg.Notes) > 0 {
			t.Errorf("apps (-want +got):\n%s, notes %q", d, cfg.Notes)
		}
	})
}

// TestNodeApps reads -apps all where node and npm are on PATH (as make
// test requires): every built-in app is measured and nothing is noted.
func TestNodeApps(t *testing.T) {
	if missing := stack.ToolchainNode.Missing(); missing != "" {
		t.Fatalf("%s not on PATH: %s", missing, stack.NodeInstall)
	}
	cfg, err := config.Parse([]string{"-apps", "all"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(stack.BuiltinNames(), cfg.Apps); d != "" || len(cfg.Notes) > 0 {
		t.Errorf("apps (-want +got):\n%s, notes %q", d, cfg.Notes)
	}
}
