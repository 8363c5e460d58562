package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"crudbench/bench/cpuprof"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// cpuProfile is the CPU profile of one run's measured window, taken by the
// attack's WindowStart hook over the window's whole seconds.
type cpuProfile struct {
	m    *measurer
	name string // the run's file base, also its label in notes
	// data and err are what the fetch returned; taken says it ran (the
	// attack waits for it before returning).
	data  []byte
	err   error
	taken bool
}

// profileFor arranges, when -profile-cpu is on, for opts to take a CPU
// profile of j's app during its measured window, and returns the profile to
// collect after the attack; nil when there is none to take.
func (m *measurer) profileFor(ctx context.Context, j load.Job, opts *load.Options) *cpuProfile {
	u := m.apps.App(j.App)
	seconds := m.cfg.Duration.Truncate(time.Second)
	switch {
	case !m.cfg.ProfileCPU:
		return nil
	case u.debugURL == "":
		m.notes.note(fmt.Sprintf("%s: CPU profiles are unavailable: it has no admin (pprof) address (give an attached app's with -debug-url %s=http://127.0.0.1:PORT).", j.App, j.App))
		return nil
	case seconds < time.Second:
		m.notes.note("No CPU profiles: a profile takes whole seconds and -duration is under one.")
		return nil
	}
	fetch := cpuprof.Fetch
	// An attached app named as a built-in one is that app (-attach
	// express=URL): a Node app whatever the runner knows of its process.
	if row, builtin := stack.FindBuiltin(j.App); u.toolchain == stack.ToolchainNode || builtin && row.Toolchain == stack.ToolchainNode {
		fetch = cpuprof.FetchV8
		m.noteV8(j.App, u.tree || row.Tree)
	}
	p := &cpuProfile{m: m, name: m.fileBase(j)}
	// The profile lasts the window; the request may take a little longer.
	client := &http.Client{Timeout: seconds + m.cfg.Timeout}
	opts.WindowStart = func() {
		p.data, p.err = fetch(ctx, client, u.debugURL, seconds)
		p.taken = true
	}
	return p
}

// noteV8 says what a Node app's CPU profile, V8's, covers: its main
// thread only (cpuprof.FromV8), and of a cluster (tree) one worker.
func (m *measurer) noteV8(app string, tree bool) {
	m.notes.note(fmt.Sprintf("%s: its CPU profiles are V8's, of the main thread where its JavaScript runs: they do not see libuv's threadpool (crypto, compression) or V8's garbage collector helper threads; V8 samples on wall-clock time, so on a busy machine their CPU seconds are approximate (read their shares); functions V8 implements natively (JSON.stringify, JSON.parse) count toward the function that called them.", app))
	if tree {
		m.notes.note(fmt.Sprintf("%s: its CPU profiles are of its first worker only, not of the primary or the other workers, which run the same code under the same share of the load.", app))
	}
}

// result analyzes the profile and writes it to the profiles folder. A
// profile that could not be taken, read or written is a note, not a failed
// run: the result then has no profile.
func (p *cpuProfile) result() *results.CPUProfile {
	if p == nil || !p.taken {
		return nil
	}
	prof, err := p.analyze()
	if err != nil {
		p.m.notes.note(fmt.Sprintf("%s: no CPU profile: %v.", p.name, err))
		return nil
	}
	return &prof
}

// analyze summarizes the profile and writes it where prof.File says.
func (p *cpuProfile) analyze() (results.CPUProfile, error) {
	if p.err != nil {
		return results.CPUProfile{}, p.err
	}
	prof, err := cpuprof.Analyze(p.data)
	if err != nil {
		return prof, err
	}
	prof.File = results.ProfileFile(p.name)
	if err := os.MkdirAll(filepath.Join(p.m.dir, results.ProfilesDir), 0o755); err != nil {
		return prof, err
	}
	return prof, os.WriteFile(filepath.Join(p.m.dir, prof.File), p.data, 0o644)
}
