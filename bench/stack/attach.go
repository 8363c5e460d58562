package stack

import (
	"errors"
	"fmt"
	"net"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"crudbench/bench/grpcwire"
	"crudbench/bench/scenario"
)

// maxComm is the longest command name the kernel keeps (TASK_COMM_LEN
// less its terminating zero).
const maxComm = 15

// Attached is an app already running that the runner measures: any
// implementation of a kind, under a name of its own.
type Attached struct {
	Name string
	Kind scenario.Kind
	URL  string
}

// ParseAttach reads "-attach candidate=rest@http://host:8080,…" into the
// attached apps, in the order given. "rest=http://host:8081" is short for
// a built-in app's name, whose kind the table gives. A built-in name can
// only be attached as its own kind. A grpc app is given as host:port,
// "candidate=grpc@host:9090" (or grpc://host:port), and gets the URL
// grpc://host:port, the address its requests go to (grpcwire). An amqp
// app is given as the AMQP URL of the broker it consumes its queue from,
// "candidate=amqp@amqp://user:pass@host:5672/vhost"; the apps of kind
// amqp of one run are on one broker.
func ParseAttach(value string) ([]Attached, error) {
	var out []Attached
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		a, err := parseAttached(item)
		if err != nil {
			return nil, fmt.Errorf("-attach %q: %w", redactItem(item), err)
		}
		if slices.ContainsFunc(out, func(b Attached) bool { return b.Name == a.Name }) {
			return nil, fmt.Errorf("-attach: app %s is attached twice", a.Name)
		}
		out = append(out, a)
	}
	var broker string
	for _, a := range out {
		switch {
		case a.Kind != scenario.KindAMQP:
		case broker == "":
			broker = a.URL
		case a.URL != broker:
			return nil, fmt.Errorf("-attach: the amqp apps of a run are on one broker; %s is on another (give each run one AMQP URL)", a.Name)
		}
	}
	return out, nil
}

