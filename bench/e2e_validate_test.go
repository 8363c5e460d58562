package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/bench/amqpwire"
	"crudbench/bench/broker"
	"crudbench/bench/grpcwire"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db/seed"
)

// TestValidateOnly checks conformance as a team attaching its own server
// would: every built-in app (every row of the table, so every row builds
// and starts) attached under another name passes every scenario, and a
// server that answers some requests wrongly is reported with each failure
// naming the request and the difference, and a failing exit status. One
// database and one set of apps serve both runs.
func TestValidateOnly(t *testing.T) {
	dbURL, procs, amqpURL := startAppsOnBroker(t, stack.Builtin)
	env := []string{"DATABASE_URL=" + dbURL}

	t.Run("built-in apps under other names", func(t *testing.T) {
		var attach, want []string
		for _, row := range stack.Builtin {
			name, at := "cand-"+row.Name, procs[row.Name].URL
			if row.Kind == scenario.KindAMQP {
				at = amqpURL // an amqp app is attached by its broker
			}
			attach = append(attach, fmt.Sprintf("%s=%s@%s", name, row.Kind, at))
			want = append(want, fmt.Sprintf("  %s (kind %s): passed read-one, read-small, read-many, read-slim, write, mixed, control\n", name, row.Kind))
		}
		console, err := execBench(t, env, "-validate-only", "-attach", strings.Join(attach, ","), "-out", t.TempDir())
		if err != nil {
			t.Fatalf("bench -validate-only: %v", err)
		}
		for _, line := range append(want, fmt.Sprintf("Every scenario passed on every app (%d checks).", len(scenario.All)*len(stack.Builtin))) {
			if !strings.Contains(console, line) {
				t.Errorf("the console does not say %q", line)
			}
		}
	})

	t.Run("built-in apps against the dataset", func(t *testing.T) {
		// What an app attached alone is compared with: the reference
		// computed from the dataset, no database. The built-in apps pass
		// it in every kind, and their write cycles leave nothing behind.
		ref, err := scenario.ReferenceFromDataset(seed.Generate(seed.DefaultPersons))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		wire := grpcwire.New(1)
		defer wire.Close()
		c := scenario.NewClient(30*time.Second, wire)
		amqp := amqpwire.New(amqpURL, 1)
		defer amqp.Close()
		c.Transport.(*http.Transport).RegisterProtocol(amqpwire.Scheme, amqp)
		for _, row := range stack.Builtin {
			app, err := scenario.NewApp(row.Name, row.Kind, procs[row.Name].URL)
			if err != nil {
				t.Fatal(err)
			}
			s, err := app.Login(ctx, c, "editor", "editor")
			if err != nil {
				t.Fatal(err)
			}
			v := &scenario.Validator{Client: c, Ref: ref, Tag: "crudbench e2e dataset validation"}
			for _, sc := range scenario.All {
				if err := v.Validate(ctx, s, sc); err != nil {
					t.Errorf("%s, %s: %v", row.Name, sc, err)
				}
			}
		}
	})

	t.Run("graphql types against the dataset", func(t *testing.T) {
		// A GraphQL app must write its schema's types: enums in upper
		// case, IDs as strings. Lowering them passed before validation
		// read each kind as its contract writes it.
		ref, err := scenario.ReferenceFromDataset(seed.Generate(seed.DefaultPersons))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		c := scenario.NewClient(30*time.Second, nil)
		for _, tt := range []struct {
			name, from, to, want string
		}{
			{"enums in lower case", `"status":"ACTIVE"`, `"status":"active"`, `read-one.status: "active": a GraphQL enum value is in upper case`},
			{"ids as numbers", `"id":"1",`, `"id":1,`, `read-one.id: 1: a GraphQL ID is written as a string`},
		} {
			t.Run(tt.name, func(t *testing.T) {
				srv := wrongServer(t, procs["graphql"].URL, func(_ *http.Request, reqBody []byte, status int, body []byte) (int, []byte) {
					if bytes.Contains(reqBody, []byte("query PersonDetail")) {
						body = bytes.Replace(body, []byte(tt.from), []byte(tt.to), 1)
					}
					return status, body
				})
				app, err := scenario.NewApp("wrong-graphql", scenario.KindGraphQL, srv.URL)
				if err != nil {
					t.Fatal(err)
				}
				s, err := app.Login(ctx, c, "editor", "editor")
				if err != nil {
					t.Fatal(err)
				}
				v := &scenario.Validator{Client: c, Ref: ref}
				if err := v.Validate(ctx, s, scenario.ReadOne); err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("validation: %v, want %q", err, tt.want)
				}
			})
		}
	})

	t.Run("a wrong server attached alone", func(t *testing.T) {
		// No DATABASE_URL: the runner compares with the dataset, so ids
		// as strings and enums in upper case are found, where comparing
		// the server with its own first answers found nothing.
		srv := wrongServer(t, procs["rest"].URL, func(r *http.Request, _ []byte, status int, body []byte) (int, []byte) {
			switch r.Method + " " + r.URL.Path {
			case "GET /api/persons/1":
				body = bytes.Replace(body, []byte(`"id":1,`), []byte(`"id":"1",`), 1)
			case "GET /api/persons":
				body = bytes.ReplaceAll(body, []byte(`"status":"active"`), []byte(`"status":"ACTIVE"`))
			}
			return status, body
		})
		console, err := execBench(t, nil, "-validate-only", "-attach", "alone=rest@"+srv.URL, "-scenarios", "read-one,read-many")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("bench -validate-only exited with %v, want exit status 1", err)
		}
		for _, line := range []string{
			`    FAILED read-one: GET /api/persons/1: field parity: differs from the dataset: read-one.id: got "1", want 1`,
			`    FAILED read-many: GET /api/persons?limit=1000: field parity: differs from the dataset: read-many[0].status: got "ACTIVE", want "active"`,
		} {
			if !strings.Contains(console, line) {
				t.Errorf("the console does not say %q", line)
			}
		}
	})

	t.Run("a wrong server", func(t *testing.T) {
		out := t.TempDir()
		attach := strings.Join([]string{
			"wrong-rest=rest@" + wrongServer(t, procs["rest"].URL, wrongREST).URL,
			"wrong-graphql=graphql@" + wrongServer(t, procs["graphql"].URL, wrongGraphQL).URL,
			"wrong-site=site@" + wrongServer(t, procs["htmx"].URL, wrongSite).URL,
		}, ",")
		console, err := execBench(t, env, "-validate-only", "-attach", attach, "-out", out)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("bench -validate-only exited with %v, want exit status 1", err)
		}
		for _, line := range []string{
			"  wrong-rest (kind rest): passed read-many, read-slim, write, control\n",
			"    FAILED read-one: GET /api/persons/1: field parity: differs from the database: read-one.email: missing\n",
			"    FAILED read-small: GET /api/vacancies?status=open&limit=100: status 500, want 200: \"{\\\"title\\\":\\\"boom\\\"}\"\n",
			"    FAILED mixed: read-one: GET /api/persons/1: field parity",
			"\n      read-small: GET /api/vacancies?status=open&limit=100: status 500, want 200",
			"  wrong-graphql (kind graphql): passed read-one, read-small, write, control\n",
			"    FAILED read-many: POST /graphql (AllPersons): GraphQL error INTERNAL: boom\n",
			"    FAILED read-slim: POST /graphql (SlimPersons): field parity: differs from the database: read-slim[0].lastName: got \"Wrong",
			"  wrong-site (kind site): passed read-small, read-many, read-slim, write, control\n",
			"    FAILED read-one: GET /persons/1: the showcase page shows 12 appointments, 35 stipends, 24 fundings; want 12, 36, 24\n",
			"bench: validation failed: 8 of 21 checks (scenario × app)",
		} {
			if !strings.Contains(console, line) {
				t.Errorf("the console does not say %q", line)
			}
		}
		if entries, err := os.ReadDir(out); err != nil || len(entries) != 0 {
			t.Errorf("-validate-only in attach mode wrote %v (%v), want nothing", entries, err)
		}
	})
}

