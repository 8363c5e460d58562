package facts

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// manifest is what counts of a package.json: the runtime dependencies
// (devDependencies are for tests and tools) and where it lies.
type manifest struct {
	dir          string
	Dependencies map[string]string `json:"dependencies"`
}

// local reports whether a dependency's spec names a folder of the tree
// (file:../node-common): the project's own code, not a package.
func local(spec string) (string, bool) {
	return strings.CutPrefix(spec, "file:")
}

// readManifests reads the package.json of the folder dir and of every
// local package it depends on, directly or through another local package:
// dir's first, then in the order found.
func readManifests(dir string) ([]manifest, error) {
	var ms []manifest
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		content, err := os.ReadFile(filepath.Join(d, "package.json"))
		if err != nil {
			return nil, err
		}
		m := manifest{dir: d}
		if err := json.Unmarshal(content, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(d, "package.json"), err)
		}
		ms = append(ms, m)
		for _, name := range slices.Sorted(maps.Keys(m.Dependencies)) {
			if p, ok := local(m.Dependencies[name]); ok {
				queue = append(queue, filepath.Join(d, filepath.FromSlash(p)))
			}
		}
	}
	return ms, nil
}

// lockfile is what counts of a package-lock.json (lockfileVersion 2 or 3):
// its packages by install path ("node_modules/a/node_modules/b").
type lockfile struct {
	LockfileVersion int                    `json:"lockfileVersion"`
	Packages        map[string]lockPackage `json:"packages"`
}

type lockPackage struct {
	Version string `json:"version"`
	// Link marks an entry that is a symbolic link to a local package,
	// whose files are counted as code, not as a package.
	Link bool `json:"link"`
	// Dev marks a package only devDependencies need: a tool of the tests,
	// not a dependency of the app.
	Dev bool `json:"dev"`
}

// readLockfile reads the package-lock.json of the folder dir.
func readLockfile(dir string) (*lockfile, error) {
	name := filepath.Join(dir, "package-lock.json")
	content, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: the dependencies are counted from the lockfile (npm install writes it)", err)
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

// installed returns the package name an install path holds, or false for
// the root entry (""), the folders of local packages ("../node-common")
// and links to them.
func (l *lockfile) installed(path string) (string, bool) {
	i := strings.LastIndex(path, "node_modules/")
	if i < 0 || l.Packages[path].Link {
		return "", false
	}
	return path[i+len("node_modules/"):], true
}

// total counts the packages the lockfile installs for the app, each name
// and version once however many folders npm puts copies of it in.
func (l *lockfile) total() int {
	distinct := map[string]bool{}
	for path, p := range l.Packages {
		if name, ok := l.installed(path); ok && !p.Dev {
			distinct[name+"@"+p.Version] = true
		}
	}
	return len(distinct)
}

// version returns the version of the package name the lockfile installs
// at the top of node_modules, where the app's code finds it.
func (l *lockfile) version(name string) (string, bool) {
	p, ok := l.Packages["node_modules/"+name]
	if !ok || p.Link {
		return "", false
	}
	return p.Version, true
}

// directPackages counts the distinct packages that the app and its local
// packages depend on, local ones excluded; each of the app's own must be
// in its lockfile, or the lockfile is not the package.json's.
func directPackages(ms []manifest, lock *lockfile) (int, error) {
	direct := map[string]bool{}
	var missing []string
	for i, m := range ms {
		for name, spec := range m.Dependencies {
			if _, ok := local(spec); ok {
				continue
			}
			direct[name] = true
			if _, ok := lock.version(name); i == 0 && !ok {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return 0, fmt.Errorf("package-lock.json lacks %s, which package.json depends on: run npm install", strings.Join(missing, ", "))
	}
	return len(direct), nil
}
