package sampler_test

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/sampler"
)

// statLine builds a /proc/<pid>/stat line (52 fields, as on Linux 6.x)
// whose cutime and cstime are 33 and 44, with 3 threads
// and starttime 5555.
func statLine(pid, comm string) string {
	rest := "S 77 1234 1234 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 3 0 5555 " +
		"12345678 900 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	return pid + " (" + comm + ") " + rest
}

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		name, comm string
	}{
		{"plain", "postgres"},
		{"spaces", "postgres: app crud [local] idle"},
		{"closing paren", "a) b"},
		{"parens and fields", ") S 1 2 3 ("},
		{"empty", ""},
		{"only parens", "(("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sampler.ParseStat([]byte(statLine("1234", tc.comm)))
			if err != nil {
				t.Fatalf("ParseStat: %v", err)
			}
			want := sampler.Stat{PID: 1234, PPID: 77, CUTime: 33, CSTime: 44, Threads: 3, StartTime: 5555}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ParseStat (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseStatRejects(t *testing.T) {
	full := statLine("1234", "x")
	for _, tc := range []struct {
		name, line string
	}{
		{"empty", ""},
		{"no parens", "1234 x S 77 1234"},
		{"truncated", full[:strings.Index(full, " 5555")]},
		{"bad pid", strings.Replace(full, "1234 (", "12a4 (", 1)},
		{"bad cutime", strings.Replace(full, " 33 44 ", " thirty-three 44 ", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := sampler.ParseStat([]byte(tc.line)); err == nil {
				t.Errorf("ParseStat(%q) = %+v, want an error", tc.line, got)
			}
		})
	}
}

func TestParseStatSelf(t *testing.T) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatalf("read /proc/self/stat (the sampler needs Linux /proc): %v", err)
	}
	got, err := sampler.ParseStat(b)
	if err != nil {
		t.Fatalf("ParseStat(%q): %v", b, err)
	}
	if got.PID != os.Getpid() || got.PPID != os.Getppid() {
		t.Errorf("pid, ppid = %d, %d; want %d, %d", got.PID, got.PPID, os.Getpid(), os.Getppid())
	}
	if got.StartTime == 0 {
		t.Errorf("starttime = 0 in %q", b)
	}
}
