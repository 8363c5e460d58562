package sampler

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
)

// MachineCPU is the CPU time the whole machine has spent since boot, from
// the first lines of /proc/stat, in clock ticks summed over all CPUs: what
// a machine target (Target.Machine) samples, so that a window shows when
// the app, PostgreSQL and the load generator together used all the
// machine had.
type MachineCPU struct {
	// Busy is user, nice, system, irq, softirq and steal time; Idle is
	// idle and iowait time.
	Busy, Idle uint64
	// CPUs is the number of CPUs the totals add up.
	CPUs int
}

// parseMachineCPU reads the "cpu" line of /proc/stat (see proc(5)) and
// counts the "cpuN" lines after it. Guest time is already in user time,
// so it is not added again.
func parseMachineCPU(b []byte) (MachineCPU, error) {
	var m MachineCPU
	sc := bufio.NewScanner(bytes.NewReader(b))
	found := false
	for sc.Scan() {
		fields := bytes.Fields(sc.Bytes())
		switch {
		case len(fields) == 0 || !bytes.HasPrefix(fields[0], []byte("cpu")):
			continue
		case string(fields[0]) != "cpu":
			m.CPUs++
			continue
		case len(fields) < 9:
			return MachineCPU{}, fmt.Errorf("/proc/stat: short cpu line %q", sc.Bytes())
		}
		var v [8]uint64
		for i := range v {
			n, err := strconv.ParseUint(string(fields[i+1]), 10, 64)
			if err != nil {
				return MachineCPU{}, fmt.Errorf("/proc/stat: %w", err)
			}
			v[i] = n
		}
		m.Busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
		m.Idle = v[3] + v[4]
		found = true
	}
	if !found || m.CPUs == 0 {
		return MachineCPU{}, fmt.Errorf("/proc/stat: no cpu lines")
	}
	return m, nil
}
