package scenario

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/amqpwire"
	"crudbench/bench/grpcwire"
)

// App is one app under test, reached at BaseURL: a named implementation
// of a kind. The kind decides every request and check; the name only
// labels it.
type App struct {
	Name    string // e.g. rest, graphql-tuned, candidate
	Kind    Kind
	BaseURL string // scheme and host, no trailing slash
	d       dialect
}

// NewApp returns the app called name, of kind kind, at baseURL.
func NewApp(name string, kind Kind, baseURL string) (*App, error) {
	d := dialectOf(kind)
	if d == nil {
		_, err := ParseKind(string(kind))
		return nil, fmt.Errorf("app %s: %w", name, err)
	}
	u, err := url.Parse(baseURL)
	switch {
	case kind == KindGRPC:
		if err != nil || u.Scheme != grpcwire.Scheme || u.Host == "" || strings.Trim(u.Path, "/") != "" {
			return nil, fmt.Errorf("app %s: base URL %q is not a grpc://host:port address", name, baseURL)
		}
	case kind == KindAMQP:
		if err != nil || u.Scheme != amqpwire.Scheme || u.Host == "" || strings.Trim(u.Path, "/") != "" {
			return nil, fmt.Errorf("app %s: base URL %q is not an amqprpc://queue address", name, baseURL)
		}
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return nil, fmt.Errorf("app %s: base URL %q is not an http(s) URL", name, baseURL)
	}
	return &App{Name: name, Kind: kind, BaseURL: strings.TrimRight(baseURL, "/"), d: d}, nil
}

// Session is an App logged in as one user: Header goes on every request.
type Session struct {
	App    *App
	Header http.Header
}

// Login logs in to the app in its own idiom (REST token, GraphQL login
// mutation, the site's cookie) and returns the session.
func (a *App) Login(ctx context.Context, c *http.Client, user, password string) (*Session, error) {
	t := a.d.login(a.BaseURL, user, password)
	r, err := Do(ctx, c, t)
	if err == nil {
		var h http.Header
		if h, err = a.d.session(r); err == nil {
			return &Session{App: a, Header: h}, nil
		}
	}
	return nil, fmt.Errorf("%s: log in as %s: %s: %w", a.Name, user, RequestLabel(t), err)
}

// Target returns the request of a read operation (or control).
func (s *Session) Target(op Op) vegeta.Target {
	return s.withAuth(s.App.d.read(s.App.BaseURL, op), op, 0)
}

// Create returns the request that creates a vacancy.
func (s *Session) Create(v VacancyData) vegeta.Target {
	return s.withAuth(s.App.d.create(s.App.BaseURL, v), OpCreate, 0)
}

// Update returns the request that changes vacancy id, read at version.
func (s *Session) Update(id int64, version int32, v VacancyData) vegeta.Target {
	return s.withAuth(s.App.d.update(s.App.BaseURL, id, version, v), OpUpdate, id)
}

// Delete returns the request that removes vacancy id.
func (s *Session) Delete(id int64) vegeta.Target {
	return s.withAuth(s.App.d.delete(s.App.BaseURL, id), OpDelete, id)
}

// withAuth adds the session header and labels the target's URL with its
// operation in the fragment. A fragment never leaves the client, but vegeta
// copies the URL into each Result: that is how a response is matched to
// the operation (and row) it answers, even for GraphQL where every request
// goes to the same address.
func (s *Session) withAuth(t vegeta.Target, op Op, id int64) vegeta.Target {
	h := t.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	for k, v := range s.Header {
		h[k] = v
	}
	t.Header = h
	t.URL += "#" + string(op)
	if id != 0 {
		t.URL += "-" + strconv.FormatInt(id, 10)
	}
	return t
}

// OpOf returns the operation and row id a result answers, from the label
// withAuth put in its URL.
func OpOf(r *vegeta.Result) (Op, int64) {
	_, frag, ok := strings.Cut(r.URL, "#")
	if !ok {
		return "", 0
	}
	name, num, _ := strings.Cut(frag, "-")
	switch Op(name) {
	case OpCreate, OpUpdate, OpDelete:
		id, _ := strconv.ParseInt(num, 10, 64)
		return Op(name), id
	}
	return Op(frag), 0
}

// Check says whether r is the right kind of answer to its operation: the
// expected status and media type, and no GraphQL errors. Under load it is
// the only check a response gets.
func (a *App) Check(r *vegeta.Result) error {
	op, _ := OpOf(r)
	if op == "" {
		return fmt.Errorf("result of %s has no operation label", r.URL)
	}
	if r.Error != "" && r.Code == 0 {
		return fmt.Errorf("%s", r.Error)
	}
	return a.d.check(op, r)
}

// Do sends t outside an attack and returns what vegeta would have
// recorded: status, headers and body. Redirects are not followed, as under
// load.
func Do(ctx context.Context, c *http.Client, t vegeta.Target) (*vegeta.Result, error) {
	req, err := t.Request()
	if err != nil {
		return nil, err
	}
	req = req.WithContext(ctx)
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &vegeta.Result{
		Code:      uint16(resp.StatusCode),
		Timestamp: start,
		Latency:   time.Since(start),
		BytesIn:   uint64(len(body)),
		Body:      body,
		Method:    t.Method,
		URL:       t.URL,
		Headers:   resp.Header,
	}, nil
}

// NewClient returns the HTTP client the bench uses outside attacks: it
// does not follow redirects (a site's 303 is the answer being checked).
// Requests to grpc:// addresses (the grpc kind's) go through grpc, when
// given: a grpcwire.Transport, which the caller closes.
func NewClient(timeout time.Duration, grpc http.RoundTripper) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if grpc != nil {
		tr.RegisterProtocol(grpcwire.Scheme, grpc)
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
