package pgtemp

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// FindBinDir locates the folder holding the server binaries initdb and
// postgres: $PG_BIN_DIR if set, else the folder of initdb on PATH, else the
// newest /usr/lib/postgresql/<version>/bin (Debian, Ubuntu) or
// /usr/pgsql-<version>/bin (RHEL), else /usr/local/pgsql/bin (source builds).
func FindBinDir() (string, error) {
	if dir := os.Getenv("PG_BIN_DIR"); dir != "" {
		if !hasServerBinaries(dir) {
			return "", fmt.Errorf("pgtemp: PG_BIN_DIR=%s does not hold the PostgreSQL server binaries initdb and postgres", dir)
		}
		return dir, nil
	}
	if path, err := exec.LookPath("initdb"); err == nil {
		if dir := filepath.Dir(path); hasServerBinaries(dir) {
			return dir, nil
		}
		// initdb may be a lone symlink into the real installation.
		if real, err := filepath.EvalSymlinks(path); err == nil && hasServerBinaries(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
	}
	for _, pattern := range []string{"/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin"} {
		dirs, _ := filepath.Glob(pattern)
		slices.SortFunc(dirs, func(a, b string) int { return compareVersions(versionOf(b), versionOf(a)) })
		for _, dir := range dirs {
			if hasServerBinaries(dir) {
				return dir, nil
			}
		}
	}
	if dir := "/usr/local/pgsql/bin"; hasServerBinaries(dir) {
		return dir, nil
	}
	return "", errors.New("PostgreSQL server binaries (initdb, postgres) not found: install them (Debian/Ubuntu: apt-get install postgresql) or set TEST_DATABASE_URL / DATABASE_URL")
}

func hasServerBinaries(dir string) bool {
	for _, name := range []string{"initdb", "postgres"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// versionOf extracts "15" from /usr/lib/postgresql/15/bin and "9.6" from
// /usr/pgsql-9.6/bin.
func versionOf(binDir string) string {
	v := filepath.Base(filepath.Dir(binDir))
	return strings.TrimPrefix(v, "pgsql-")
}

// compareVersions orders dotted numeric versions ("9.6" < "15").
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}
