package merge

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
)

// replay reads the raw files of one run from every shard into w, the
// window of the whole run, and returns their results ordered by sequence
// number. A shard's raw file numbers its requests within the whole window
// (from 0, as one runner would), so the files together are that window:
// a number given twice or outside it means the files are not of one run.
func replay(files []string, w *load.Window) ([]vegeta.Result, error) {
	var all []vegeta.Result
	seen := make(map[uint64]string, w.Count)
	for _, path := range files {
		rs, err := readRaw(path)
		if err != nil {
			return nil, err
		}
		for i := range rs {
			r := &rs[i]
			if r.Seq >= w.Count {
				return nil, fmt.Errorf("%s: request %d is outside the window of %d requests: the raw file is not of this run", path, r.Seq, w.Count)
			}
			if other, dup := seen[r.Seq]; dup {
				return nil, fmt.Errorf("%s and %s both hold request %d of the window: each request belongs to one shard", other, path, r.Seq)
			}
			seen[r.Seq] = path
			r.Seq += w.First
			w.Add(r)
			r.Seq -= w.First
		}
		all = append(all, rs...)
	}
	slices.SortFunc(all, func(a, b vegeta.Result) int { return cmp.Compare(a.Seq, b.Seq) })
	return all, nil
}

// readRaw decodes a raw file of vegeta results.
func readRaw(path string) ([]vegeta.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := vegeta.NewDecoder(bufio.NewReader(f))
	var rs []vegeta.Result
	for {
		var r vegeta.Result
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			return rs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not a raw file of vegeta results: %w", path, err)
		}
		rs = append(rs, r)
	}
}

// writeRaw writes rs in vegeta's binary encoding to path, creating its
// folder, so that vegeta report and vegeta plot read the merged window as
// they read one runner's.
func writeRaw(path string, rs []vegeta.Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	enc := vegeta.NewEncoder(w)
	for i := range rs {
		if err := enc.Encode(&rs[i]); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
