package merge

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"crudbench/bench/results"
)

// copyShardFiles copies the files of r that shard 0 alone wrote from its
// folder src into dst, under the same names: the app's samples (and its
// replicas'), the PostgreSQL samples beside them, and the CPU profile. A
// file shard 0 did not write (an app it could not see) is not there to
// copy.
func copyShardFiles(src, dst string, r results.Result) error {
	for _, name := range r.Files() {
		err := copyFile(filepath.Join(src, filepath.FromSlash(name)), filepath.Join(dst, filepath.FromSlash(name)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// copyFile copies src to dst, creating dst's folder.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
