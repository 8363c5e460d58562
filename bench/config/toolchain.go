package config

import (
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/stack"
)

// checkToolchains keeps the runner from starting apps whose toolchain is
// not on PATH (a machine without Node.js): -apps all leaves them out with
// a note saying what to install, and an app named in -apps, by its name or
// its group (named, from parseApps), is an error saying the same.
// Attached apps are not started, so they need nothing.
func (c *Config) checkToolchains(named map[string]string) error {
	var keep, left, errs []string
	var items []string // the -apps items that name missing apps, in order
	missingOf := map[string][]string{}
	for _, name := range c.Apps {
		row, builtin := stack.FindBuiltin(name)
		_, attached := c.Attached(name)
		missing := row.Toolchain.Missing()
		item, isNamed := named[name]
		switch {
		case !builtin || attached || missing == "":
			keep = append(keep, name)
		case isNamed:
			if _, seen := missingOf[item]; !seen {
				items = append(items, item)
			}
			missingOf[item] = append(missingOf[item], name)
		default:
			left = append(left, name)
		}
	}
	for _, item := range items {
		row, _ := stack.FindBuiltin(missingOf[item][0])
		what := item
		if _, group := appGroups[item]; group {
			what = fmt.Sprintf("%s (%s)", item, strings.Join(missingOf[item], ", "))
		}
		errs = append(errs, fmt.Sprintf("%s needs %s (not on PATH)", what, row.Toolchain.Missing()))
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
