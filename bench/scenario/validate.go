package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"

	"crudbench/db/seed"
)

// Validator checks, before any load, that an app answers a scenario
// correctly: status, media type, content, parity with the reference data,
// and for writes that a whole cycle really persists and removes its row.
// A scenario that fails is not measured.
type Validator struct {
	Client *http.Client
	// Ref is what the reads must return: ReferenceFromStore with a
	// database, ReferenceFromDataset without one. When an entry is
	// missing, the first valid REST answer fills it, so the other apps
	// are at least compared with the REST app (an app is then compared
	// with itself: a last resort, not a check).
	Ref *Reference
	// CountVacancies, when set, counts the vacancy rows in the database:
	// a write cycle must leave the count as it found it.
	CountVacancies func(ctx context.Context) (int64, error)
	// VacanciesTitled, when set, returns the ids of the vacancies in the
	// database whose title starts with a prefix: how a failed cycle finds
	// the row it created when the create's answer did not say its id.
	// Without it the row is looked for in the app's own list of drafts.
	VacanciesTitled func(ctx context.Context, prefix string) ([]int64, error)
	// Tag starts the title of the vacancies validation writes.
	Tag string
}

// Validate checks scenario on the app of session s. Every scenario but
// control reads the database, so a grpc app must first say, through its
// health service, that it is ready (see ready).
func (v *Validator) Validate(ctx context.Context, s *Session, scenario string) error {
	if scenario != Control {
		if err := v.ready(ctx, s); err != nil {
			return err
		}
	}
	return v.validate(ctx, s, scenario, s.App.Name)
}

// validate checks scenario; tag names the write cycle's rows after the
// app, and after the app and mixed in the mixed scenario, so that mixed
// never finds (and reports again) a row the write scenario left.
func (v *Validator) validate(ctx context.Context, s *Session, scenario, tag string) error {
	switch scenario {
	case Write:
		return v.write(ctx, s, tag)
	case Mixed:
		var errs []error
		for _, wt := range MixWeights {
			if err := v.validate(ctx, s, wt.Scenario, tag+" "+Mixed); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", wt.Scenario, err))
			}
		}
		return errors.Join(errs...)
	case ReadOne, ReadSmall, ReadMany, ReadSlim, Control:
		return v.read(ctx, s, Op(scenario))
	}
	return fmt.Errorf("unknown scenario %q", scenario)
}

// ready checks a grpc app's readiness, Check of service
// crudbench.v1.Staff, which must say SERVING while its database answers,
// as it does while it is validated: a server that always says NOT_SERVING
// would otherwise pass every scenario, since the calls never ask. (The
// HTTP kinds' /readyz is what the runner waits for when it starts an app.)
func (v *Validator) ready(ctx context.Context, s *Session) error {
	if s.App.Kind != KindGRPC {
		return nil
	}
	t := grpcCall(s.App.BaseURL, healthCheck, &healthpb.HealthCheckRequest{Service: readyService})
	r, err := Do(ctx, v.Client, t)
	if err == nil {
		err = checkGRPC(r)
	}
	if err == nil {
		var h healthpb.HealthCheckResponse
		if perr := proto.Unmarshal(r.Body, &h); perr != nil || h.Status != healthpb.HealthCheckResponse_SERVING {
			err = fmt.Errorf("health %s, want SERVING: the database answers", h.Status)
		}
	}
	if err != nil {
		return fmt.Errorf("readiness, %s {service: %q}: %w", RequestLabel(t), readyService, err)
	}
	return nil
}

// read checks one read; a failure names the request.
func (v *Validator) read(ctx context.Context, s *Session, op Op) error {
	t := s.Target(op)
	if err := v.checkRead(ctx, s, op, t); err != nil {
		return fmt.Errorf("%s: %w", RequestLabel(t), err)
	}
	return nil
}

