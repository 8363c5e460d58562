package resources_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"crudbench/resources"
)

// TestVendoredChecksums checks every file listed in static/VENDORED.md
// against the SHA-256 recorded there, so a changed or swapped copy of htmx
// cannot slip in unnoticed.
func TestVendoredChecksums(t *testing.T) {
	doc, err := fs.ReadFile(resources.Static, "static/VENDORED.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|.*\\| `([0-9a-f]{64})` \\|$").FindAllStringSubmatch(string(doc), -1)
	if len(rows) == 0 {
		t.Fatal("VENDORED.md lists no file with a sha256")
	}
	for _, row := range rows {
		b, err := fs.ReadFile(resources.Static, "static/"+row[1])
		if err != nil {
			t.Errorf("%s: %v", row[1], err)
			continue
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != row[2] {
			t.Errorf("%s: sha256 %s, VENDORED.md records %s", row[1], got, row[2])
		}
	}
}

// TestNothingFromOtherHosts checks that no template or stylesheet refers to
// another host: the site must work offline.
func TestNothingFromOtherHosts(t *testing.T) {
	for _, fsys := range []fs.FS{resources.Templates, resources.Static} {
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".css")) {
				return err
			}
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).Find(b); m != nil {
				t.Errorf("%s refers to another host: %s", name, m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
