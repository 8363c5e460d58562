package config_test

import (
	"io"
	"strings"
	"testing"

	"crudbench/bench/config"
	"crudbench/bench/cpuset"
)

// machine is a machine of n CPUs, one per core, of which the runner may
// use allowed.
func machine(n int, allowed ...int) cpuset.Machine {
	var online []int
	for c := range n {
		online = append(online, c)
	}
	if allowed == nil {
		allowed = online
	}
	m := cpuset.Machine{Online: cpuset.Of(online...), Allowed: cpuset.Of(allowed...)}
	for _, c := range m.Allowed {
		m.Cores = append(m.Cores, cpuset.Of(c))
	}
	return m
}

func TestReadCPUs(t *testing.T) {
	two, one, confined := machine(2), machine(1), machine(8, 4, 5, 6, 7)
	tests := []struct {
		name      string
		value     string
		explicit  bool
		attach    bool
		m         cpuset.Machine
		app, rest string
		auto      bool
	}{
		{"the default splits two CPUs", "auto", false, false, two, "1", "0", true},
		{"the default shares one CPU", "auto", false, false, one, "", "", false},
		{"the default shares with attached apps", "auto", false, true, two, "", "", false},
		{"the default splits what taskset left", "auto", false, false, confined, "6-7", "4-5", true},
		{"shared", "shared", true, false, two, "", "", false},
		{"both sides", "app=1,rest=0", true, false, two, "1", "0", false},
		{"rest defaults to what app leaves", "app=5-6", true, false, confined, "5-6", "4,7", false},
		{"lists with commas", "app=4,6, rest=5,7", true, false, confined, "4,6", "5,7", false},
		{"rest only with -attach", "rest=0", true, true, two, "", "0", false},
		{"a side can leave CPUs out", "app=7,rest=4", true, false, confined, "7", "4", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.ReadCPUs(tt.value, tt.explicit, tt.attach, tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if got.App.String() != tt.app || got.Rest.String() != tt.rest || got.Auto != tt.auto {
				t.Errorf("ReadCPUs(%q) = app %q, rest %q, auto %v; want app %q, rest %q, auto %v",
					tt.value, got.App, got.Rest, got.Auto, tt.app, tt.rest, tt.auto)
			}
			if got.Isolated() != (tt.app != "") {
				t.Errorf("Isolated() = %v with app %q", got.Isolated(), tt.app)
			}
		})
	}
}

func TestReadCPUsErrors(t *testing.T) {
	two, one, confined := machine(2), machine(1), machine(8, 4, 5, 6, 7)
	tests := []struct {
		name   string
		value  string
		attach bool
		m      cpuset.Machine
		want   string
	}{
		{"auto asked for on one CPU", "auto", false, one, "needs at least 2 CPUs, and the runner may use only CPU 0: use -cpus shared"},
		{"a split asked for on one CPU", "app=0", false, one, "needs at least 2 CPUs"},
		{"auto asked for with -attach", "auto", true, two, "cannot give them CPUs"},
		{"app with -attach", "app=1,rest=0", true, two, "give only rest=LIST"},
		{"no app", "rest=0", false, two, "name the apps' CPUs"},
		{"a CPU that does not exist", "app=2,rest=0", false, two, "app: CPUs 2 do not exist: this machine's CPUs are 0-1"},
		{"a CPU the runner may not use", "app=1,rest=4", false, confined, "app: CPUs 1 are not among the CPUs the runner may use (4-7"},
		{"overlapping sides", "app=0-1,rest=1", false, two, "CPUs 1 are in both app and rest"},
		{"app takes everything", "app=0-1", false, two, "every CPU the runner may use (0-1)"},
		{"an unknown side", "app=1,db=0", false, two, `unknown side "db"`},
		{"a side named twice", "app=1,app=0", false, two, "app is named twice"},
		{"no side", "1,0", false, two, "want app=LIST,rest=LIST"},
		{"a bad list", "app=x,rest=0", false, two, `app: CPU list "x"`},
		{"an empty side", "app=,rest=0", false, two, "names no CPU"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.ReadCPUs(tt.value, true, tt.attach, tt.m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadCPUs(%q) = %+v, %v; want an error with %q", tt.value, got, err, tt.want)
			}
		})
	}
}

// TestParseCPUs reads -cpus through Parse on this machine: the default
// follows its CPUs, and a CPU beyond them is refused.
func TestParseCPUs(t *testing.T) {
	m, err := cpuset.ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(nil, env(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(m.Allowed) >= 2; cfg.CPUs.Isolated() != want || cfg.CPUs.Auto != want {
		t.Errorf("default CPUs %+v on a runner with CPUs %s: want isolated and auto %v", cfg.CPUs, m.Allowed, want)
	}
	beyond := m.Online[len(m.Online)-1] + 1
	_, err = config.Parse([]string{"-cpus", "app=" + cpuset.Of(beyond).String()}, env(nil), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-cpus") {
		t.Errorf("-cpus with CPU %d on a machine of CPUs %s: %v", beyond, m.Online, err)
	}
	cfg, err = config.Parse([]string{"-cpus", "shared"}, env(nil), io.Discard)
	if err != nil || cfg.CPUs.Isolated() || len(cfg.CPUs.Rest) > 0 {
		t.Errorf("-cpus shared: %+v, %v", cfg.CPUs, err)
	}
}
