package sampler

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestTmpCosts(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	self := os.Getpid()
	s := New(0, Target{Name: "a", PID: self}, Target{Name: "b", PID: self, Tree: true}, Target{Name: "c", PID: os.Getppid()}, Target{Name: "d", PID: os.Getppid(), Tree: true})
	s.sampleAll(true)
	const n = 200
	c0 := threadCPU()
	for i := 0; i < n; i++ {
		s.sampleAll(false)
	}
	t.Logf("light tick: %v", (threadCPU()-c0)/n)
	c0 = threadCPU()
	for i := 0; i < n; i++ {
		s.sampleAll(true)
	}
	t.Logf("full tick: %v", (threadCPU()-c0)/n)
	c0 = threadCPU()
	for i := 0; i < n; i++ {
		s.reader.scanProcs()
	}
	t.Logf("scan: %v", (threadCPU()-c0)/n)
	for _, f := range []string{"stat", "status", "smaps_rollup"} {
		c0 = threadCPU()
		for i := 0; i < n; i++ {
			s.reader.read(self, f)
		}
		t.Logf("%s: %v", f, (threadCPU()-c0)/n)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	c0 = threadCPU()
	for i := 0; i < 100; i++ {
		<-tick.C
	}
	t.Logf("tick wait: %v", (threadCPU()-c0)/100)
}

func TestTmpLoop(t *testing.T) {
	self := os.Getpid()
	for _, tg := range [][]Target{
		nil,
		{{Name: "a", PID: self}},
		{{Name: "a", PID: self}, {Name: "b", PID: os.Getppid()}},
		{{Name: "a", PID: self, Tree: true}},
		{{Name: "a", PID: self}, {Name: "b", PID: os.Getppid()}, {Name: "c", PID: self, Tree: true}, {Name: "d", PID: os.Getppid(), Tree: true}},
	} {
		s := New(0, tg...)
		s.Start()
		time.Sleep(2 * time.Second)
		s.Stop()
		t.Logf("%d targets: %.4f (%v over %v)", len(tg), s.Overhead(), s.cpu, s.wall)
	}
	runtime.LockOSThread()
	s := New(0, Target{Name: "a", PID: self}, Target{Name: "b", PID: os.Getppid()}, Target{Name: "c", PID: self, Tree: true}, Target{Name: "d", PID: os.Getppid(), Tree: true})
	c0 := threadCPU()
	s.sampleAll(true)
	t.Logf("first: %v", threadCPU()-c0)
}

func TestTmpPhases(t *testing.T) {
	runtime.LockOSThread()
	self := os.Getpid()
	var r procReader
	var stat, status, scan, smaps, sleep time.Duration
	for i := 0; i < 20; i++ {
		c := threadCPU()
		time.Sleep(100 * time.Millisecond)
		c1 := threadCPU()
		sleep += c1 - c
		r.stat(self)
		c2 := threadCPU()
		stat += c2 - c1
		r.kb(self, "status", "VmRSS:")
		c3 := threadCPU()
		status += c3 - c2
		if i%10 == 0 {
			r.scanProcs()
			c4 := threadCPU()
			scan += c4 - c3
			r.kb(self, "smaps_rollup", "Pss:")
			smaps += threadCPU() - c4
		}
	}
	t.Logf("per tick: sleep %v stat %v status %v; per full: scan %v smaps %v", sleep/20, stat/20, status/20, scan/2, smaps/2)
}
