package stack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// NodeInstall says what a machine needs for the Node apps.
const NodeInstall = "install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)"

// npmCI installs the Node workspace's locked dependencies exactly as its
// package-lock.json pins them, without the audit and funding notices that
// would only fill the build log.
var npmCI = []string{"ci", "--no-audit", "--no-fund", "--loglevel=warn"}

// Missing names the commands of toolchain t that are not on PATH, ""
// when it has them all. Go needs nothing more than the runner itself.
func (t Toolchain) Missing() string {
	if t != ToolchainNode {
		return ""
	}
	var missing []string
	for _, cmd := range []string{"node", "npm"} {
		if _, err := exec.LookPath(cmd); err != nil {
			missing = append(missing, cmd)
		}
	}
	return strings.Join(missing, " and ")
}

// Build makes the apps of the module at root ready to start, one entry
// per app in dir named after the app (not its package: two rows may share
// a package, and a Go app's process is found by its executable's name):
// a Go app's binary, built with its BuildEnv; for a Node app a link to its
// folder, a package of the npm workspace at root, whose locked
// dependencies one npm ci at root installs for every Node app at once,
// and whose BuildScript, if it has one, then runs once (BuildNode).
// Tool output goes to log.
func Build(ctx context.Context, root, dir string, apps []App, log io.Writer) error {
	installed := false
	built := map[string]bool{}
	for _, a := range apps {
		if a.Toolchain != ToolchainNode {
			args := []string{"build", "-o", filepath.Join(dir, a.Name), "./apps/" + a.Package}
			if err := runTool(ctx, root, a.BuildEnv, log, "go", args...); err != nil {
				return fmt.Errorf("build %s: %s%w", a.Name, envPrefix(a.BuildEnv), err)
			}
			continue
		}
		folder := filepath.Join(root, "apps", a.Package)
		if fi, err := os.Stat(filepath.Join(folder, "package.json")); err != nil || fi.IsDir() {
			return fmt.Errorf("build %s: apps/%s has no package.json: it is no package of the Node workspace", a.Name, a.Package)
		}
		if !installed {
			if err := InstallNode(ctx, root, log); err != nil {
				return fmt.Errorf("build %s: in the Node workspace: %w", a.Name, err)
			}
			installed = true
		}
		if a.BuildScript != "" && !built[a.Package] {
			if err := BuildNode(ctx, root, a, log); err != nil {
				return fmt.Errorf("build %s: %w", a.Name, err)
			}
			built[a.Package] = true
		}
		if err := os.Symlink(folder, filepath.Join(dir, a.Name)); err != nil {
			return fmt.Errorf("build %s: %w", a.Name, err)
		}
	}
	return nil
}

// installedStamp is the file in node_modules that records which lockfile
// its content was installed from.
const installedStamp = ".crudbench-installed"

// InstallNode installs the locked dependencies of the npm workspace at
// root (its package.json lists the Node packages, apps/*, and its one
// package-lock.json pins what all of them install) with npm ci, unless
// node_modules already holds what the lockfile pins (a stamp npm ci's
// success leaves, naming the lockfile's hash and the node version). The
// workspace's own packages, apps/node-base among them, are links in
// node_modules: a change to their code needs no install. npm ci deletes
// node_modules before it installs, so two at once — two runners, or the
// tests of several Go packages, which go test runs side by side — would
// pull the files from under each other and from under an app already
// running. So the install holds an exclusive lock (flock) on the
// lockfile, and a second caller waits for the first and then finds the
// stamp. npm's output goes to log.
func InstallNode(ctx context.Context, root string, log io.Writer) error {
	lockPath := filepath.Join(root, "package-lock.json")
	lock, err := os.Open(lockPath)
	if err != nil {
		return fmt.Errorf("no lockfile to install from (npm install at the repository root writes it): %w", err)
	}
	defer lock.Close()
	if err := flock(ctx, lock); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	want, err := stampOf(ctx, lockPath)
	if err != nil {
		return err
	}
	stamp := filepath.Join(root, "node_modules", installedStamp)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return fmt.Errorf("npm not found on PATH: %s", NodeInstall)
	}
	if err := runTool(ctx, root, nil, log, "npm", npmCI...); err != nil {
		return err
	}
	// A workspace without dependencies gets no node_modules from npm ci.
	if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}

// BuildNode runs the BuildScript of the Node app a in the npm workspace
// at root, installed (InstallNode): npm run <script> --workspace
// apps/<Package>, which for a TypeScript app is tsc compiling its src/
// into dist/. It holds InstallNode's lock on the lockfile meanwhile, so
// that no npm ci removes the compiler under it and no second build (of
// another runner, or of the app's own npm test) writes the same files at
// once. A build that has nothing new to compile should write nothing
// (tsc's incremental mode), so that an app another runner is starting
// from them never reads a file half-written. npm's output goes to log.
func BuildNode(ctx context.Context, root string, a App, log io.Writer) error {
	lock, err := os.Open(filepath.Join(root, "package-lock.json"))
	if err != nil {
		return fmt.Errorf("no lockfile to build with (npm install at the repository root writes it): %w", err)
	}
	defer lock.Close()
	if err := flock(ctx, lock); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := exec.LookPath("npm"); err != nil {
		return fmt.Errorf("npm not found on PATH: %s", NodeInstall)
	}
	return runTool(ctx, root, nil, log, "npm", "run", a.BuildScript, "--workspace", "apps/"+a.Package)
}

// flock takes an exclusive lock on f, waiting for it until ctx ends.
func flock(ctx context.Context, f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for another npm ci in %s: %w", filepath.Dir(f.Name()), ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stampOf is what the stamp of an install from the lockfile at path
// says: the SHA-256 of the lockfile, and the node version it was
// installed for (native modules are built for one).
func stampOf(ctx context.Context, path string) (string, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node not found on PATH: %s", NodeInstall)
	}
	version, err := exec.CommandContext(ctx, "node", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("node --version: %w", err)
	}
	return fmt.Sprintf("%x %s", sha256.Sum256(content), bytes.TrimSpace(version)), nil
}

// envPrefix writes env as it would precede a command in a shell.
func envPrefix(env []string) string {
	if len(env) == 0 {
		return ""
	}
	return strings.Join(env, " ") + " "
}

// runTool runs name with args in dir, with env added to the runner's
// environment and its output going to log; its error quotes the command
// and its output.
func runTool(ctx context.Context, dir string, env []string, log io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, log), io.MultiWriter(&out, log)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return nil
}
