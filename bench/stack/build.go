package stack

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
			if err := runTool(ctx, folder, nil, log, "npm", npmCI...); err != nil {
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
