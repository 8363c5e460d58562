package stack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// NodeInstall says what a machine needs for the Node apps.
const NodeInstall = "install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)"

// npmCI installs a Node app's locked dependencies exactly as its
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
// folder, whose locked dependencies npm ci installs, once per folder.
// Tool output goes to log.
func Build(ctx context.Context, root, dir string, apps []App, log io.Writer) error {
	installed := map[string]bool{}
	for _, a := range apps {
		if a.Toolchain != ToolchainNode {
			args := []string{"build", "-o", filepath.Join(dir, a.Name), "./apps/" + a.Package}
			if err := runTool(ctx, root, a.BuildEnv, log, "go", args...); err != nil {
				return fmt.Errorf("build %s: %s%w", a.Name, envPrefix(a.BuildEnv), err)
			}
			continue
		}
		folder := filepath.Join(root, "apps", a.Package)
		if !installed[folder] {
			if err := InstallNode(ctx, folder, log); err != nil {
				return fmt.Errorf("build %s: in apps/%s: %w", a.Name, a.Package, err)
			}
			installed[folder] = true
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

// InstallNode installs the locked dependencies of the Node app in folder
// with npm ci, unless node_modules already holds what its
// package-lock.json pins (a stamp npm ci's success leaves, naming the
// lockfile's hash and the node version). npm ci deletes node_modules
// before it installs, so two at once in one folder — two runners, or the
// tests of several packages, which go test runs side by side — would pull
// the files from under each other and from under an app already running.
// So the install holds an exclusive lock (flock) on the folder's
// package-lock.json, and a second caller waits for the first and then
// finds the stamp. npm's output goes to log.
func InstallNode(ctx context.Context, folder string, log io.Writer) error {
	lockPath := filepath.Join(folder, "package-lock.json")
	lock, err := os.Open(lockPath)
	if err != nil {
		return fmt.Errorf("no lockfile to install from: %w", err)
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
	stamp := filepath.Join(folder, "node_modules", installedStamp)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	if err := runTool(ctx, folder, nil, log, "npm", npmCI...); err != nil {
		return err
	}
	// A package without dependencies gets no node_modules from npm ci.
	if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
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
// says: the SHA-256 of the lockfile and of every local package the app
// depends on ("file:../node-base", installed as a copy: a change to its
// code changes no lockfile, and must install the copy again), and the node
// version it was installed for (native modules are built for one).
func stampOf(ctx context.Context, path string) (string, error) {
	h := sha256.New()
	content, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	h.Write(content)
	locals, err := localPackages(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	for _, dir := range locals {
		if err := hashTree(h, dir); err != nil {
			return "", err
		}
	}
	version, err := exec.CommandContext(ctx, "node", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("node --version: %w", err)
	}
	return fmt.Sprintf("%x %s", h.Sum(nil), bytes.TrimSpace(version)), nil
}

// localPackages returns the folders of the "file:" dependencies in the
// package.json of the app in folder, sorted.
func localPackages(folder string) ([]string, error) {
	content, err := os.ReadFile(filepath.Join(folder, "package.json"))
	if err != nil {
		return nil, err
	}
	var pkg struct {
		Dependencies, DevDependencies map[string]string
	}
	if err := json.Unmarshal(content, &pkg); err != nil {
		return nil, fmt.Errorf("package.json: %w", err)
	}
	var dirs []string
	for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
		for _, spec := range deps {
			if rel, ok := strings.CutPrefix(spec, "file:"); ok {
				dirs = append(dirs, filepath.Join(folder, filepath.FromSlash(rel)))
			}
		}
	}
	slices.Sort(dirs)
	return dirs, nil
}

// hashTree writes the names and contents of the files under dir into h,
// in walk order, node_modules left out.
func hashTree(h io.Writer, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "node_modules":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(path[len(dir):]), len(content))
		_, err = h.Write(content)
		return err
	})
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