// TestValidateOnlyGRPC checks that validation finds a gRPC server's wrong
// answers as it finds an HTTP server's, each failure naming the call and
// what differs in gRPC's terms: a field missing from the person detail, a
// list that fails, an empty date for none, a delete that does not delete,
// a health service that never says the server is ready, a login that
// fails (which fails every scenario but control), and tokens with claims
// of the server's own.
func TestValidateOnlyGRPC(t *testing.T) {
	row, _ := stack.FindBuiltin("grpc")
	dbURL, procs := startApps(t, []stack.App{row})
	target := strings.TrimPrefix(procs["grpc"].URL, "grpc://")

	t.Run("wrong answers", func(t *testing.T) {
		wrong := grpcProxy(t, target, answers(func(method string, out []byte) ([]byte, error) {
			switch method {
			case pb.Staff_GetPerson_FullMethodName:
				var p pb.PersonDetail
				if err := proto.Unmarshal(out, &p); err != nil {
					return nil, err
				}
				p.Person.Email = ""
				return proto.Marshal(&p)
			case pb.Staff_ListVacancies_FullMethodName:
				return nil, status.Error(codes.Internal, "boom")
			}
			return out, nil
		}))
		sloppy := grpcProxy(t, target, func(method string, md metadata.MD, in []byte, forward func() ([]byte, error)) ([]byte, error) {
			if method == pb.Staff_DeleteVacancy_FullMethodName {
				return proto.Marshal(&pb.DeleteVacancyResponse{})
			}
			out, err := forward()
			if err != nil || method != pb.Staff_GetPerson_FullMethodName {
				return out, err
			}
			var p pb.PersonDetail
			if err := proto.Unmarshal(out, &p); err != nil {
				return nil, err
			}
			for _, a := range p.Appointments {
				if a.EndsOn == nil {
					a.EndsOn = proto.String("")
				}
			}
			return proto.Marshal(&p)
		})
		unready := grpcProxy(t, target, func(method string, md metadata.MD, in []byte, forward func() ([]byte, error)) ([]byte, error) {
			var req healthpb.HealthCheckRequest
			if method == "/grpc.health.v1.Health/Check" && proto.Unmarshal(in, &req) == nil && req.Service == "crudbench.v1.Staff" {
				return proto.Marshal(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
			}
			return forward()
		})
		noLogin := grpcProxy(t, target, func(method string, md metadata.MD, in []byte, forward func() ([]byte, error)) ([]byte, error) {
			if method == pb.Staff_Login_FullMethodName {
				return nil, status.Error(codes.Internal, "boom")
			}
			return forward()
		})
		attach := strings.Join([]string{"wrong-grpc=grpc@" + wrong, "sloppy-grpc=grpc@" + sloppy, "unready-grpc=grpc@" + unready, "nologin-grpc=grpc@" + noLogin}, ",")
		console, err := execBench(t, []string{"DATABASE_URL=" + dbURL}, "-validate-only", "-attach", attach, "-scenarios", "read-one,read-small,read-many,write,control")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("bench -validate-only exited with %v, want exit status 1", err)
		}
		for _, line := range []string{
			"  wrong-grpc (kind grpc): passed read-many, write, control\n",
			"    FAILED read-one: POST /crudbench.v1.Staff/GetPerson: field parity: differs from the database: read-one.email: got \"\", want \"",
			"    FAILED read-small: POST /crudbench.v1.Staff/ListVacancies: status 500 (gRPC INTERNAL: boom), want 200 (gRPC OK)\n",
			"  sloppy-grpc (kind grpc): passed read-small, read-many, control\n",
			"    FAILED read-one: POST /crudbench.v1.Staff/GetPerson: field parity: differs from the database: read-one.appointments[11].endsOn: got \"\", want null\n",
			"    FAILED write: after delete: POST /crudbench.v1.Staff/GetVacancy: vacancy ",
			" still readable after delete: gRPC OK, want NOT_FOUND: \"id:",
			"the write cycle changed the number of vacancies from 120 to 121",
			"  unready-grpc (kind grpc): passed control\n",
			"    FAILED read-one: readiness, POST /grpc.health.v1.Health/Check {service: \"crudbench.v1.Staff\"}: health NOT_SERVING, want SERVING: the database answers\n",
			"    FAILED write: readiness, POST /grpc.health.v1.Health/Check {service: \"crudbench.v1.Staff\"}: health NOT_SERVING",
			"  nologin-grpc (kind grpc): passed control\n",
			"    FAILED read-one: nologin-grpc: log in as editor: POST /crudbench.v1.Staff/Login: status 500 (gRPC INTERNAL: boom), want 200 (gRPC OK)\n",
		} {
			if !strings.Contains(console, line) {
				t.Errorf("the console does not say %q", line)
			}
		}
		if t.Failed() {
			t.Logf("console:\n%s", console)
		}
	})

	t.Run("token interchange", func(t *testing.T) {
		ctx := context.Background()
		wire := grpcwire.New(1)
		defer wire.Close()
		c := scenario.NewClient(30*time.Second, wire)
		ref, err := scenario.ReferenceFromDataset(seed.Generate(seed.DefaultPersons))
		if err != nil {
			t.Fatal(err)
		}
		v := &scenario.Validator{Client: c, Ref: ref}
		login := func(name, url string) *scenario.Session {
			t.Helper()
			app, err := scenario.NewApp(name, scenario.KindGRPC, url)
			if err != nil {
				t.Fatal(err)
			}
			s, err := app.Login(ctx, c, "editor", "editor")
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		builtin := login("grpc", procs["grpc"].URL)
		same := login("same", "grpc://"+grpcProxy(t, target, answers(func(_ string, out []byte) ([]byte, error) { return out, nil })))
		if err := v.Interchange(ctx, same, builtin); err != nil {
			t.Errorf("a server that passes the built-in app's tokens through: %v", err)
		}
		own := login("own-claims", "grpc://"+ownTokens(t, target))
		err = v.Interchange(ctx, own, builtin)
		for _, want := range []string{
			"token interchange: a token issued by own-claims is refused by grpc: POST /crudbench.v1.Staff/ListVacancies: status 401 (gRPC UNAUTHENTICATED",
			"token interchange: a token issued by grpc is refused by own-claims: POST /crudbench.v1.Staff/ListVacancies: status 401 (gRPC UNAUTHENTICATED: not a token of own-claims), want 200 (gRPC OK)",
		} {
			if !strings.Contains(errorText(err), want) {
				t.Errorf("interchange: %v, want %q", err, want)
			}
		}
	})
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ownTokens is a gRPC server that serves every call as the server at
// target does, but issues tokens of its own, signed with the apps' secret
// but with claims the Go apps do not read (user for sub and name, no iss
// or iat), and accepts only those: a server written from a contract that
// did not name the claims. It returns its host:port.
func ownTokens(t *testing.T, target string) string {
	t.Helper()
	var mu sync.Mutex
	issued := map[string]string{} // its token → the built-in app's
	return grpcProxy(t, target, func(method string, md metadata.MD, in []byte, forward func() ([]byte, error)) ([]byte, error) {
		if method != pb.Staff_Login_FullMethodName {
			mu.Lock()
			real, ok := issued[strings.TrimPrefix(strings.Join(md.Get("authorization"), ""), "Bearer ")]
			mu.Unlock()
			if !ok {
				return nil, status.Error(codes.Unauthenticated, "not a token of own-claims")
			}
			md.Set("authorization", "Bearer "+real)
			return forward()
		}
		out, err := forward()
		if err != nil {
			return nil, err
		}
		var resp pb.LoginResponse
		if err := proto.Unmarshal(out, &resp); err != nil {
			return nil, err
		}
		own, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
			"user": "editor", "role": "editor", "exp": time.Now().Add(time.Hour).Unix(),
		}).SignedString([]byte(e2eSecret))
		if err != nil {
			return nil, err
		}
		mu.Lock()
		issued[own] = resp.Token
		mu.Unlock()
		resp.Token = own
		return proto.Marshal(&resp)
	})
}

