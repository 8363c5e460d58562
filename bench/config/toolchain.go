package config

import (
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/stack"
)

// checkToolchains keeps the runner from starting apps whose toolchain is
// not on PATH (a machine without Node.js): -apps all leaves them out with
// a note saying what to install, and an app named in -apps is an error
// saying the same. Attached apps are not started, so they need nothing.
func (c *Config) checkToolchains(appList string) error {
	named := map[string]bool{}
	for item := range strings.SplitSeq(appList, ",") {
		named[strings.TrimSpace(item)] = true
	}
	var keep, left, errs []string
	for _, name := range c.Apps {
		row, builtin := stack.FindBuiltin(name)
		_, attached := c.Attached(name)
		missing := row.Toolchain.Missing()
		switch {
		case !builtin || attached || missing == "":
			keep = append(keep, name)
		case named[name]:
			errs = append(errs, fmt.Sprintf("%s needs %s (not on PATH)", name, missing))
		default:
			left = append(left, name)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("-apps: %s: %s", strings.Join(errs, "; "), stack.NodeInstall)
	}
	if len(left) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("-apps all left out %s: they need %s (not on PATH); to measure them, %s.",
			strings.Join(left, ", "), stack.ToolchainNode.Missing(), stack.NodeInstall))
	}
	if len(keep) == 0 {
		return fmt.Errorf("-apps: no app left to measure: %s", stack.NodeInstall)
	}
	c.Apps = slices.Clip(keep)
	return nil
}
