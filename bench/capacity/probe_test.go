package capacity_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/capacity"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// Probe windows: short, as the runner's are, yet long enough that a last
// answer a loaded machine delays by tens of ms does not bring the
// throughput under 99% of the rate. probeTimeout bounds how long a probe
// far above an app's limit waits for its queue.
const (
	probeWarmup   = 500 * time.Millisecond
	probeDuration = 3 * time.Second
	probeTimeout  = 2 * time.Second
)

// attackProbe is a ProbeFunc that runs a real constant-rate attack of GET
// url with the load package and fills in a Probe the way the runner does.
// With a pid it also samples that process's CPU (/proc, the sampler) over
// the measured window as the app's; the machine's (/proc/stat) and the
// test process's own CPU, the runner's, are taken over the whole attack.
func attackProbe(t *testing.T, url string, pid int) capacity.ProbeFunc {
	t.Helper()
	return func(ctx context.Context, rate float64) (results.Probe, error) {
		var smp *sampler.Sampler
		if pid != 0 {
			smp = sampler.New(0, sampler.Target{Name: "app", PID: pid})
			smp.Start()
		}
		machine0, self0, began := machineTicks(t), selfCPU(t), time.Now()
		out, err := load.Attack(ctx, vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: url}), load.Options{
			Name: "probe", Rate: rate, Warmup: probeWarmup, Duration: probeDuration,
			Timeout: probeTimeout, MaxConnections: 1000,
		})
		if err != nil {
			return results.Probe{}, err
		}
		wall := time.Since(began).Seconds()
		p := results.Probe{
			Rate:         rate,
			AchievedRate: out.AchievedRate,
			Throughput:   out.Throughput,
			SuccessRatio: out.SuccessRatio,
			P50:          ms(out.P50),
			P99:          ms(out.P99),
			RunnerCPU:    (selfCPU(t) - self0).Seconds() / wall,
		}
		p.MachineCPU, p.MachineCPUAvailable = machineTicks(t).coresSince(machine0)
		if smp != nil {
			st := smp.Stop()["app"].Window(out.Window.Start, out.Window.End)
			p.AppCPU, p.AppCPUAvailable = st.CPUMean, st.Samples >= 2 && !st.Missing
		}
		return p, nil
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// selfCPU is the test process's CPU time, user plus system.
func selfCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ticks are the machine's busy and idle time, in /proc/stat's ticks.
type ticks struct{ busy, idle uint64 }

// machineTicks reads the first line of /proc/stat: user nice system idle
// iowait irq softirq steal (guest time is already in user).
func machineTicks(t *testing.T) ticks {
	t.Helper()
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 9 || fields[0] != "cpu" {
		t.Fatalf("/proc/stat begins %q", line)
	}
	var tk ticks
	for i, f := range fields[1:9] {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			t.Fatalf("/proc/stat field %d: %v", i+1, err)
		}
		if i == 3 || i == 4 {
			tk.idle += n
		} else {
			tk.busy += n
		}
	}
	return tk
}

// coresSince is the machine's CPU in cores from then to tk; not available
// when no tick passed.
func (tk ticks) coresSince(then ticks) (float64, bool) {
	busy, all := tk.busy-then.busy, tk.busy+tk.idle-then.busy-then.idle
	if all == 0 {
		return 0, false
	}
	return float64(busy) / float64(all) * float64(runtime.NumCPU()), true
}
