package scenario_test

import (
	"net/http"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"

	"crudbench/bench/scenario"
)

// TestGRPCCheck checks the cheap check every grpc answer gets under load:
// the status grpcwire mapped, a gRPC content type and, for control, a
// health service that says SERVING.
func TestGRPCCheck(t *testing.T) {
	app, err := scenario.NewApp("g", scenario.KindGRPC, "grpc://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	serving, _ := proto.Marshal(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING})
	notServing, _ := proto.Marshal(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
	grpcHeader := func(status, msg string) http.Header {
		h := http.Header{"Content-Type": {"application/grpc+proto"}, "Grpc-Status": {status}}
		if msg != "" {
			h.Set("Grpc-Message", msg)
		}
		return h
	}
	for _, tt := range []struct {
		name string
		r    vegeta.Result
		want string
	}{
		{"ok", vegeta.Result{URL: "grpc://h/crudbench.v1.Staff/GetPerson#read-one", Code: 200, Headers: grpcHeader("0", "")}, ""},
		{"not found", vegeta.Result{URL: "grpc://h/crudbench.v1.Staff/GetPerson#read-one", Code: 404, Headers: grpcHeader("5", "person 1 not found")},
			"status 404 (gRPC NOT_FOUND: person 1 not found), want 200 (gRPC OK)"},
		{"not gRPC", vegeta.Result{URL: "grpc://h/crudbench.v1.Staff/GetPerson#read-one", Code: 200, Headers: http.Header{"Content-Type": {"application/json"}}},
			`content type "application/json", want application/grpc+proto`},
		{"serving", vegeta.Result{URL: "grpc://h/grpc.health.v1.Health/Check#control", Code: 200, Body: serving, Headers: grpcHeader("0", "")}, ""},
		{"not serving", vegeta.Result{URL: "grpc://h/grpc.health.v1.Health/Check#control", Code: 200, Body: notServing, Headers: grpcHeader("0", "")},
			"health NOT_SERVING, want SERVING"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := app.Check(&tt.r)
			if got := errorText(err); got != tt.want {
				t.Errorf("check: %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGRPCAddress checks that a grpc app is reached at grpc://host:port
// and nothing else.
func TestGRPCAddress(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1", "grpc://", "grpc://h:1/api"} {
		if _, err := scenario.NewApp("g", scenario.KindGRPC, u); err == nil {
			t.Errorf("%s: accepted as a grpc app's address", u)
		}
	}
	if _, err := scenario.NewApp("r", scenario.KindREST, "grpc://h:1"); err == nil {
		t.Error("grpc://h:1 accepted as a rest app's address")
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
