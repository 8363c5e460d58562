package sampler_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"crudbench/bench/sampler"
)

// TestCensusNamesTheBusyProcess reads every process before and after a
// helper burns a few ms: the helper is among the busy ones with what it
// used by its own account, and left out with its parent (this test) as a
// root.
func TestCensusNamesTheBusyProcess(t *testing.T) {
	h := startHelper(t, modeOnCue)
	before := h.cpu(t)
	first, err := sampler.TakeCensus()
	if err != nil {
		t.Fatalf("TakeCensus: %v", err)
	}
	after := h.ask(t, "burn")
	last, err := sampler.TakeCensus()
	if err != nil {
		t.Fatalf("TakeCensus: %v", err)
	}
	if _, ok := first.Procs[os.Getpid()]; !ok || len(first.Procs) < 3 {
		t.Fatalf("the census holds %d processes and this one: %v; want all of /proc", len(first.Procs), ok)
	}

	wall := last.At.Sub(first.At)
	var found *sampler.Use
	for _, u := range first.Busiest(last) {
		if u.PID == h.pid() {
			found = &u
			break
		}
	}
	if found == nil {
		t.Fatalf("the helper (pid %d) is not among the busy processes: %+v", h.pid(), first.Busiest(last))
	}
	used := time.Duration(found.Cores * float64(wall))
	// The censuses read the helper's CPU clock right around its own
	// accounts: apart by the clock's lag and the helper's housekeeping.
	lag := 10 * time.Millisecond * time.Duration(runtime.NumCPU())
	if truth := after - before; used < truth-lag || used > truth+lag {
		t.Errorf("the census read %v of CPU for the helper, its own account %v: want within %v", used, truth, lag)
	}
	if found.Name == "" {
		t.Errorf("the helper has no name in the census")
	}
	for _, u := range first.Busiest(last, os.Getpid()) {
		if u.PID == h.pid() || u.PID == os.Getpid() {
			t.Errorf("pid %d (%s) is listed although it is, or descends from, a root", u.PID, u.Name)
		}
	}
}

// TestMachineTarget samples the whole machine beside a helper using half a
// core: the machine's busy cores over the window are at least the
// helper's, and at most every CPU.
func TestMachineTarget(t *testing.T) {
	h := startHelper(t, modeHalfCore)
	s := sampler.New(0, sampler.Target{Name: "machine", Machine: true}, sampler.Target{Name: "app", PID: h.pid()})
	cpu0 := h.cpu(t)
	begin := time.Now()
	s.Start()
	for h.cpu(t)-cpu0 < 500*time.Millisecond {
		time.Sleep(50 * time.Millisecond)
	}
	series := s.Stop()
	took := time.Since(begin)
	machine := series["machine"].Window(time.Time{}, time.Time{})
	app := series["app"].Window(time.Time{}, time.Time{})
	t.Logf("machine %+v; app %+v", machine, app)
	// The first sample and Stop's bound the window whatever a busy
	// machine does to the ticks between; there are never more than ticks.
	most := int(took/sampler.DefaultInterval) + 2
	if machine.Missing || machine.Samples < 2 || machine.Samples > most {
		t.Fatalf("machine: Missing, Samples = %v, %d; want false, 2 to %d", machine.Missing, machine.Samples, most)
	}
	if app.Missing || app.Samples != machine.Samples {
		t.Fatalf("app: Missing, Samples = %v, %d; want false, the machine's %d", app.Missing, app.Samples, machine.Samples)
	}
	// Each side's reading is its clock's, taken a moment apart at both
	// ends of the window: one tick of each clock at each end.
	if tolerance := 2 * (machine.CPUResolution + app.CPUResolution).Seconds(); machine.CPUSeconds < app.CPUSeconds-tolerance {
		t.Errorf("the machine used %.3f s of CPU, the helper alone %.3f s: want at least the helper's (less %.3f s)", machine.CPUSeconds, app.CPUSeconds, tolerance)
	}
	if cpus := float64(runtime.NumCPU()); machine.CPUMean > cpus*1.05 {
		t.Errorf("the machine's busy cores = %.2f, want at most its %v CPUs", machine.CPUMean, cpus)
	}
}
