package cpuprof

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// fetchGrace is what a profile request may take beyond its profiling time:
// the app writes and compresses the profile after the last second.
const fetchGrace = 10 * time.Second

// Fetch takes a CPU profile of d (whole seconds, at least one) from the
// pprof endpoint under debugURL (e.g. http://127.0.0.1:6060) and returns
// it as served: pprof's gzipped protobuf.
//
// The request lasts as long as the profile, so a client timeout shorter
// than d plus fetchGrace is lengthened for this request (on a copy of
// client; nil means http.DefaultClient). ctx still ends it early. A
// response other than 200 is an error naming the status and the first
// line of the body, where pprof says what was wrong.
func Fetch(ctx context.Context, client *http.Client, debugURL string, d time.Duration) ([]byte, error) {
	return fetch(ctx, client, debugURL, "/debug/pprof/profile", d)
}

// FetchV8 takes a CPU profile of d from a Node app's debug server under
// debugURL (its DEBUG_ADDR: /debug/v8/profile, V8's profile of its main
// thread) as Fetch does from a Go app's, and returns it converted by FromV8:
// a pprof profile that Analyze reads, with what V8's profile does not see
// (FromV8).
func FetchV8(ctx context.Context, client *http.Client, debugURL string, d time.Duration) ([]byte, error) {
	data, err := fetch(ctx, client, debugURL, "/debug/v8/profile", d)
	if err != nil {
		return nil, err
	}
	return FromV8(data)
}

// fetch asks for a profile of d at path under debugURL: see Fetch.
func fetch(ctx context.Context, client *http.Client, debugURL, path string, d time.Duration) ([]byte, error) {
	seconds := max(int64(d/time.Second), 1)
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	if need := time.Duration(seconds)*time.Second + fetchGrace; c.Timeout > 0 && c.Timeout < need {
		c.Timeout = need
	}
	url := strings.TrimSuffix(debugURL, "/") + path + "?seconds=" + strconv.FormatInt(seconds, 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("cpuprof: %w", err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cpuprof: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		line, _ := bufio.NewReader(io.LimitReader(resp.Body, 1024)).ReadString('\n')
		return nil, fmt.Errorf("cpuprof: GET %s: %s: %s", url, resp.Status, strings.TrimSpace(line))
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("cpuprof: read the profile from %s: %w", url, err)
	}
	return data, nil
}
