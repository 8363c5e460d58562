package config_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/results"
)

func TestParseModel(t *testing.T) {
	cfg, err := config.Parse(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model != results.ModelOpen || cfg.Clients != 0 || cfg.ClosedLoop() {
		t.Errorf("default model %q with %d clients, want open with none", cfg.Model, cfg.Clients)
	}
	cfg, err = config.Parse([]string{"-model", "closed", "-clients", "10"}, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model != results.ModelClosed || cfg.Clients != 10 || !cfg.ClosedLoop() {
		t.Errorf("model %q with %d clients, want closed with 10", cfg.Model, cfg.Clients)
	}
}

func TestParseModelRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"clients without closed", []string{"-clients", "4"}, "-clients only applies with -model closed"},
		{"clients with open", []string{"-model", "open", "-clients", "4"}, "-clients only applies with -model closed"},
		{"unknown model", []string{"-model", "poisson"}, `-model "poisson": want open`},
		{"closed without clients", []string{"-model", "closed"}, "-model closed needs -clients N"},
		{"no clients", []string{"-model", "closed", "-clients", "0"}, "-clients must be at least 1"},
		{"more clients than connections", []string{"-model", "closed", "-clients", "8", "-max-connections", "4"}, "-clients 8 is over -max-connections 4"},
		{"capacity", []string{"-model", "closed", "-clients", "4", "-capacity"}, "-model closed does not go with -capacity"},
		{"rate", []string{"-model", "closed", "-clients", "4", "-rate", "read-one=50"}, "-rate does not apply to -model closed"},
		{"profiles", []string{"-model", "closed", "-clients", "4", "-profiles", "all"}, "-model closed runs one profile, not 3"},
		{"shard", []string{"-model", "closed", "-clients", "4", "-shard", "0/2", "-start-at", time.Now().Add(time.Minute).UTC().Format(time.RFC3339), "-attach", "rest=http://localhost:8081"}, "-model closed does not go with -shard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse(tc.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q): %v, want an error saying %q", tc.args, err, tc.want)
			}
		})
	}
}
