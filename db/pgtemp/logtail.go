package pgtemp

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
)

// logTail passes server output on and keeps its last lines for error messages.
type logTail struct {
	mu      sync.Mutex
	out     io.Writer
	lines   []string
	partial []byte
}

func (t *logTail) Write(p []byte) (int, error) {
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
	if n := len(t.lines); n > logTailLines {
		t.lines = slices.Clone(t.lines[n-logTailLines:])
	}
	t.partial = slices.Clone(t.partial)
	return len(p), nil
}

func (t *logTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.Join(t.lines, "\n")
	if len(t.partial) > 0 {
		s += "\n" + string(t.partial)
	}
	return s
}
