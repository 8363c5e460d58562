package stack_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/stack"
)

// appTableHeading heads the one table in the docs that says which app is
// which.
const appTableHeading = "## Which app is which"

// docRow is one row of that table, as far as it can be checked.
type docRow struct {
	Name, Kind, Runtime, Addr string
}

// runtimes names each toolchain as the table's runtime column does.
var runtimes = map[stack.Toolchain]string{
	stack.ToolchainGo:   "Go",
	stack.ToolchainNode: "Node.js",
}

// TestAppTable holds docs/apps.md's table of apps to the runner's: every
// built-in row with its kind and runtime, in the same order, and nothing
// else; each default address as the app's code sets it.
func TestAppTable(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := readAppTable(t, filepath.Join(root, "docs", "apps.md"))
	var want []docRow
	for _, a := range stack.Builtin {
		want = append(want, docRow{Name: a.Name, Kind: string(a.Kind), Runtime: runtimes[a.Toolchain], Addr: defaultAddr(t, root, a)})
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/apps.md's app table (-runner's +docs'):\n%s", d)
	}
}

// readAppTable reads the rows of the table under appTableHeading.
func readAppTable(t *testing.T, path string) []docRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+appTableHeading+"\n")
	if !ok {
		t.Fatalf("%s has no %q section", path, appTableHeading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []docRow
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 5 {
			t.Errorf("row %q: want 5 cells (app, kind, runtime, stack, default address)", line)
			continue
		}
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		if cells[3] == "" {
			t.Errorf("row %q: no stack", line)
		}
		rows = append(rows, docRow{Name: cells[0], Kind: cells[1], Runtime: cells[2], Addr: cells[4]})
	}
	return rows
}

// Where the apps' code sets its default address: a Go app's defaultAddr
// constant, a Node app's DEFAULT_ADDR or the address it gives loadConfig.
var (
	goAddr   = regexp.MustCompile(`(?m)^const defaultAddr = "([^"]+)"`)
	nodeAddr = regexp.MustCompile(`DEFAULT_ADDR = '([^']+)'|loadConfig\(env, '([^']+)'\)`)
)

// defaultAddr returns the one address the code of row a listens on without
// ADDR.
func defaultAddr(t *testing.T, root string, a stack.App) string {
	t.Helper()
	dir := filepath.Join(root, "apps", a.Package)
	files, re := []string{filepath.Join(dir, "main.go")}, goAddr
	if a.Toolchain == stack.ToolchainNode {
		var err error
		if files, err = filepath.Glob(filepath.Join(dir, "src", "*.[jt]s")); err != nil {
			t.Fatal(err)
		}
		// A Main outside src/ (next's server.js) sets it there.
		if !strings.HasPrefix(a.Main, "src/") && !strings.HasPrefix(a.Main, "dist/") {
			files = append(files, filepath.Join(dir, a.Main))
		}
		re = nodeAddr
	}
	var addrs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			addrs = append(addrs, strings.Join(m[1:], ""))
		}
	}
	slices.Sort(addrs)
	if addrs = slices.Compact(addrs); len(addrs) != 1 {
		t.Errorf("apps/%s: default addresses %q in its code, want exactly one", a.Package, addrs)
		return ""
	}
	return addrs[0]
}
