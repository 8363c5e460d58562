package runner

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"crudbench/bench/facts"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// Problems of the stack facts of an attached app.
const (
	problemAttachedStart = "start time and idle RSS: the app was already running (attach mode)"
	problemNoSource      = "lines, modules and binary size: the crudbench source tree is not here"
	problemBinaryOnly    = "lines and direct modules: the crudbench source tree is not here; binary size and modules linked read from the running binary"
	problemNoBinary      = "binary size, Go version and modules linked: the attached app's process is not visible (give -pid); lines counted from the tree"
	problemNodeAttached  = "deployed size and Node.js version: the attached app was installed and started elsewhere; lines and packages counted from the tree"
	problemNotBuiltin    = "lines, modules and binary size: not a built-in app, so its source is not in this tree"
)

// stackFacts measures every app's stack facts, in the order of the apps.
// What cannot be measured is a problem of the app's facts, never a failed
// run.
func (r *runner) stackFacts(ctx context.Context) []results.StackFacts {
	r.con.printf("Measuring the stack facts (lines of code, dependencies, deployed size)…\n")
	out := make([]results.StackFacts, 0, len(r.cfg.Apps))
	for _, name := range r.cfg.Apps {
		u := r.apps[name]
		if u.proc != nil {
			out = append(out, r.startedFacts(ctx, name, u.proc))
		} else {
			out = append(out, r.attachedFacts(ctx, name, u.pid))
		}
	}
	return out
}

// startedFacts are the facts of an app the runner built and started: all
// of them, a Go app's from its binary, a Node.js app's from its folder,
// which the build step installed.
func (r *runner) startedFacts(ctx context.Context, name string, p *stack.Process) results.StackFacts {
	row, _ := stack.FindBuiltin(name) // the runner starts built-in apps only
	var f results.StackFacts
	var err error
	if row.Toolchain == stack.ToolchainNode {
		f, err = facts.MeasureNode(ctx, r.root, row.Package)
	} else {
		f, err = facts.Measure(ctx, r.root, row.Package, filepath.Join(r.binDir, name))
	}
	f.App = name
	if err != nil {
		f.Problems = append(f.Problems, err.Error())
	}
	f.StartMs = float64(p.Ready) / float64(time.Millisecond)
	f.IdleRSSMB = float64(p.IdleRSSBytes) / results.BytesPerMB
	return f
}

// attachedFacts are the facts of an app already running: never its start,
// and only for a built-in app (whose source is the tree's) its binary, when
// its process is visible (even without the tree, as in a container that
// shares the host's processes), and its lines, when the source tree is
// here. Of a Node.js app only the tree's facts are known: its process is
// node, and what it runs was installed elsewhere.
func (r *runner) attachedFacts(ctx context.Context, name string, pid int) results.StackFacts {
	f := results.StackFacts{App: name}
	row, builtin := stack.FindBuiltin(name)
	var err error
	switch {
	case !builtin:
		f.Problems = []string{problemNotBuiltin}
	case row.Toolchain == stack.ToolchainNode && r.root == "":
		f.Problems = []string{problemNoSource}
	case row.Toolchain == stack.ToolchainNode:
		f, err = facts.NodeTree(r.root, row.Package)
		f.Problems = []string{problemNodeAttached}
	case r.root == "" && pid != 0:
		// Reading another container's binary needs ptrace rights a
		// container may lack: then only the missing tree is said, and why.
		problem := problemBinaryOnly
		if f, err = facts.Binary("/proc/" + strconv.Itoa(pid) + "/exe"); err != nil {
			problem = problemNoSource
		}
		f.Problems = []string{problem}
	case r.root == "":
		f.Problems = []string{problemNoSource}
	case pid != 0:
		f, err = facts.Measure(ctx, r.root, row.Package, "/proc/"+strconv.Itoa(pid)+"/exe")
	default:
		f, err = r.treeFacts(ctx, row)
	}
	f.App = name
	if err != nil {
		f.Problems = append(f.Problems, err.Error())
	}
	f.Problems = append(f.Problems, problemAttachedStart)
	return f
}

// treeFacts counts the lines of an app whose binary is not at hand by
// building one from the tree, and keeps only what does not depend on how
// the running binary was built (its frameworks are the tree's go.mod's,
// but its size, modules and Go version are the build's).
func (r *runner) treeFacts(ctx context.Context, row stack.App) (results.StackFacts, error) {
	dir, err := os.MkdirTemp("", "crudbench-facts-")
	if err != nil {
		return results.StackFacts{}, err
	}
	defer os.RemoveAll(dir)
	if err := stack.Build(ctx, r.root, dir, []stack.App{row}, io.Discard); err != nil {
		return results.StackFacts{}, err
	}
	f, err := facts.Measure(ctx, r.root, row.Package, filepath.Join(dir, row.Name))
	f.BinaryBytes, f.TotalModules, f.RuntimeVersion = 0, 0, ""
	f.Problems = append(f.Problems, problemNoBinary)
	return f, err
}
