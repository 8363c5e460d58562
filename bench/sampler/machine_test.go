package sampler_test

import (
	"runtime"
	"testing"
	"time"

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

	later := sampler.MachineCPU{Busy: 161 + 150, Idle: 1020 + 50, CPUs: 2}
	if got := m.BusyCores(later); got != 1.5 {
		t.Errorf("busy cores %v, want 1.5 (three quarters of two CPUs)", got)
	}
	if got := m.BusyCores(m); got != 0 {
		t.Errorf("busy cores over no time %v, want 0", got)
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

// TestReadMachineCPU reads the real /proc/stat around a busy loop of
// 300 ms (30 ticks): the machine was busy for some of it however loaded,
// and never more than all its CPUs.
func TestReadMachineCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Fatalf("reads Linux's /proc, on %s", runtime.GOOS)
	}
	before, err := sampler.ReadMachineCPU()
	if err != nil {
		t.Fatal(err)
	}
	if before.CPUs < 1 {
		t.Fatalf("%d CPUs", before.CPUs)
	}
	for until := time.Now().Add(300 * time.Millisecond); time.Now().Before(until); {
	}
	after, err := sampler.ReadMachineCPU()
	if err != nil {
		t.Fatal(err)
	}
	if after.Busy < before.Busy || after.Idle < before.Idle {
		t.Fatalf("times went back: %+v then %+v", before, after)
	}
	if cores := before.BusyCores(after); cores <= 0 || cores > float64(after.CPUs) {
		t.Errorf("busy cores %.3f, want within (0, %d]", cores, after.CPUs)
	}
}
