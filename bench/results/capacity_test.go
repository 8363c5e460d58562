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

// A capacity is machine-bound when a full-length run held it and the
// search stopped above it on the machine's other side; the app's own
// limits, a cap and a rate no run held are not.
func TestMachineBound(t *testing.T) {
	for _, c := range []struct {
		name string
		c    results.Capacity
		want bool
	}{
		{"PostgreSQL's CPU", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopPostgresCPU}, true},
		{"an amqp app's broker's CPU", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopBrokerCPU}, true},
		{"the load generator", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopLoadGenerator}, true},
		{"other processes", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopOtherLoad}, true},
		{"the app's CPU", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopAppCPU}, false},
		{"a latency spike", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopSpike}, false},
		{"the pool", results.Capacity{Status: results.CapacityFound, Held: true, StopReason: results.StopPool}, false},
		{"unconfirmed", results.Capacity{Status: results.CapacityFound, StopReason: results.StopPostgresCPU}, false},
		{"capped", results.Capacity{Status: results.CapacityCapped, Held: true, StopReason: results.StopCap}, false},
		{"none", results.Capacity{Status: results.CapacityNone, StopReason: results.StopPostgresCPU}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.c.MachineBound(); got != c.want {
				t.Errorf("MachineBound() = %v, want %v", got, c.want)
			}
		})
	}
}