// rawCodec carries a gRPC proxy's messages as the bytes they are.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	if b, ok := v.([]byte); ok {
		return b, nil
	}
	return *(v.(*[]byte)), nil
}
func (rawCodec) Unmarshal(data []byte, v any) error { *(v.(*[]byte)) = bytes.Clone(data); return nil }
func (rawCodec) Name() string                       { return "proto" }

// grpcFlaw answers a call of a gRPC proxy: the call's method, metadata
// and request message, and forward, which makes the call on the server
// behind the proxy with that metadata (changed, if the flaw changed it)
// and returns its answer. A flaw may answer without forwarding.
type grpcFlaw func(method string, md metadata.MD, in []byte, forward func() ([]byte, error)) ([]byte, error)

// answers is the flaw that forwards every call and changes its answer by
// wrong (or fails the call).
func answers(wrong func(method string, out []byte) ([]byte, error)) grpcFlaw {
	return func(method string, _ metadata.MD, _ []byte, forward func() ([]byte, error)) ([]byte, error) {
		out, err := forward()
		if err != nil {
			return nil, err
		}
		return wrong(method, out)
	}
}

// grpcProxy serves every call as the gRPC server at target does, metadata
// included, except where wrong answers otherwise: a gRPC server that gets
// some things wrong. It returns its host:port.
func grpcProxy(t *testing.T, target string, wrong grpcFlaw) string {
	t.Helper()
	cc, err := grpc.NewClient("passthrough:///"+target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(stream)
		var in []byte
		if err := stream.RecvMsg(&in); err != nil {
			return err
		}
		md, _ := metadata.FromIncomingContext(stream.Context())
		md = md.Copy()
		forward := func() ([]byte, error) {
			var out []byte
			err := cc.Invoke(metadata.NewOutgoingContext(stream.Context(), md), method, in, &out, grpc.ForceCodec(rawCodec{}))
			return out, err
		}
		out, err := wrong(method, md, in, forward)
		if err != nil {
			return err
		}
		return stream.SendMsg(&out)
	}))
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	return ln.Addr().String()
}

