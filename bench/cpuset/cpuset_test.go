package cpuset_test

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/cpuset"
)

func TestParse(t *testing.T) {
	tests := []struct {
		list string
		want cpuset.Set
		text string
	}{
		{"0", cpuset.Of(0), "0"},
		{"0-1", cpuset.Of(0, 1), "0-1"},
		{" 5, 0-2 ,2", cpuset.Of(0, 1, 2, 5), "0-2,5"},
		{"1,3,4,5,7", cpuset.Of(1, 3, 4, 5, 7), "1,3-5,7"},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			got, err := cpuset.Parse(tt.list)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if got.String() != tt.text {
				t.Errorf("String() = %q, want %q", got.String(), tt.text)
			}
		})
	}
	for _, bad := range []string{"", ",", "a", "1-", "3-1", "-1", "0-99999"} {
		if s, err := cpuset.Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, s)
		}
	}
}

func TestSplit(t *testing.T) {
	single := func(cpus ...int) []cpuset.Set {
		var out []cpuset.Set
		for _, c := range cpus {
			out = append(out, cpuset.Of(c))
		}
		return out
	}
	tests := []struct {
		name      string
		m         cpuset.Machine
		app, rest string
	}{
		{"two cores", cpuset.Machine{Allowed: cpuset.Of(0, 1), Cores: single(0, 1)}, "1", "0"},
		{"three cores: the rest gets the odd one", cpuset.Machine{Allowed: cpuset.Of(0, 1, 2), Cores: single(0, 1, 2)}, "2", "0-1"},
		{"hardware threads stay together", cpuset.Machine{
			Allowed: cpuset.Of(0, 1, 2, 3),
			Cores:   []cpuset.Set{cpuset.Of(0, 2), cpuset.Of(1, 3)},
		}, "1,3", "0,2"},
		{"one core of two threads is split by thread", cpuset.Machine{Allowed: cpuset.Of(0, 1), Cores: []cpuset.Set{cpuset.Of(0, 1)}}, "1", "0"},
		{"a runner under taskset splits its own CPUs", cpuset.Machine{Allowed: cpuset.Of(4, 5, 6, 7), Cores: single(4, 5, 6, 7)}, "6-7", "4-5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app, rest, ok := tt.m.Split()
			if !ok || app.String() != tt.app || rest.String() != tt.rest {
				t.Errorf("Split() = app %s, rest %s, %v; want app %s, rest %s", app, rest, ok, tt.app, tt.rest)
			}
		})
	}
	if _, _, ok := (cpuset.Machine{Allowed: cpuset.Of(3), Cores: single(3)}).Split(); ok {
		t.Error("one CPU was split")
	}
}

// TestPinProcess pins the test process to one CPU and reads the affinity
// of every one of its threads, including one made after the pin.
func TestPinProcess(t *testing.T) {
	allowed, err := cpuset.Allowed(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(0)
	t.Cleanup(func() {
		if err := cpuset.PinProcess(allowed); err != nil {
			t.Error(err)
		}
		runtime.GOMAXPROCS(procs)
	})
	one := cpuset.Of(allowed[len(allowed)-1])
	if err := cpuset.PinProcess(one); err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS = %d after pinning to %s, want 1", got, one)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		runtime.LockOSThread() // a thread of its own, which must have inherited the mask
		if got, err := cpuset.Thread(0); err != nil || got.String() != one.String() {
			t.Errorf("a thread made after the pin may run on %s (%v), want %s", got, err, one)
		}
	})
	wg.Wait()
	if got, err := cpuset.Allowed(os.Getpid()); err != nil || got.String() != one.String() {
		t.Errorf("Cpus_allowed_list = %s (%v), want %s", got, err, one)
	}
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		tid, _ := strconv.Atoi(e.Name())
		if got, err := cpuset.Thread(tid); err == nil && got.String() != one.String() {
			t.Errorf("thread %d may run on %s, want %s", tid, got, one)
		}
	}
}
