package sampler

// Stat mirrors the fields parsed from /proc/<pid>/stat for the external
// tests.
type Stat struct {
	PID                          int
	Comm                         string
	PPID                         int
	UTime, STime, CUTime, CSTime uint64
	StartTime                    uint64
}

// ParseStat exposes the /proc/<pid>/stat parser to the external tests.
func ParseStat(b []byte) (Stat, error) {
	p, err := parseStat(b)
	return Stat{p.pid, p.comm, p.ppid, p.utime, p.stime, p.cutime, p.cstime, p.startTime}, err
}
