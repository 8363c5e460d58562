package facts

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// manifest is what counts of a package.json: the runtime dependencies
// (devDependencies are for tests and tools) and where it lies.
type manifest struct {
	dir string
	// key is the folder's entry in the workspace's lockfile, relative to
	// its root ("apps/express").
	key          string
	Dependencies map[string]string `json:"dependencies"`
}

// readManifest reads the package.json of the folder key of the workspace
// at root.
func readManifest(root, key string) (manifest, error) {
	dir := filepath.Join(root, filepath.FromSlash(key))
	name := filepath.Join(dir, "package.json")
	content, err := os.ReadFile(name)
	if err != nil {
		return manifest{}, err
	}
	m := manifest{dir: dir, key: key}
	if err := json.Unmarshal(content, &m); err != nil {
		return manifest{}, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// lockfile is what counts of the workspace's package-lock.json
// (lockfileVersion 2 or 3): its packages by install path
// ("node_modules/a/node_modules/b"), the workspace's own folders
// ("apps/express") among them.
type lockfile struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`
}

type lockPackage struct {
	Version string `json:"version"`
	// Link marks an entry that is a symbolic link to a package of the
	// workspace (Resolved its folder), whose files are counted as code,
	// not as a package.
	Link     bool   `json:"link"`
	Resolved string `json:"resolved"`
	// Optional marks a package that may be missing (one for another
	// platform): it is not installed everywhere.
	Optional             bool                               `json:"optional"`
	Dependencies         map[string]string                  `json:"dependencies"`
	OptionalDependencies map[string]string                  `json:"optionalDependencies"`
	PeerDependencies     map[string]string                  `json:"peerDependencies"`
	PeerDependenciesMeta map[string]struct{ Optional bool } `json:"peerDependenciesMeta"`
}

// lockName is the workspace's lockfile, at its root.
const lockName = "package-lock.json"

// readLockfile reads the package-lock.json of the workspace at root.
func readLockfile(root string) (*lockfile, error) {
	name := filepath.Join(root, lockName)
	content, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: the dependencies are counted from the workspace's lockfile (npm install at the repository root writes it)", err)
	}
	var lock lockfile
	if err := json.Unmarshal(content, &lock); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if lock.LockfileVersion < 2 || lock.Packages == nil {
		return nil, fmt.Errorf("%s: lockfileVersion %d has no packages list: regenerate it with npm 7 or newer", name, lock.LockfileVersion)
	}
	return &lock, nil
}

// resolve returns the install path of the package name as code in the
// folder from finds it: from's own node_modules, then each enclosing
// one's, up to the root's, as Node.js looks (a workspace folder's
// enclosing one is the root's).
func (l *lockfile) resolve(from, name string) (string, bool) {
	for {
		p := path.Join(from, "node_modules", name)
		if _, ok := l.Packages[p]; ok {
			return p, true
		}
		if from == "" {
			return "", false
		}
		if i := strings.LastIndex(from, "/node_modules/"); i >= 0 {
			from = from[:i]
		} else {
			from = "" // node_modules/a, or a folder of the workspace
		}
	}
}

// closure is what an app of the workspace needs at run time: the packages
// its dependencies and theirs resolve to, by install path, and the
// workspace's folders it depends on (its local packages), in the order
// found, its own first.
type closure struct {
	packages []string
	// optional are the packages that may be missing from node_modules:
	// those the lockfile marks optional (for another platform).
	optional map[string]bool
	locals   []manifest
}

// closureOf walks the dependencies of the workspace's folder app (not its
// devDependencies) through the lockfile, following the links to the
// workspace's own packages and reading their package.json; each of their
// dependencies must be in the lockfile, or the lockfile is not the
// package.json files'. A package's optional and optional peer
// dependencies count where the lockfile has them.
func (l *lockfile) closureOf(root, app string) (*closure, error) {
	if _, ok := l.Packages[app]; !ok {
		return nil, fmt.Errorf("%s has no entry %q: run npm install at the repository root", lockName, app)
	}
	c := &closure{optional: map[string]bool{}}
	seen := map[string]bool{}
	type need struct {
		from, name string
		required   bool
	}
	var queue []need
	addLocal := func(key string) error {
		if seen[key] {
			return nil
		}
		seen[key] = true
		m, err := readManifest(root, key)
		if err != nil {
			return err
		}
		c.locals = append(c.locals, m)
		var missing []string
		for _, name := range slices.Sorted(maps.Keys(m.Dependencies)) {
			if _, ok := l.resolve(key, name); !ok {
				missing = append(missing, name)
			}
			queue = append(queue, need{key, name, true})
		}
		if len(missing) > 0 {
			return fmt.Errorf("%s lacks %s, which %s/package.json depends on: run npm install at the repository root", lockName, strings.Join(missing, ", "), key)
		}
		return nil
	}
	if err := addLocal(app); err != nil {
		return nil, err
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		p, ok := l.resolve(n.from, n.name)
		if !ok {
			if n.required {
				return nil, fmt.Errorf("%s lacks %s, which %s depends on: run npm install at the repository root", lockName, n.name, n.from)
			}
			continue
		}
		if pkg := l.Packages[p]; pkg.Link {
			if err := addLocal(pkg.Resolved); err != nil {
				return nil, err
			}
			continue
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		c.packages = append(c.packages, p)
		pkg := l.Packages[p]
		if pkg.Optional {
			c.optional[p] = true
		}
		for _, name := range slices.Sorted(maps.Keys(pkg.Dependencies)) {
			queue = append(queue, need{p, name, true})
		}
		for _, name := range slices.Sorted(maps.Keys(pkg.OptionalDependencies)) {
			queue = append(queue, need{p, name, false})
		}
		for _, name := range slices.Sorted(maps.Keys(pkg.PeerDependencies)) {
			queue = append(queue, need{p, name, !pkg.PeerDependenciesMeta[name].Optional})
		}
	}
	return c, nil
}

// total counts the packages of the closure, each name and version once
// however many folders npm puts copies of it in.
func (c *closure) total(l *lockfile) int {
	distinct := map[string]bool{}
	for _, p := range c.packages {
		name := p[strings.LastIndex(p, "node_modules/")+len("node_modules/"):]
		distinct[name+"@"+l.Packages[p].Version] = true
	}
	return len(distinct)
}

// version returns the version of the package name that code in the
// folder from finds, when the closure holds it: a framework of the app,
// not one that node_modules holds for another app.
func (c *closure) version(l *lockfile, from, name string) (string, bool) {
	p, ok := l.resolve(from, name)
	if !ok || !slices.Contains(c.packages, p) {
		return "", false
	}
	return l.Packages[p].Version, true
}

// direct counts the distinct packages that the app and its local packages
// depend on, the workspace's own packages excluded.
func (c *closure) direct(l *lockfile) int {
	direct := map[string]bool{}
	for _, m := range c.locals {
		for name := range m.Dependencies {
			if p, _ := l.resolve(m.key, name); !l.Packages[p].Link {
				direct[name] = true
			}
		}
	}
	return len(direct)
}
