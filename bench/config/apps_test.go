package config_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/config"
	"crudbench/bench/stack"
)

// TestAppGroups reads -apps with the groups go and node, alone and mixed
// with all and with names: every app once, in the app table's order. The
// Node apps need node and npm on PATH (as make test requires).
func TestAppGroups(t *testing.T) {
	if missing := stack.ToolchainNode.Missing(); missing != "" {
		t.Fatalf("%s not on PATH: %s", missing, stack.NodeInstall)
	}
	goApps := []string{"rest", "graphql", "graphql-tuned", "grpc", "amqp", "htmx", "htmx-tuned"}
	nodeApps := []string{"express", "express-cluster", "fastify", "nest", "nest-fastify", "yoga", "apollo", "mercurius", "mercurius-jit", "nest-graphql", "nest-mercurius", "grpc-node", "trpc", "next-rest", "next-graphql", "next-trpc"}
	for _, tt := range []struct {
		apps string
		want []string
	}{
		{"go", goApps},
		{"node", nodeApps},
		{"node,go", stack.BuiltinNames()},
		{"go,node,all", stack.BuiltinNames()},
		{"all,node", stack.BuiltinNames()},
		{"yoga,go", []string{"rest", "graphql", "graphql-tuned", "yoga", "grpc", "amqp", "htmx", "htmx-tuned"}},
		{"node,express,node", nodeApps},
		{"htmx, node ,rest", []string{"rest", "express", "express-cluster", "fastify", "nest", "nest-fastify", "yoga", "apollo", "mercurius", "mercurius-jit", "nest-graphql", "nest-mercurius", "grpc-node", "trpc", "next-rest", "next-graphql", "next-trpc", "htmx"}},
	} {
		t.Run(tt.apps, func(t *testing.T) {
			cfg, err := config.Parse([]string{"-apps", tt.apps}, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, cfg.Apps); d != "" || len(cfg.Notes) > 0 {
				t.Errorf("apps (-want +got):\n%s, notes %q", d, cfg.Notes)
			}
		})
	}
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"-apps", "nodejs"}, `unknown app "nodejs" (known: ` + strings.Join(slices.Concat(stack.BuiltinNames(), stack.FrontEndNames()), ", ") + `, or all, go, node)`},
		{[]string{"-apps", "go,golang"}, `unknown app "golang"`},
		{[]string{"-apps", ","}, "no app given"},
		// A group stands for built-in apps, which need URLs when attaching.
		{[]string{"-attach", "rest=http://h:1", "-apps", "go"}, "-attach has no URL for app graphql"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}