func (v *Validator) checkRead(ctx context.Context, s *Session, op Op, t vegeta.Target) error {
	r, err := Do(ctx, v.Client, t)
	if err != nil {
		return err
	}
	if err := s.App.Check(r); err != nil {
		return err
	}
	if op == OpControl {
		return nil
	}
	if s.App.Kind == KindSite {
		return v.page(op, r.Body)
	}
	data, err := jsonContent(s.App.Kind, op, r)
	if err != nil {
		return err
	}
	if err := checkContent(op, data); err != nil {
		return err
	}
	if v.Ref == nil {
		v.Ref = &Reference{}
	}
	want, known := v.Ref.Data[referenceOp(s.App.Kind, op)]
	if !known {
		if s.App.Kind == KindREST {
			v.Ref.learn(referenceOp(s.App.Kind, op), data)
			if v.Ref.Source == "" {
				v.Ref.Source = s.App.Name + " app"
			}
		}
		return nil
	}
	if d := firstDifference(string(op), want, data); d != "" {
		return fmt.Errorf("field parity: differs from the %s: %s", v.Ref.Source, d)
	}
	return nil
}

// jsonContent returns the payload of a JSON app's read, normalised, in the
// REST kind's shape: the person object, or the list of items.
func jsonContent(kind Kind, op Op, r *vegeta.Result) (any, error) {
	var body any
	if kind == KindTRPC {
		data, err := trpcContent(op, r)
		if err != nil {
			return nil, err
		}
		body = data
	} else if kind == KindGRPC {
		data, err := grpcContent(op, r)
		if err != nil {
			return nil, err
		}
		body = data
	} else if kind == KindGraphQL {
		var data map[string]any
		if err := decodeGraphQL(r, &data); err != nil {
			return nil, err
		}
		switch op {
		case OpReadOne:
			body = data["person"]
		case OpReadSmall:
			body = member(data["vacancies"], "nodes")
		case OpReadMany, OpReadSlim:
			body = member(data["persons"], "nodes")
		}
	} else {
		if err := json.Unmarshal(r.Body, &body); err != nil {
			return nil, fmt.Errorf("not JSON: %v%s", err, snippet(r.Body))
		}
		if op != OpReadOne {
			body = member(body, "items")
		}
	}
	if body == nil {
		return nil, fmt.Errorf("no data in the answer%s", snippet(r.Body))
	}
	data, err := normalize(kind, body)
	if err != nil {
		return nil, fmt.Errorf("%s%w", op, err)
	}
	return data, nil
}

func member(v any, name string) any {
	m, _ := v.(map[string]any)
	return m[name]
}

// checkContent checks what a read must contain whatever the reference:
// the showcase person's name and nested row counts, open vacancies only,
// the showcase person among all persons.
func checkContent(op Op, data any) error {
	switch op {
	case OpReadOne:
		p, ok := data.(map[string]any)
		if !ok {
			return fmt.Errorf("person: got %s, want an object", describe(data))
		}
		if p["firstName"] != seed.ShowcaseFirstName || p["lastName"] != seed.ShowcaseLastName {
			return fmt.Errorf("showcase person is %v %v, want %s %s", p["firstName"], p["lastName"], seed.ShowcaseFirstName, seed.ShowcaseLastName)
		}
		apps, stipends, fundings := nestedCounts(p)
		want := [3]int{seed.ShowcaseAppointments, seed.ShowcaseAppointments * seed.ShowcaseStipends, seed.ShowcaseAppointments * seed.ShowcaseFundings}
		if got := [3]int{apps, stipends, fundings}; got != want {
			return fmt.Errorf("showcase person has %d appointments, %d stipends, %d fundings; want %d, %d, %d",
				got[0], got[1], got[2], want[0], want[1], want[2])
		}
	case OpReadSmall, OpReadMany, OpReadSlim:
		items, ok := data.([]any)
		if !ok {
			return fmt.Errorf("got %s, want a list", describe(data))
		}
		if len(items) == 0 {
			return errors.New("the list is empty")
		}
		for i, it := range items {
			m, _ := it.(map[string]any)
			if op == OpReadSmall && m["status"] != "open" {
				return fmt.Errorf("item %d has status %v, want open", i, m["status"])
			}
		}
	}
	return nil
}

