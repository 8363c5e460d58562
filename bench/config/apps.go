package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/stack"
)

// appGroups are the words -apps takes besides the apps' names and all:
// each stands for every built-in app its toolchain builds and runs.
var appGroups = map[string]stack.Toolchain{
	"go":   stack.ToolchainGo,
	"node": stack.ToolchainNode,
}

// parseApps reads -apps: the names of known apps, all, and the groups,
// mixed at will; the apps come back once each, in known's order (the
// report's). named maps each app an item asked for by its name or its
// group (all does not count) to that item, for checkToolchains to say
// which item needs what.
func parseApps(value string, known []string) (apps []string, named map[string]string, err error) {
	picked := map[string]bool{}
	named = map[string]string{}
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if item == "all" {
			for _, name := range known {
				picked[name] = true
			}
			continue
		}
		if toolchain, ok := appGroups[item]; ok {
			for _, name := range stack.BuiltinNamesOf(toolchain) {
				picked[name] = true
				if _, ok := named[name]; !ok {
					named[name] = item
				}
			}
			continue
		}
		if !slices.Contains(known, item) {
			return nil, nil, fmt.Errorf("unknown app %q (known: %s, or all, go, node)", item, strings.Join(known, ", "))
		}
		picked[item] = true
		named[item] = item
	}
	for _, name := range known {
		if picked[name] {
			apps = append(apps, name)
		}
	}
	if len(apps) == 0 {
		return nil, nil, errors.New("no app given")
	}
	return apps, named, nil
}
