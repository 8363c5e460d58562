package facts

import (
	"os"
	"path/filepath"
	"regexp"
)

// generatorInputs are the names of the files a code generator reads that
// live beside the package it generates (gqlgen's config and schema): they
// are the source a team writes in place of the generated Go.
var generatorInputs = []string{"*.graphqls", "gqlgen.yml", "gqlgen.yaml"}

// folderInputs returns the generator inputs in the folder dir.
func folderInputs(dir string) []string {
	var names []string
	for _, pattern := range generatorInputs {
		found, _ := filepath.Glob(filepath.Join(dir, pattern)) // the patterns are well-formed
		names = append(names, found...)
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
			found, _ := filepath.Glob(filepath.Join(p, "*.sql"))
			inputs = append(inputs, found...)
		}
		return inputs
	}
	return nil
}
