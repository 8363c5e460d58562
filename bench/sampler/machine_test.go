package sampler_test

import (
	"testing"

	"crudbench/bench/sampler"
)

func TestParseMachineCPU(t *testing.T) {
	stat := `cpu  100 5 50 1000 20 3 2 1 40 0
cpu0 50 2 25 500 10 1 1 0 20 0
cpu1 50 3 25 500 10 2 1 1 20 0
intr 12345 0 0
ctxt 999
`
	m, err := sampler.ParseMachineCPU([]byte(stat))
	if err != nil {
		t.Fatal(err)
	}
	// Busy: user, nice, system, irq, softirq, steal; guest is in user.
	if want := (sampler.MachineCPU{Busy: 161, Idle: 1020, CPUs: 2}); m != want {
		t.Errorf("parsed %+v, want %+v", m, want)
	}

	for name, text := range map[string]string{
		"empty":      "",
		"short line": "cpu 1 2 3\ncpu0 1 2 3\n",
		"not number": "cpu a 0 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0\n",
		"no cpus":    "cpu 1 2 3 4 5 6 7 8\n",
	} {
		t.Run(name, func(t *testing.T) {
			if m, err := sampler.ParseMachineCPU([]byte(text)); err == nil {
				t.Errorf("parsed %+v, want an error", m)
			}
		})
	}
}