// startApps starts a database with the dataset and the apps of rows on
// it, each built from its row of the table, as a user would by hand. It
// returns the database's URL and the apps by name; rows that share a
// process (stack.App.Shares) are one process, started once, under each
// row's name.
func startApps(t *testing.T, rows []stack.App) (string, map[string]*stack.Process) {
	t.Helper()
	dbURL, procs, _ := startAppsOnBroker(t, rows)
	return dbURL, procs
}

// startAppsOnBroker is startApps that also starts a throwaway RabbitMQ
// when rows hold an amqp app, which consumes from it, and returns its URL
// (empty without one): an amqp app is reached, and attached, by it.
func startAppsOnBroker(t *testing.T, rows []stack.App) (string, map[string]*stack.Process, string) {
	t.Helper()
	dbURL, bin := startDatabase(t), buildApps(t, rows)
	var amqpURL string
	if slices.ContainsFunc(rows, func(a stack.App) bool { return a.Kind == scenario.KindAMQP }) {
		requireBroker(t)
		node, err := broker.Start(context.Background(), broker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Stop() })
		amqpURL = node.URL()
	}
	procs := map[string]*stack.Process{}
	started := map[string]*stack.Process{}
	for _, row := range rows {
		p, ok := started[row.Process()]
		if !ok {
			p = startAppOn(t, row, bin, dbURL, amqpURL)
			started[row.Process()] = p
		}
		procs[row.Name] = p
	}
	return dbURL, procs, amqpURL
}

