package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/apptest"
	"crudbench/db/dbtest"
)

// TestBinary runs the real binary beside the real REST binary, both with
// one AUTH_SECRET, as an operator would: a token from REST's login is
// accepted here, health and reflection answer, the metrics address counts
// the calls, and SIGTERM stops it cleanly.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "grpc")
	restBin := buildREST(t)
	dbURL := dbtest.Seeded(t)
	secret := "AUTH_SECRET=binary-test-secret-0123456789abcdef"
	rest := apptest.Start(t, restBin, apptest.Env("DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0", secret))
	app := apptest.Start(t, bin, apptest.Env("DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0", "METRICS_ADDR=127.0.0.1:0", secret))

	conn, err := grpc.NewClient(strings.TrimPrefix(app.URL, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	token := restLogin(t, rest.URL)
	got, err := crudbenchv1.NewStaffClient(conn).GetPerson(as(t, token), &crudbenchv1.GetPersonRequest{Id: 1})
	if err != nil || got.GetPerson().GetLastName() != "Lovelace" {
		t.Fatalf("GetPerson with REST's token: %v, %v", got.GetPerson(), err)
	}

	res, err := healthpb.NewHealthClient(conn).Check(t.Context(), &healthpb.HealthCheckRequest{})
	if err != nil || res.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v, %v", res, err)
	}
	if services := reflectedServices(t, conn); !slices.Contains(services, "crudbench.v1.Staff") || !slices.Contains(services, "grpc.health.v1.Health") {
		t.Errorf("reflection lists %q", services)
	}
	wantMetric(t, app.MetricsURL, `grpc_server_handling_seconds_count{grpc_code="OK",grpc_method="/crudbench.v1.Staff/GetPerson"} 1`)

	if msgs := app.Stop(t); strings.Join(msgs, ",") != "shutting down,stopped" {
		t.Errorf("log after SIGTERM: %q, want shutting down, stopped", msgs)
	}
	rest.Stop(t)
}

// buildREST compiles the REST app into a temporary folder.
func buildREST(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rest")
	if out, err := exec.Command("go", "build", "-o", bin, "crudbench/apps/rest").CombinedOutput(); err != nil {
		t.Fatalf("go build rest: %v\n%s", err, out)
	}
	return bin
}

// restLogin logs in as editor over the REST app's POST /api/login.
func restLogin(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Post(url+"/api/login", "application/json", strings.NewReader(`{"username":"editor","password":"editor"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Token == "" {
		t.Fatalf("REST login: %d, %v", res.StatusCode, err)
	}
	return body.Token
}

// reflectedServices asks server reflection for the services it lists.
func reflectedServices(t *testing.T, conn *grpc.ClientConn) []string {
	t.Helper()
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	req := &reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}
	if err := stream.Send(req); err != nil {
		t.Fatal(err)
	}
	res, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	stream.CloseSend()
	var names []string
	for _, s := range res.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	return names
}

// wantMetric fails unless the metrics at url hold the sample line want.
func wantMetric(t *testing.T, url, want string) {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if !bytes.Contains(body, []byte(want)) {
		t.Errorf("metrics lack %s", want)
	}
}