// nestedCounts counts a person detail's appointments, stipends and fundings.
func nestedCounts(p map[string]any) (apps, stipends, fundings int) {
	list, _ := p["appointments"].([]any)
	for _, a := range list {
		m, _ := a.(map[string]any)
		s, _ := m["stipends"].([]any)
		f, _ := m["fundings"].([]any)
		apps, stipends, fundings = apps+1, stipends+len(s), fundings+len(f)
	}
	return apps, stipends, fundings
}

// write runs one create → update → delete cycle and checks that the
// number of vacancies is the same after it as before: a cycle that leaves
// a row behind would grow the table under load. The count is checked also
// when the cycle failed, so a row a failed cycle could not remove is
// reported.
func (v *Validator) write(ctx context.Context, s *Session, tag string) error {
	before, err := v.countVacancies(ctx)
	if err != nil {
		return err
	}
	err = v.writeCycle(ctx, s, tag)
	after, cerr := v.countVacancies(ctx)
	switch {
	case cerr != nil:
		return errors.Join(err, cerr)
	case after != before:
		return errors.Join(err, fmt.Errorf("the write cycle changed the number of vacancies from %d to %d", before, after))
	}
	return err
}

// countVacancies counts the vacancies in the database, or returns 0 when
// the validator has no way to count them.
func (v *Validator) countVacancies(ctx context.Context) (int64, error) {
	if v.CountVacancies == nil {
		return 0, nil
	}
	n, err := v.CountVacancies(ctx)
	if err != nil {
		return 0, fmt.Errorf("count vacancies: %w", err)
	}
	return n, nil
}

// writeCycle creates, updates and deletes one vacancy and checks after
// each step, by reading the vacancy back, that the step really happened:
// the update also raised the version. A step that fails names itself,
// and whatever the cycle created is deleted again (see removeCreated).
// The rows are titled after v.Tag and tag.
func (v *Validator) writeCycle(ctx context.Context, s *Session, tag string) error {
	w, _ := NewWorkload(s, Write, v.Tag+" "+tag)
	created := w.data(1, false)
	id, version, err := v.create(ctx, s, created)
	if err != nil {
		return v.removeCreated(ctx, s, w, id, err)
	}
	if _, err := v.vacancyHas(ctx, s, id, created.Title); err != nil {
		return v.removeCreated(ctx, s, w, id, fmt.Errorf("after create: %w", err))
	}
	edited := w.data(1, true)
	if _, err := v.step(ctx, s, s.Update(id, version, edited)); err != nil {
		return v.removeCreated(ctx, s, w, id, err)
	}
	if err := v.raised(ctx, s, id, version, edited.Title); err != nil {
		return v.removeCreated(ctx, s, w, id, fmt.Errorf("after update: %w", err))
	}
	if _, err := v.step(ctx, s, s.Delete(id)); err != nil {
		return v.removeCreated(ctx, s, w, id, err)
	}
	if err := v.vacancyGone(ctx, s, id); err != nil {
		return v.removeCreated(ctx, s, w, id, fmt.Errorf("after delete: %w", err))
	}
	return nil
}

// create sends the cycle's create and reads the new row's id and version
// from its answer. A wrong answer is the create's fault, and is named so:
// an answer without a version would otherwise surface as the update's
// conflict. The id is returned whenever it could be read, so that the row
// can be removed.
func (v *Validator) create(ctx context.Context, s *Session, data VacancyData) (int64, int32, error) {
	t := s.Create(data)
	r, err := Do(ctx, v.Client, t)
	if err != nil {
		return 0, 0, fmt.Errorf("%s, %s: %w", OpCreate, RequestLabel(t), err)
	}
	id, version, perr := s.App.d.created(r)
	if err := s.App.Check(r); err != nil {
		return id, 0, fmt.Errorf("%s, %s: %w", OpCreate, RequestLabel(t), err)
	}
	if perr != nil {
		return id, 0, fmt.Errorf("%s, %s: %w", OpCreate, RequestLabel(t), perr)
	}
	return id, version, nil
}

