package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// Pages is what the page scenarios view and how: front ends, not APIs.
// A front end is an app of kind site (the htmx site serves its own pages)
// or a row of stack.FrontEnds (the single-page app's builds, each in
// front of the API row it names, which the runner starts for it when it
// is not among the apps).
type Pages struct {
	// Scenarios are the page scenarios to run (scenario.Pages), FrontEnds
	// the front ends they view, in report order; both empty when the run
	// views no page.
	Scenarios, FrontEnds []string
	// Rates maps profile → page scenario → views per second, -rate
	// overrides applied.
	Rates map[string]map[string]float64
	// Devices are the devices every view is made on: DeviceDesktop,
	// DeviceMobile (-page-devices).
	Devices []string
	// Contexts is how many browser contexts views may run in at once
	// (-page-contexts).
	Contexts int
}

// The devices of -page-devices: the desktop as it is, and a mobile-like
// one (a throttled network and CPU, package pages' Mobile).
const (
	DeviceDesktop = "desktop"
	DeviceMobile  = "mobile"
)

// Devices lists the devices -page-devices takes, in report order.
var Devices = []string{DeviceDesktop, DeviceMobile}

// DefaultPageContexts is -page-contexts' default: a few contexts, which
// one Chromium on a 2-core machine's runner side holds at the light
// profile's view a second.
const DefaultPageContexts = 3

// splitScenarios moves the page scenarios of c.Scenarios into
// c.Pages.Scenarios.
func (c *Config) splitScenarios() {
	var api []string
	for _, s := range c.Scenarios {
		if scenario.IsPage(s) {
			c.Pages.Scenarios = append(c.Pages.Scenarios, s)
		} else {
			api = append(api, s)
		}
	}
	c.Scenarios = api
}

// splitApps sorts the apps read from -apps into those the API scenarios
// drive (c.Apps) and the front ends the page scenarios view
// (c.Pages.FrontEnds), after checkToolchains. A front end of the table is
// never driven by an API scenario and an API app that is not a site is
// never viewed: allScenarios says -scenarios said all, allApps that -apps
// did, and then a pair that makes nothing to run is left out with a note;
// named, it is an error.
func (c *Config) splitApps(allScenarios, allApps bool) error {
	var driven, ends []string
	for _, name := range c.Apps {
		if _, ok := stack.FindFrontEnd(name); ok {
			ends = append(ends, name)
			continue
		}
		driven = append(driven, name)
	}
	// fronts is the API a front end of the table fronts.
	fronts := func(name string) string {
		row, _ := stack.FindFrontEnd(name)
		return row.Fronts
	}
	var viewed []string
	if len(c.Pages.Scenarios) > 0 {
		for _, name := range c.Apps {
			if slices.Contains(ends, name) || c.kindOf(name) == scenario.KindSite {
				viewed = append(viewed, name)
			}
		}
	}
	if len(ends) > 0 && stack.ToolchainNode.Missing() != "" {
		if !allApps {
			return fmt.Errorf("-apps: %s needs %s (not on PATH): %s", strings.Join(ends, ", "), stack.ToolchainNode.Missing(), stack.NodeInstall)
		}
		viewed = slices.DeleteFunc(viewed, func(n string) bool { return slices.Contains(ends, n) })
	}
	pages, api := strings.Join(c.Pages.Scenarios, ", "), strings.Join(c.Scenarios, ", ")
	switch {
	case len(c.Scenarios) > 0 && len(driven) == 0:
		return fmt.Errorf("-apps names only front ends (%s), which the API scenarios (%s) do not drive: add an API app, or run the page scenarios (%s)",
			strings.Join(ends, ", "), api, strings.Join(scenario.Pages, ", "))
	case len(c.Pages.Scenarios) > 0 && len(viewed) == 0 && allScenarios:
		c.Notes = append(c.Notes, fmt.Sprintf("The page scenarios (%s) did not run: they view front ends (an app of kind site, or %s), and none was among the apps.", pages, strings.Join(stack.FrontEndNames(), ", ")))
		c.Pages.Scenarios = nil
	case len(c.Pages.Scenarios) > 0 && len(viewed) == 0:
		return fmt.Errorf("-scenarios %s view front ends (an app of kind site, or %s), and -apps names none", pages, strings.Join(stack.FrontEndNames(), ", "))
	case len(c.Pages.Scenarios) == 0 && len(ends) > 0 && !allApps:
		if len(c.Scenarios) == 0 {
			return errors.New("-apps: front ends are viewed by the page scenarios only: add one to -scenarios")
		}
		c.Notes = append(c.Notes, fmt.Sprintf("%s did not run: a front end is viewed by the page scenarios (%s) only, and none was asked for.", strings.Join(ends, ", "), strings.Join(scenario.Pages, ", ")))
	}
	if len(c.Scenarios) == 0 {
		var idle []string
		for _, name := range driven {
			if !slices.Contains(viewed, name) && !slices.ContainsFunc(viewed, func(f string) bool { return fronts(f) == name }) {
				idle = append(idle, name)
			}
		}
		if len(idle) > 0 && !allApps {
			c.Notes = append(c.Notes, fmt.Sprintf("%s did not run: no API scenario was asked for, and the page scenarios view front ends only.", strings.Join(idle, ", ")))
		}
		driven = nil
	}
	if len(c.Pages.Scenarios) == 0 {
		viewed = nil
	}
	c.Apps, c.Pages.FrontEnds = driven, viewed
	return nil
}

// kindOf is the kind of the app called name: attached, or built in.
func (c Config) kindOf(name string) scenario.Kind {
	if a, ok := c.Attached(name); ok {
		return a.Kind
	}
	row, _ := stack.FindBuiltin(name)
	return row.Kind
}

// readPages reads -page-devices and -page-contexts.
func (c *Config) readPages(devices string, contexts int) error {
	var err error
	if c.Pages.Devices, err = scenario.ParseList("device", devices, Devices); err != nil {
		return fmt.Errorf("-page-devices: %w", err)
	}
	if contexts < 1 {
		return errors.New("-page-contexts must be at least 1")
	}
	c.Pages.Contexts = contexts
	return nil
}
