package pgtemp

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
)

// LogTail passes a child process's output on and keeps its last lines
// for error messages: a process that fails at start-up is reported with
// what it said, even when its log goes nowhere or to a file that is gone.
// The bench's apps use it too.
type LogTail struct {
	mu      sync.Mutex
	out     io.Writer
	keep    int
	lines   []string
	partial []byte
}

// NewLogTail returns a LogTail that writes to out (nil: nowhere) and keeps
// the last keep lines.
func NewLogTail(out io.Writer, keep int) *LogTail {
	return &LogTail{out: out, keep: keep}
}

// Write passes p on and keeps its lines.
func (t *LogTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.out != nil {
		// A failing log sink must not block or stop the server.
		_, _ = t.out.Write(p)
	}
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	if n := len(t.lines); n > t.keep {
		t.lines = slices.Clone(t.lines[n-t.keep:])
	}
	t.partial = slices.Clone(t.partial)
	return len(p), nil
}

// String is the kept lines, the unfinished last one included.
func (t *LogTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.Join(t.lines, "\n")
	if len(t.partial) > 0 {
		s += "\n" + string(t.partial)
	}
	return s
}
