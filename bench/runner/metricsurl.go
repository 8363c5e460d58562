package runner

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"crudbench/bench/stack"
)

// parseMetricsURLs reads "-metrics-url rest=http://10.0.0.5:9090/metrics,…"
// into app name → the URL of its Prometheus metrics.
func parseMetricsURLs(value string) (map[string]string, error) {
	out := map[string]string{}
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, raw, ok := strings.Cut(item, "=")
		name, raw = strings.TrimSpace(name), strings.TrimSpace(raw)
		if !ok || name == "" {
			return nil, fmt.Errorf("-metrics-url %q: want app=URL, e.g. rest=http://10.0.0.5:9090/metrics", item)
		}
		if err := stack.CheckName(name); err != nil {
			return nil, fmt.Errorf("-metrics-url %q: %w", item, err)
		}
		if err := checkMetricsURL(raw); err != nil {
			return nil, fmt.Errorf("-metrics-url %s: %w", name, err)
		}
		out[name] = raw
	}
	return out, nil
}

// checkMetricsURL accepts an http(s) URL with a host, on any host: unlike
// pprof, metrics are read-only counters that an app may serve to the
// network (METRICS_ADDR) for a runner on another machine.
func checkMetricsURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: want an http:// or https:// URL", raw)
	case u.Host == "":
		return fmt.Errorf("%q: want a host, e.g. http://10.0.0.5:9090/metrics", raw)
	case u.User != nil || u.Fragment != "":
		return fmt.Errorf("%q: want no user or fragment", raw)
	}
	return nil
}

// checkMetrics checks that -metrics-url names attached apps (the apps the
// runner starts serve theirs on their admin address, which it knows), and
// that -pid, which only says which process /proc is read for, does not
// come with -no-proc.
func (c Config) checkMetrics() []error {
	var errs []error
	if c.NoProc && len(c.PIDs) > 0 {
		errs = append(errs, errors.New("-pid has no use with -no-proc (the apps' processes are not read): drop one of them"))
	}
	if len(c.MetricsURLs) == 0 {
		return errs
	}
	if len(c.Attach) == 0 {
		return append(errs, errors.New("-metrics-url only applies with -attach (the apps the runner starts serve theirs on their admin address)"))
	}
	return append(errs, c.checkAttachedNames("-metrics-url", slices.Sorted(maps.Keys(c.MetricsURLs)))...)
}
