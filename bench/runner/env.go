package runner

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// cpuModel reads the processor's name from /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(val)
		}
	}
	return runtime.GOARCH
}

// kernel returns the operating system and kernel release.
func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return runtime.GOOS + " " + strings.TrimSpace(string(b))
}

// buildCommit is the commit the binary was built from, set at link time
// with -ldflags "-X crudbench/bench/runner.buildCommit=…" (the Dockerfile's
// COMMIT build argument). Docker builds have no .git to read, so a runner in
// a container would otherwise report no commit at all.
var buildCommit string

// sourceCommit names the commit being measured: that of the repository at
// dir (empty when the runner is not in one), else the one stamped at build
// time, else unknown.
func sourceCommit(ctx context.Context, dir, stamped string) string {
	if dir != "" {
		if c, ok := gitCommit(ctx, dir); ok {
			return c
		}
	}
	if stamped != "" {
		return stamped + " (stamped at build)"
	}
	return "unknown (not run from the repository, no commit stamped at build)"
}

// gitCommit returns the short commit of the repository at dir, marked
// "-dirty" when tracked files differ from it; ok is false outside a
// repository.
func gitCommit(ctx context.Context, dir string) (commit string, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--short=12", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", false
	}
	commit = strings.TrimSpace(string(out))
	cmd = exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no")
	cmd.Dir = dir
	if st, err := cmd.Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		commit += "-dirty"
	}
	return commit, true
}
