package runner_test

import (
	"testing"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
	"crudbench/bench/runner"
)

func TestOtherLoad(t *testing.T) {
	seen := func(machine, app, db, runner float64) results.Probe {
		return results.Probe{MachineCPU: machine, MachineCPUAvailable: true, AppCPU: app, AppCPUAvailable: true,
			DBCPU: db, DBCPUAvailable: true, RunnerCPU: runner}
	}
	blind := seen(2, 0.1, 0.1, 0.1)
	blind.AppCPUAvailable = false
	busiest := seen(2, 0.5, 0.25, 0.25)
	busiest.Others = []results.ProcessShare{{PID: 7, Name: "sha256sum", Cores: 0.9}}
	lesser := seen(1.5, 0.25, 0.25, 0.25)
	lesser.Others = []results.ProcessShare{{PID: 8, Name: "gzip", Cores: 0.7}}
	tests := []struct {
		name      string
		caps      []results.Capacity
		want      float64
		wantNamed string
	}{
		{"no probes", []results.Capacity{{Status: results.CapacityFailed}}, 0, ""},
		{"the busiest probe of all searches", []results.Capacity{
			{Probes: []results.Probe{seen(1, 0.5, 0.25, 0.25), busiest}},
			{Probes: []results.Probe{lesser}},
		}, 1, "sha256sum 0.90"},
		{"a probe with an unseen figure is left out", []results.Capacity{{Probes: []results.Probe{blind, seen(1, 0.5, 0.25, 0)}}}, 0.25, ""},
		// The replicas' CPU need not be this machine's: taking it off the
		// machine's would hide the other processes' 1.5 cores.
		{"an app with replicas is left out", []results.Capacity{
			{App: "replicated", Probes: []results.Probe{seen(2, 1.5, 0.25, 0.25)}},
			{App: "single", Probes: []results.Probe{seen(1, 0.5, 0.25, 0)}},
		}, 0.25, ""},
	}
	config := func(app string) capacity.Config {
		if app == "replicated" {
			return capacity.Config{AppReplicas: 2}
		}
		return capacity.Config{}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, named := runner.OtherLoad(tt.caps, config)
			if got != tt.want {
				t.Errorf("OtherLoad = %v, want %v", got, tt.want)
			}
			if text := capacity.OthersText(named); text != tt.wantNamed {
				t.Errorf("OtherLoad named %q, want %q (the busiest probe's)", text, tt.wantNamed)
			}
		})
	}
}