// parseAttached reads one name=kind@url or name=url.
func parseAttached(item string) (Attached, error) {
	name, value, ok := strings.Cut(item, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || value == "" {
		return Attached{}, errors.New("want name=kind@URL (e.g. candidate=rest@http://10.0.0.5:8080) or a built-in app's name=URL (e.g. rest=http://localhost:8081)")
	}
	if err := CheckName(name); err != nil {
		return Attached{}, err
	}
	builtin, isBuiltin := FindBuiltin(name)
	a := Attached{Name: name, Kind: builtin.Kind}
	if strings.HasPrefix(value, "http://") || strings.HasPrefix(value, "https://") || strings.HasPrefix(value, grpcPrefix) || isAMQPURL(value) {
		if !isBuiltin {
			return Attached{}, fmt.Errorf("%s is not a built-in app (%s): give its kind, e.g. %s=rest@%s", name, strings.Join(BuiltinNames(), ", "), name, redactURL(value))
		}
		if (builtin.Kind == scenario.KindGRPC) != strings.HasPrefix(value, grpcPrefix) || (builtin.Kind == scenario.KindAMQP) != isAMQPURL(value) {
			return Attached{}, fmt.Errorf("%s is of kind %s: a grpc app is at grpc://host:port, an amqp app at its broker's amqp://user:pass@host:port/vhost, every other at an http(s) URL", name, builtin.Kind)
		}
		a.URL = strings.TrimRight(value, "/")
		if builtin.Kind == scenario.KindAMQP {
			if err := checkAMQPURL(value); err != nil {
				return Attached{}, err
			}
			a.URL = value
		}
		return a, nil
	}
	kind, url, ok := strings.Cut(value, "@")
	if !ok || url == "" {
		return Attached{}, errors.New("want name=kind@URL, e.g. candidate=rest@http://10.0.0.5:8080")
	}
	k, err := scenario.ParseKind(strings.TrimSpace(kind))
	if err != nil {
		return Attached{}, err
	}
	if isBuiltin && k != builtin.Kind {
		return Attached{}, fmt.Errorf("%s is the built-in app of kind %s: attach a %s server under another name", name, builtin.Kind, k)
	}
	a.Kind, a.URL = k, strings.TrimRight(strings.TrimSpace(url), "/")
	switch k {
	case scenario.KindGRPC:
		if a.URL, err = grpcURL(a.URL); err != nil {
			return Attached{}, err
		}
	case scenario.KindAMQP:
		a.URL = strings.TrimSpace(url)
		if err := checkAMQPURL(a.URL); err != nil {
			return Attached{}, err
		}
	default:
		if isAMQPURL(a.URL) {
			return Attached{}, fmt.Errorf("an AMQP URL is an amqp app's broker: attach it as name=amqp@%s, not as kind %s", redactURL(a.URL), k)
		}
	}
	return a, nil
}

// isAMQPURL reports whether value is an AMQP URL, a broker's.
func isAMQPURL(value string) bool {
	return strings.HasPrefix(value, "amqp://") || strings.HasPrefix(value, "amqps://")
}

// checkAMQPURL accepts the broker URL of an amqp app: amqp:// or amqps://
// with a host, as the amqp app itself takes AMQP_URL.
func checkAMQPURL(value string) error {
	u, err := neturl.Parse(value)
	if err != nil || !isAMQPURL(value) || u.Host == "" {
		return fmt.Errorf("an amqp app is attached at its broker's URL, amqp://user:pass@host:port/vhost (or amqps://), not %q", redactURL(value))
	}
	return nil
}

// redactItem is an -attach item with the password of an AMQP URL in it
// replaced, for an error message.
func redactItem(item string) string {
	for _, scheme := range []string{"amqp://", "amqps://"} {
		if i := strings.Index(item, scheme); i >= 0 {
			return item[:i] + redactURL(item[i:])
		}
	}
	return item
}

// redactURL is value with any password in it replaced, for an error
// message.
func redactURL(value string) string {
	if u, err := neturl.Parse(value); err == nil && u.User != nil {
		return u.Redacted()
	}
	return value
}

// grpcPrefix starts the URL of a grpc app.
const grpcPrefix = grpcwire.Scheme + "://"

// grpcURL turns a grpc app's host:port (or grpc://host:port) into its URL.
func grpcURL(addr string) (string, error) {
	hostPort := strings.TrimPrefix(addr, grpcPrefix)
	if _, port, err := net.SplitHostPort(hostPort); err != nil || port == "" || strings.Contains(hostPort, "/") {
		return "", fmt.Errorf("a grpc app is attached at host:port, e.g. candidate=grpc@10.0.0.5:9090, not %q", addr)
	}
	return grpcPrefix + hostPort, nil
}

// CheckName accepts an app's name: letters, digits, '-' and '_' only,
// since it names files of the results (raw/light-read-one-<app>.bin).
func CheckName(name string) error {
	if name == "" {
		return errors.New("an app needs a name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("app name %q: use letters, digits, '-' and '_' only", name)
		}
	}
	return nil
}

// ParsePIDs reads "-pid rest=123,graphql=456" into app name → process id.
func ParsePIDs(value string) (map[string]int, error) {
	items, err := ParseNamed("pid", value, "app=PID, e.g. rest=1234")
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, it := range items {
		pid, err := strconv.Atoi(it.Value)
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("-pid %q: want app=PID, e.g. rest=1234", it.Item)
		}
		out[it.Name] = pid
	}
	return out, nil
}

// FindProcess returns the one process whose command name (/proc/<pid>/comm,
// the executable's name cut to 15 bytes) is name, cut the same way. It
// fails when there is none visible or more than one, naming the candidates.
func FindProcess(name string) (int, error) {
	comm := name[:min(len(name), maxComm)]
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("find process %s: %w", name, err)
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil { // gone meanwhile, or not ours to read
			continue
		}
		if strings.TrimSpace(string(b)) == comm {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	switch len(pids) {
	case 0:
		return 0, fmt.Errorf("no process named %q is visible", name)
	case 1:
		return pids[0], nil
	}
	return 0, fmt.Errorf("%d processes are named %q (pids %v): give the right one with -pid %s=PID", len(pids), name, pids, name)
}

// Alive reports whether process pid exists and is visible.
func Alive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// Named is one app=value item of a flag that gives apps a value each
// (-pid, -debug-url, -metrics-url): Item is the item as given, for errors.
type Named struct {
	Name, Value, Item string
}

// ParseNamed splits a flag's "app=value,…" into its items, in order, each
// with a name CheckName accepts and a value of any form; want says the
// form in the error for an item without one ("app=PID, e.g. rest=1234").
func ParseNamed(flagName, value, want string) ([]Named, error) {
	var out []Named
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, v, ok := strings.Cut(item, "=")
		name, v = strings.TrimSpace(name), strings.TrimSpace(v)
		if !ok || name == "" || v == "" {
			return nil, fmt.Errorf("-%s %q: want %s", flagName, item, want)
		}
		if err := CheckName(name); err != nil {
			return nil, fmt.Errorf("-%s %q: %w", flagName, item, err)
		}
		out = append(out, Named{Name: name, Value: v, Item: item})
	}
	return out, nil
}
