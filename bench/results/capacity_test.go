package results_test

import (
	"testing"

	"crudbench/bench/results"
)

// A probe's app CPU under its resolution cannot be told from zero; one at
// or above it, or one whose resolution is not known, can.
func TestAppCPUBelowResolution(t *testing.T) {
	for _, c := range []struct {
		name string
		p    results.Probe
		want bool
	}{
		{"zero within a tick", results.Probe{AppCPUAvailable: true, AppCPU: 0, AppCPUResolution: 0.02}, true},
		{"under the resolution", results.Probe{AppCPUAvailable: true, AppCPU: 0.01, AppCPUResolution: 0.02}, true},
		{"at the resolution", results.Probe{AppCPUAvailable: true, AppCPU: 0.02, AppCPUResolution: 0.02}, false},
		{"zero, resolution unknown", results.Probe{AppCPUAvailable: true}, false},
		{"not seen", results.Probe{AppCPUResolution: 0.02}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.AppCPUBelowResolution(); got != c.want {
				t.Errorf("below resolution %v, want %v", got, c.want)
			}
		})
	}
}
