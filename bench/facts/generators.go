package facts

import (
	"os"
	"path/filepath"
	"regexp"
)

// generatorInputs are the names of the files a code generator reads that
// live beside the package it generates (gqlgen's config and schema, templ's
// components): they are the source a team writes in place of the generated
// Go.
var generatorInputs = []string{"*.graphqls", "gqlgen.yml", "gqlgen.yaml", "*.templ"}

// folderInputs returns the generator inputs in the folder dir.
func folderInputs(dir string) []string {
	return matching(dir, generatorInputs...)
}

// matching returns the files of the folder dir whose names match one of
// the patterns (a folder that cannot be read has none). Unlike
// filepath.Glob it takes dir literally, whatever characters it holds.
func matching(dir string, patterns ...string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		for _, pattern := range patterns {
			if ok, _ := filepath.Match(pattern, e.Name()); ok && !e.IsDir() {
				names = append(names, filepath.Join(dir, e.Name()))
				break
			}
		}
	}
	return names
}

// sqlcConfigNames are the names sqlc looks for its config under.
var sqlcConfigNames = []string{"sqlc.yaml", "sqlc.yml", "sqlc.json"}

// sqlcPaths finds the scalar queries: and schema: entries of a sqlc config.
var sqlcPaths = regexp.MustCompile(`(?m)^\s*(?:-\s*)?"?(?:queries|schema)"?\s*:\s*"?([^"\s,#]+)"?,?\s*$`)

// sqlcInputs returns the files sqlc reads to generate a package: its config
// at the module root and the SQL files the config names (a file, or the
// *.sql files of a folder). sqlc keeps them apart from its output, at the
// top of the tree, so they are not found beside the package.
func sqlcInputs(root string) []string {
	for _, name := range sqlcConfigNames {
		config := filepath.Join(root, name)
		content, err := os.ReadFile(config)
		if err != nil {
			continue
		}
		inputs := []string{config}
		for _, m := range sqlcPaths.FindAllSubmatch(content, -1) {
			p := filepath.Join(root, filepath.FromSlash(string(m[1])))
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				inputs = append(inputs, p)
				continue
			}
			inputs = append(inputs, matching(p, "*.sql")...)
		}
		return inputs
	}
	return nil
}
