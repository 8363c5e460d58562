package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"

	"crudbench/bench/stack"
)

// parseDebugURLs reads "-debug-url rest=http://127.0.0.1:6060,…" into app
// name → admin base URL, the form -attach and -pid take.
func parseDebugURLs(value string) (map[string]string, error) {
	items, err := stack.ParseNamed("debug-url", value, "app=URL, e.g. rest=http://127.0.0.1:6060")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, it := range items {
		raw := strings.TrimRight(it.Value, "/")
		if err := checkDebugURL(raw); err != nil {
			return nil, fmt.Errorf("-debug-url %s: %w", it.Name, err)
		}
		out[it.Name] = raw
	}
	return out, nil
}

// checkDebugURL accepts an http(s) base URL on a loopback host with a port
// and nothing after it: the apps serve pprof only on a loopback admin
// address, so any other host is a mistake (or another machine's port that
// should not be open).
func checkDebugURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: want an http:// URL", raw)
	case u.Port() == "":
		return fmt.Errorf("%q: want a port, e.g. http://127.0.0.1:6060", raw)
	case u.Path != "" || u.RawQuery != "" || u.User != nil:
		return fmt.Errorf("%q: want the admin address only, without path, query or user", raw)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%q: not a loopback address (apps serve pprof on loopback only)", raw)
	}
	return nil
}

// checkProfiling checks that -debug-url names attached apps and comes with
// -profile-cpu: apps the runner starts have their admin address already,
// and without profiling the URLs would be read and never used.
func (c Config) checkProfiling() []error {
	if len(c.DebugURLs) == 0 {
		return nil
	}
	var errs []error
	if !c.ProfileCPU {
		errs = append(errs, errors.New("-debug-url only applies with -profile-cpu"))
	}
	if len(c.Attach) == 0 {
		return append(errs, errors.New("-debug-url only applies with -attach (the apps the runner starts have theirs)"))
	}
	return append(errs, c.checkAttachedNames("-debug-url", slices.Sorted(maps.Keys(c.DebugURLs)))...)
}
