package scenario

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	pb "crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/bench/grpcwire"
	"crudbench/db/seed"
)

// grpcDialect drives the gRPC app: every operation is a unary call of
// crudbench.v1.Staff, written as a request the grpcwire transport carries
// (POST grpc://host:port/crudbench.v1.Staff/Method, the request message as
// the body, the bearer token as the authorization metadata) and answered
// with the response message's bytes and the HTTP equivalent of the status.
type grpcDialect struct{}

// healthCheck is the control scenario's call: the standard health service,
// service "" (the server as a whole, answered without the database: the
// grpc kind's /healthz), the one call every gRPC server may serve.
const healthCheck = "/grpc.health.v1.Health/Check"

// slimMask is read-slim's field mask: what a picker needs of each person,
// asked for with the service's standard google.protobuf.FieldMask, as a
// gRPC client that needs less would.
var slimMask = &fieldmaskpb.FieldMask{Paths: []string{"id", "first_name", "last_name"}}

// grpcCall returns the target of a call of method (its full name,
// "/pkg.Service/Method") with request message m.
func grpcCall(base, method string, m proto.Message) vegeta.Target {
	body, _ := proto.Marshal(m)
	return vegeta.Target{Method: http.MethodPost, URL: base + method, Body: body, Header: http.Header{"Content-Type": {grpcwire.ContentType}}}
}

func (grpcDialect) login(base, user, password string) vegeta.Target {
	return grpcCall(base, pb.Staff_Login_FullMethodName, &pb.LoginRequest{Username: user, Password: password})
}

func (grpcDialect) session(r *vegeta.Result) (http.Header, error) {
	if err := checkGRPC(r); err != nil {
		return nil, err
	}
	var out pb.LoginResponse
	if err := proto.Unmarshal(r.Body, &out); err != nil || out.Token == "" {
		return nil, fmt.Errorf("no token in the answer (%d bytes)", len(r.Body))
	}
	return http.Header{"Authorization": {"Bearer " + out.Token}}, nil
}

func (grpcDialect) read(base string, op Op) vegeta.Target {
	switch op {
	case OpReadOne:
		return grpcCall(base, pb.Staff_GetPerson_FullMethodName, &pb.GetPersonRequest{Id: seed.ShowcaseID})
	case OpReadSmall:
		return grpcCall(base, pb.Staff_ListVacancies_FullMethodName, &pb.ListVacanciesRequest{Status: pb.VacancyStatus_VACANCY_STATUS_OPEN, PageSize: ReadSmallLimit})
	case OpReadMany:
		return grpcCall(base, pb.Staff_ListPersons_FullMethodName, &pb.ListPersonsRequest{PageSize: ReadManyLimit})
	case OpReadSlim:
		return grpcCall(base, pb.Staff_ListPersons_FullMethodName, &pb.ListPersonsRequest{PageSize: ReadSlimLimit, ReadMask: slimMask})
	case OpControl:
		return grpcCall(base, healthCheck, &healthpb.HealthCheckRequest{})
	}
	return vegeta.Target{}
}

func (grpcDialect) create(base string, v VacancyData) vegeta.Target {
	return grpcCall(base, pb.Staff_CreateVacancy_FullMethodName, &pb.CreateVacancyRequest{Vacancy: &pb.Vacancy{
		Title: v.Title, Department: v.Department, Location: v.Location,
		EmploymentType: pb.EmploymentType_EMPLOYMENT_TYPE_FULL_TIME,
		SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents,
		Status: pb.VacancyStatus_VACANCY_STATUS_DRAFT, OpensOn: OpensOn, Description: v.Description,
	}})
}

func (grpcDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	return grpcCall(base, pb.Staff_UpdateVacancy_FullMethodName, &pb.UpdateVacancyRequest{
		Id: id, Version: version,
		Title: &v.Title, SalaryMaxCents: &v.SalaryMaxCents, Description: &v.Description,
	})
}

func (grpcDialect) delete(base string, id int64) vegeta.Target {
	return grpcCall(base, pb.Staff_DeleteVacancy_FullMethodName, &pb.DeleteVacancyRequest{Id: id})
}

func (grpcDialect) readVacancy(base string, id int64) vegeta.Target {
	return grpcCall(base, pb.Staff_GetVacancy_FullMethodName, &pb.GetVacancyRequest{Id: id})
}

// check wants status OK and a gRPC content type for every call; for
// control also SERVING, since a health service that answers NOT_SERVING
// answers with status OK.
func (grpcDialect) check(op Op, r *vegeta.Result) error {
	if err := checkGRPC(r); err != nil {
		return err
	}
	if op == OpControl {
		var h healthpb.HealthCheckResponse
		if err := proto.Unmarshal(r.Body, &h); err != nil || h.Status != healthpb.HealthCheckResponse_SERVING {
			return fmt.Errorf("health %s, want SERVING", h.Status)
		}
	}
	return nil
}

