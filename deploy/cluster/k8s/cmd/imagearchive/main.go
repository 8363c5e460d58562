// Command imagearchive writes an OCI image archive, as `ctr images import`
// reads it, of one image whose only file is a static binary that is also its
// entrypoint: how cluster.sh makes the pause image without a registry.
//
//	imagearchive -name registry.k8s.io/pause:3.10.1 -binary pause -o pause.tar
package main

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "imagearchive:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("imagearchive", flag.ContinueOnError)
	name := flags.String("name", "", "the image's full name, registry/repository:tag")
	binary := flags.String("binary", "", "the static binary to put at the root and run")
	out := flags.String("o", "", "the archive to write")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *name == "" || *binary == "" || *out == "" {
		return fmt.Errorf("-name, -binary and -o are all needed")
	}
	tag := (*name)[strings.LastIndex(*name, ":")+1:]
	if tag == *name || strings.Contains(tag, "/") {
		return fmt.Errorf("name %q has no tag", *name)
	}
	exe, err := os.ReadFile(*binary)
	if err != nil {
		return err
	}
	entry := "/" + path.Base(*binary)

	layer, err := tarOf(map[string][]byte{entry[1:]: exe}, 0o755)
	if err != nil {
		return err
	}
	config, err := json.Marshal(map[string]any{
		"architecture": "amd64",
		"os":           "linux",
		"config":       map[string]any{"Entrypoint": []string{entry}},
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{digest(layer)}},
	})
	if err != nil {
		return err
	}
	manifest, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        descriptor("application/vnd.oci.image.config.v1+json", config),
		"layers":        []any{descriptor("application/vnd.oci.image.layer.v1.tar", layer)},
	})
	if err != nil {
		return err
	}
	top := descriptor("application/vnd.oci.image.manifest.v1+json", manifest)
	top["platform"] = map[string]string{"architecture": "amd64", "os": "linux"}
	top["annotations"] = map[string]string{
		"io.containerd.image.name":          *name,
		"org.opencontainers.image.ref.name": tag,
	}
	index, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.index.v1+json",
		"manifests":     []any{top},
	})
	if err != nil {
		return err
	}

	files := map[string][]byte{
		"oci-layout": []byte(`{"imageLayoutVersion":"1.0.0"}`),
		"index.json": index,
	}
	for _, blob := range [][]byte{layer, config, manifest} {
		files["blobs/sha256/"+strings.TrimPrefix(digest(blob), "sha256:")] = blob
	}
	archive, err := tarOf(files, 0o644)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, archive, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", *out, *name)
	return nil
}

// tarOf returns a tar of files, in a fixed order and with fixed times so the
// same input always gives the same digests.
func tarOf(files map[string][]byte, mode int64) ([]byte, error) {
	var names []string
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	for _, name := range names {
		for dir := path.Dir(name); dir != "." && !dirs[dir]; dir = path.Dir(dir) {
			dirs[dir] = true
		}
	}
	var dirNames []string
	for dir := range dirs {
		dirNames = append(dirNames, dir)
	}
	slices.Sort(dirNames)
	for _, dir := range dirNames {
		if err := w.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: time.Unix(0, 0)}); err != nil {
			return nil, err
		}
	}
	for _, name := range names {
		if err := w.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(files[name])), ModTime: time.Unix(0, 0)}); err != nil {
			return nil, err
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func digest(b []byte) string {
	return fmt.Sprintf("sha256:%x", sha256.Sum256(b))
}

func descriptor(mediaType string, blob []byte) map[string]any {
	return map[string]any{"mediaType": mediaType, "digest": digest(blob), "size": len(blob)}
}
