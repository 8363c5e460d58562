package capacity_test

import (
	"strings"
	"testing"

	"crudbench/bench/capacity"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*capacity.Config)
		want   string // in the error; empty for a valid config
	}{
		{"valid", func(*capacity.Config) {}, ""},
		{"start at max", func(c *capacity.Config) { c.Max = c.Start }, ""},
		{"no SLO", func(c *capacity.Config) { c.SLO.P99 = 0 }, "SLO p99 0s"},
		{"no success ratio", func(c *capacity.Config) { c.SLO.MinSuccessRatio = 0 }, "minimum success ratio 0"},
		{"success ratio over 1", func(c *capacity.Config) { c.SLO.MinSuccessRatio = 1.5 }, "minimum success ratio 1.5"},
		{"throughput share over 1", func(c *capacity.Config) { c.SLO.MinThroughputShare = 2 }, "minimum throughput share 2"},
		{"zero start", func(c *capacity.Config) { c.Start = 0 }, "start rate 0"},
		{"flat growth", func(c *capacity.Config) { c.Growth = 1 }, "growth 1: must be above 1"},
		{"max under start", func(c *capacity.Config) { c.Max = 5 }, "maximum rate 5: must be at least the start rate 10"},
		{"zero precision", func(c *capacity.Config) { c.Precision = 0 }, "precision 0"},
		{"precision 1", func(c *capacity.Config) { c.Precision = 1 }, "precision 1"},
		{"no cores", func(c *capacity.Config) { c.Cores, c.AppCores = 0, 0 }, "cores 0: must be at least 1"},
		{"no app cores", func(c *capacity.Config) { c.AppCores = 0 }, "app cores 0"},
		{"more app cores than the machine", func(c *capacity.Config) { c.AppCores = 3 }, "app cores 3: must be from 1 to the machine's 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := config()
			tt.change(&c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	c := config()
	c.Start, c.Growth = 0, 0.5
	err := c.Validate()
	if err == nil {
		t.Fatal("Validate() = nil for two bad settings")
	}
	for _, want := range []string{"start rate 0", "growth 0.5"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %q", err, want)
		}
	}
}
