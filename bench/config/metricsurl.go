package config

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"

	"crudbench/bench/stack"
)

// parseMetricsURLs reads "-metrics-url rest=http://10.0.0.5:9100/metrics,…"
// into app name → the URLs of its Prometheus metrics, in the order given:
// one per process of the app. An app named more than once runs as that
// many replicas behind the one -attach URL (a load balancer), e.g.
// "rest=http://10.0.0.5:9100/metrics,rest=http://10.0.0.6:9100/metrics".
// A URL given twice would count one process twice.
func parseMetricsURLs(value string) (map[string][]string, error) {
	items, err := stack.ParseNamed("metrics-url", value, "app=URL, e.g. rest=http://10.0.0.5:9100/metrics")
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	seen := map[string]string{}
	for _, it := range items {
		if err := checkMetricsURL(it.Value); err != nil {
			return nil, fmt.Errorf("-metrics-url %s: %w", it.Name, err)
		}
		if first, ok := seen[it.Value]; ok {
			return nil, fmt.Errorf("-metrics-url: %s is given twice (for %s and %s): each URL is one process, give each replica's own once", it.Value, first, it.Name)
		}
		seen[it.Value] = it.Name
		out[it.Name] = append(out[it.Name], it.Value)
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
		return fmt.Errorf("%q: want a host, e.g. http://10.0.0.5:9100/metrics", raw)
	case u.User != nil || u.Fragment != "":
		return fmt.Errorf("%q: want no user or fragment", raw)
	}
	return nil
}

// checkMetrics checks that -metrics-url names attached apps (the apps the
// runner starts serve theirs on their admin address, which it knows), and
// that -pid, which only says which process /proc is read for, does not
// come with -no-proc, nor for an app with replicas: /proc sees one
// process, never the app's several.
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
	errs = append(errs, c.checkAttachedNames("-metrics-url", slices.Sorted(maps.Keys(c.MetricsURLs)))...)
	for _, name := range slices.Sorted(maps.Keys(c.PIDs)) {
		if n := len(c.MetricsURLs[name]); n > 1 {
			errs = append(errs, fmt.Errorf("-pid %s: %s runs as %d replicas (-metrics-url), which /proc cannot read as one app: drop its -pid, its CPU and memory come from the replicas' metrics", name, name, n))
		}
	}
	return errs
}