// checkGRPC checks the status and media type of an answer; a failed
// call's error names its gRPC status and message.
func checkGRPC(r *vegeta.Result) error {
	if r.Code != http.StatusOK {
		return fmt.Errorf("status %d (gRPC %s), want 200 (gRPC OK)", r.Code, grpcStatus(r))
	}
	if mt := contentType(r); mt != "application/grpc" && mt != grpcwire.ContentType {
		return fmt.Errorf("content type %q, want %s", mt, grpcwire.ContentType)
	}
	return nil
}

// grpcStatus is the gRPC status code and message of an answer, e.g.
// "NOT_FOUND: person 7 not found".
func grpcStatus(r *vegeta.Result) string {
	s := r.Headers.Get("Grpc-Status")
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		s = grpcwire.CodeName(codes.Code(n))
	}
	if msg := r.Headers.Get("Grpc-Message"); msg != "" {
		s += ": " + msg
	}
	return s
}

func (grpcDialect) created(r *vegeta.Result) (int64, int32, error) {
	var v pb.Vacancy
	if err := proto.Unmarshal(r.Body, &v); err != nil || v.Id == 0 {
		return 0, 0, fmt.Errorf("no vacancy id in the answer (%d bytes)", len(r.Body))
	}
	if v.Version == 0 {
		// The id is returned with the error: the row exists and must be
		// removed.
		return v.Id, 0, fmt.Errorf("no version in the answer (an update must name it)")
	}
	return v.Id, v.Version, nil
}

func (grpcDialect) version(r *vegeta.Result) (int32, bool, error) {
	var v pb.Vacancy
	if err := proto.Unmarshal(r.Body, &v); err != nil {
		return 0, false, fmt.Errorf("not a %s message: %v", v.ProtoReflect().Descriptor().FullName(), err)
	}
	return v.Version, true, nil
}

// readyService is the service whose health is a grpc app's readiness (its
// database answers), as service "" is its liveness.
const readyService = "crudbench.v1.Staff"

// vacancyText quotes the start of a vacancy's read-back for an error
// message: a grpc answer in the message's text form, as a person reads
// it, not its wire bytes.
func (a *App) vacancyText(r *vegeta.Result) string {
	if a.Kind != KindGRPC || len(r.Body) == 0 {
		return snippet(r.Body)
	}
	var v pb.Vacancy
	if err := proto.Unmarshal(r.Body, &v); err != nil {
		return fmt.Sprintf(" (%d bytes that are not a %s)", len(r.Body), v.ProtoReflect().Descriptor().FullName())
	}
	return snippet([]byte(prototext.MarshalOptions{}.Format(&v)))
}

// grpcContent decodes a read's response message and writes it as protojson
// (every field, unset ones as their zero value) in the REST kind's shape:
// the person detail's person merged into it, the lists' items alone, and
// an unset optional field as REST's null. normalize does the rest (enum
// names, int64 strings).
func grpcContent(op Op, r *vegeta.Result) (any, error) {
	var m proto.Message
	switch op {
	case OpReadOne:
		m = &pb.PersonDetail{}
	case OpReadSmall:
		m = &pb.ListVacanciesResponse{}
	case OpReadMany, OpReadSlim:
		m = &pb.ListPersonsResponse{}
	default:
		return nil, fmt.Errorf("%s has no content to compare", op)
	}
	if err := proto.Unmarshal(r.Body, m); err != nil {
		return nil, fmt.Errorf("not a %s message: %v", m.ProtoReflect().Descriptor().FullName(), err)
	}
	// A slim answer is compared as it came: the fields the mask left out
	// are unset, and writing them as zero values would hide one sent.
	b, err := protojson.MarshalOptions{EmitUnpopulated: op != OpReadSlim}.Marshal(m)
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, err
	}
	switch op {
	case OpReadOne:
		person, _ := body["person"].(map[string]any)
		if person == nil {
			return nil, fmt.Errorf("no person in the answer")
		}
		for k, v := range person {
			body[k] = v
		}
		delete(body, "person")
		apps, _ := body["appointments"].([]any)
		for _, a := range apps {
			app, _ := a.(map[string]any)
			nullUnset(app, "endsOn")
			stipends, _ := app["stipends"].([]any)
			for _, s := range stipends {
				st, _ := s.(map[string]any)
				nullUnset(st, "endsOn")
			}
		}
		return body, nil
	case OpReadSmall:
		items, _ := body["vacancies"].([]any)
		for _, it := range items {
			v, _ := it.(map[string]any)
			nullUnset(v, "closesOn", "filledBy")
		}
		return items, nil
	}
	return body["persons"], nil
}

// nullUnset sets the optional fields keys of m to null where protojson left
// them out (an unset optional field is not written even with
// EmitUnpopulated): REST writes them as null.
func nullUnset(m map[string]any, keys ...string) {
	if m == nil {
		return
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			m[k] = nil
		}
	}
}
