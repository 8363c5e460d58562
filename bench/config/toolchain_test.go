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
// note saying what to install, and an app named explicitly, by its name or
// by the node group, is an error saying the same; the go group needs
// nothing more.
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

	goApps := []string{"rest", "graphql", "graphql-tuned", "grpc", "amqp", "htmx", "htmx-tuned"}
	nodeApps := "express, express-cluster, fastify, nest, nest-fastify, yoga, apollo, mercurius, mercurius-jit, nest-graphql, nest-mercurius, grpc-node, trpc, next-rest, next-graphql, next-trpc"
	for _, apps := range []string{"all", "all,go"} {
		t.Run(apps, func(t *testing.T) {
			cfg, err := config.Parse([]string{"-apps", apps}, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(goApps, cfg.Apps); d != "" {
				t.Errorf("apps (-want +got):\n%s", d)
			}
			note := "-apps all left out " + nodeApps + ": they need node and npm (not on PATH); to measure them, " + stack.NodeInstall + "."
			if !slices.Contains(cfg.Notes, note) {
				t.Errorf("notes %q, want %q", cfg.Notes, note)
			}
		})
	}
	t.Run("go", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-apps", "go"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(goApps, cfg.Apps); d != "" || len(cfg.Notes) > 0 {
			t.Errorf("apps (-want +got):\n%s, notes %q", d, cfg.Notes)
		}
	})
	for _, tt := range []struct{ apps, err string }{
		{"express", "express needs node and npm (not on PATH)"},
		{"rest,yoga", "yoga needs node and npm (not on PATH)"},
		{"express-cluster", "express-cluster needs node and npm (not on PATH)"},
		{"node", "node (" + nodeApps + ") needs node and npm (not on PATH)"},
		{"all,node", "node (" + nodeApps + ") needs node and npm (not on PATH)"},
		{"go,node", "node (" + nodeApps + ") needs node and npm (not on PATH)"},
		{"yoga,node", "node (express, express-cluster, fastify, nest, nest-fastify, apollo, mercurius, mercurius-jit, nest-graphql, nest-mercurius, grpc-node, trpc, next-rest, next-graphql, next-trpc) needs node and npm (not on PATH); yoga needs node and npm"},
	} {
		t.Run(tt.apps, func(t *testing.T) {
			_, err := config.Parse([]string{"-apps", tt.apps}, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), stack.NodeInstall) {
				t.Errorf("error %v, want one saying %q and %q", err, tt.err, stack.NodeInstall)
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