// startDatabase starts a database with the dataset and returns its URL.
func startDatabase(t *testing.T) string {
	t.Helper()
	d, err := stack.StartDatabase(context.Background(), seed.Config{ViewerPassword: "viewer", EditorPassword: "editor"}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Stop() })
	return d.URL
}

// buildApps builds the apps of rows into a folder it returns.
func buildApps(t *testing.T, rows []stack.App) string {
	t.Helper()
	ctx := context.Background()
	root, err := stack.ModuleRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := stack.Build(ctx, root, bin, rows, io.Discard); err != nil {
		t.Fatal(err)
	}
	return bin
}

// e2eSecret is the AUTH_SECRET of every app startApp starts.
const e2eSecret = "e2e-test-secret-0123456789"

// startApp starts a process of the app of row, built into bin, on the
// database at dbURL; every process of every app shares one secret, so a
// token one issues the others accept.
func startApp(t *testing.T, row stack.App, bin, dbURL string) *stack.Process {
	t.Helper()
	return startAppOn(t, row, bin, dbURL, "")
}

// startAppOn is startApp for an app that may be of kind amqp, consuming
// from the broker at amqpURL.
func startAppOn(t *testing.T, row stack.App, bin, dbURL, amqpURL string) *stack.Process {
	t.Helper()
	p, err := stack.StartApp(context.Background(), row, filepath.Join(bin, row.Name), stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 5, AuthSecret: e2eSecret, Log: io.Discard, AMQPURL: amqpURL,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop() })
	return p
}