// step sends one write of the cycle and checks its answer as a load would.
func (v *Validator) step(ctx context.Context, s *Session, t vegeta.Target) (*vegeta.Result, error) {
	op, _ := OpOf(&vegeta.Result{URL: t.URL})
	r, err := Do(ctx, v.Client, t)
	if err == nil {
		err = s.App.Check(r)
	}
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", op, RequestLabel(t), err)
	}
	return r, nil
}

// vacancyHas reads vacancy id back, looks for its title and returns the
// answer.
func (v *Validator) vacancyHas(ctx context.Context, s *Session, id int64, title string) (*vegeta.Result, error) {
	t := s.withAuth(s.App.d.readVacancy(s.App.BaseURL, id), OpReadOne, 0)
	r, err := Do(ctx, v.Client, t)
	switch {
	case err != nil:
	case s.App.Kind == KindGRPC:
		err = checkGRPC(r)
	case s.App.Kind == KindTRPC:
		err = checkTRPC(r)
	case r.Code != http.StatusOK:
		err = fmt.Errorf("status %d, want 200%s", r.Code, snippet(r.Body))
	case s.App.Kind == KindGraphQL:
		err = decodeGraphQL(r, nil)
	}
	if err == nil && !bytes.Contains(r.Body, []byte(title)) {
		err = fmt.Errorf("vacancy %d does not show the title %q that was written%s", id, title, s.App.vacancyText(r))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RequestLabel(t), err)
	}
	return r, nil
}

// raised reads vacancy id back after an update sent at version: it must
// show the new title at a higher version. A server that keeps the version
// would answer every later writer's update as current, and lose writes.
// A site's pages need not show the version, so a site's is not checked.
func (v *Validator) raised(ctx context.Context, s *Session, id int64, version int32, title string) error {
	r, err := v.vacancyHas(ctx, s, id, title)
	if err != nil {
		return err
	}
	got, ok, err := s.App.d.version(r)
	label := RequestLabel(s.App.d.readVacancy(s.App.BaseURL, id))
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", label, err)
	case ok && got <= version:
		return fmt.Errorf("%s: vacancy %d is at version %d after an update sent at version %d, want a higher version", label, id, got, version)
	}
	return nil
}

// vacancyGone checks that vacancy id no longer exists: 404 (for tRPC its
// NOT_FOUND), or for GraphQL a null vacancy or a NOT_FOUND error.
func (v *Validator) vacancyGone(ctx context.Context, s *Session, id int64) error {
	t := s.withAuth(s.App.d.readVacancy(s.App.BaseURL, id), OpReadOne, 0)
	r, err := Do(ctx, v.Client, t)
	if err != nil {
		return fmt.Errorf("%s: %w", RequestLabel(t), err)
	}
	if r.Code == http.StatusNotFound {
		return nil
	}
	if s.App.Kind == KindGraphQL && r.Code == http.StatusOK {
		var env graphqlResponse
		if err := json.Unmarshal(r.Body, &env); err == nil {
			if len(env.Errors) > 0 && env.Errors[0].Extensions.Code == "NOT_FOUND" {
				return nil
			}
			var data struct {
				Vacancy json.RawMessage `json:"vacancy"`
			}
			if json.Unmarshal(env.Data, &data) == nil && (len(data.Vacancy) == 0 || string(data.Vacancy) == "null") && len(env.Errors) == 0 {
				return nil
			}
		}
	}
	if s.App.Kind == KindGRPC {
		return fmt.Errorf("%s: vacancy %d still readable after delete: gRPC %s, want NOT_FOUND%s", RequestLabel(t), id, grpcStatus(r), s.App.vacancyText(r))
	}
	if s.App.Kind == KindTRPC {
		return fmt.Errorf("%s: vacancy %d still readable after delete: status %d%s, want 404 (tRPC NOT_FOUND)", RequestLabel(t), id, r.Code, trpcError(r.Body))
	}
	return fmt.Errorf("%s: vacancy %d still readable after delete: status %d, want 404%s", RequestLabel(t), id, r.Code, snippet(r.Body))
}
