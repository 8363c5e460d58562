package runner_test

import (
	"testing"

	"crudbench/bench/capacity"
	"crudbench/bench/load"
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

// A run's files name its repeat; a capacity confirmation's its search,
// when searches were repeated, and its try after one that missed.
func TestFileBase(t *testing.T) {
	tests := []struct {
		name   string
		job    load.Job
		repeat int
		want   string
	}{
		{"a run", load.Job{Profile: "light", Scenario: "read-one", App: "rest", Repeat: 1}, 1, "light-read-one-rest"},
		{"a repeat", load.Job{Profile: "light", Scenario: "read-one", App: "rest", Repeat: 2}, 3, "light-read-one-rest-r2"},
		{"a confirmation", load.Job{Profile: "capacity", Scenario: "read-one", App: "rest", Repeat: 1, Try: 1}, 1, "capacity-read-one-rest"},
		{"a confirmation's second try", load.Job{Profile: "capacity", Scenario: "read-one", App: "rest", Repeat: 1, Try: 2}, 1, "capacity-read-one-rest-try2"},
		{"a repeated search's confirmation", load.Job{Profile: "capacity", Scenario: "read-one", App: "rest", Repeat: 2, Try: 1}, 2, "capacity-read-one-rest-s2"},
		{"a repeated search's third try", load.Job{Profile: "capacity", Scenario: "read-one", App: "rest", Repeat: 3, Try: 3}, 3, "capacity-read-one-rest-s3-try3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runner.FileBase(tt.job, tt.repeat); got != tt.want {
				t.Errorf("FileBase = %q, want %q", got, tt.want)
			}
		})
	}
}