// rewrite changes an answer of the app: the request it answered (and its
// body), and the answer's status and body.
type rewrite func(r *http.Request, reqBody []byte, status int, body []byte) (int, []byte)

// wrongServer answers every request as the app at target does, except
// where wrong rewrites the answer: a server that gets some things wrong.
func wrongServer(t *testing.T, target string, wrong rewrite) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqBody, _ := io.ReadAll(r.Body)
		out, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(reqBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		status, body := wrong(r, reqBody, resp.StatusCode, body)
		for k, v := range resp.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

// wrongREST fails the open vacancies with a 500 and leaves the e-mail
// address out of the showcase person.
func wrongREST(r *http.Request, _ []byte, status int, body []byte) (int, []byte) {
	switch r.Method + " " + r.URL.Path {
	case "GET /api/vacancies":
		return http.StatusInternalServerError, []byte(`{"title":"boom"}`)
	case "GET /api/persons/1":
		var person map[string]any
		if json.Unmarshal(body, &person) != nil {
			return http.StatusBadGateway, nil
		}
		delete(person, "email")
		body, _ = json.Marshal(person)
	}
	return status, body
}

// wrongGraphQL answers the list of all persons with an errors payload,
// and the slim list with the first person's last name changed.
func wrongGraphQL(_ *http.Request, reqBody []byte, status int, body []byte) (int, []byte) {
	switch {
	case bytes.Contains(reqBody, []byte("query AllPersons")):
		return http.StatusOK, []byte(`{"errors":[{"message":"boom","extensions":{"code":"INTERNAL"}}],"data":null}`)
	case bytes.Contains(reqBody, []byte("query SlimPersons")):
		body = bytes.Replace(body, []byte(`"lastName":"`), []byte(`"lastName":"Wrong`), 1)
	}
	return status, body
}

// wrongSite shows one stipend of the showcase person without its marker.
func wrongSite(r *http.Request, _ []byte, status int, body []byte) (int, []byte) {
	if r.URL.Path == "/persons/1" {
		body = bytes.Replace(body, []byte(`class="stipend"`), []byte(`class="stipend-unmarked"`), 1)
	}
	return status, body
}
