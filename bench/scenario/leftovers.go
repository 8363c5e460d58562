package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// removeCreated deletes, through the app, what a failed write cycle
// created, and returns cause joined with what could not be removed. Only
// rows titled as the cycle titles them are deleted, so that a wrong id in
// an answer never costs a row of the dataset: the id the create answered
// when reading it back shows the cycle's title, and the rows with that
// title found in the database (VacanciesTitled) or in the app's list of
// drafts, which is how a row is found when the create's answer did not
// say its id.
func (v *Validator) removeCreated(ctx context.Context, s *Session, w *Workload, id int64, cause error) error {
	// An interrupted validation still removes its row; the client's
	// timeout bounds each request.
	ctx = context.WithoutCancel(ctx)
	prefix := w.tag + " #"
	var ours []int64
	if id != 0 {
		if _, err := v.vacancyHas(ctx, s, id, prefix); err == nil {
			ours = append(ours, id)
		}
	}
	found, ferr := v.findTitled(ctx, s, prefix)
	for _, f := range found {
		if !slices.Contains(ours, f) {
			ours = append(ours, f)
		}
	}
	errs := []error{cause}
	if ferr != nil && len(ours) == 0 {
		errs = append(errs, fmt.Errorf("a vacancy titled %q… this cycle created may remain: %w", prefix, ferr))
	}
	for _, id := range ours {
		// The delete's answer does not matter here (it may be the step
		// that failed): the row must be gone afterwards.
		_, _ = Do(ctx, v.Client, s.Delete(id))
		if err := v.vacancyGone(ctx, s, id); err != nil {
			errs = append(errs, fmt.Errorf("vacancy %d, created by validation, could not be removed: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// findTitled returns the ids of the vacancies whose title starts with
// prefix: from the database when the validator can read it, else from the
// app's list of draft vacancies (the status the cycle creates), in the
// kind's idiom.
func (v *Validator) findTitled(ctx context.Context, s *Session, prefix string) ([]int64, error) {
	if v.VacanciesTitled != nil {
		return v.VacanciesTitled(ctx, prefix)
	}
	type row struct {
		ID    json.RawMessage `json:"id"`
		Title string          `json:"title"`
	}
	var t vegeta.Target
	var rows func(r *vegeta.Result) ([]row, error)
	switch s.App.Kind {
	case KindREST, KindAMQP:
		t = vegeta.Target{Method: http.MethodGet, URL: s.App.BaseURL + "/api/vacancies?status=draft&limit=" + strconv.Itoa(ReadManyLimit), Header: http.Header{"Accept": {"application/json"}}}
		if s.App.Kind == KindAMQP {
			t = amqpDrafts(s.App.BaseURL)
		}
		rows = func(r *vegeta.Result) ([]row, error) {
			var page struct{ Items []row }
			if err := expect(r, http.StatusOK, "application/json"); err != nil {
				return nil, err
			}
			if err := json.Unmarshal(r.Body, &page); err != nil {
				return nil, fmt.Errorf("not a list of vacancies%s", snippet(r.Body))
			}
			return page.Items, nil
		}
	case KindGraphQL:
		t = graphqlRequest(s.App.BaseURL, `query DraftVacancies { vacancies(status: DRAFT, first: `+strconv.Itoa(ReadManyLimit)+`) { nodes { id title } } }`, nil)
		rows = func(r *vegeta.Result) ([]row, error) {
			var data struct{ Vacancies struct{ Nodes []row } }
			if err := decodeGraphQL(r, &data); err != nil {
				return nil, err
			}
			return data.Vacancies.Nodes, nil
		}
	case KindTRPC:
		t = trpcDrafts(s.App.BaseURL)
		rows = func(r *vegeta.Result) ([]row, error) {
			var page struct{ Items []row }
			if err := decodeTRPC(r, &page); err != nil {
				return nil, err
			}
			return page.Items, nil
		}
	default:
		return nil, fmt.Errorf("the rows of a %s app are found only in the database (give the runner DATABASE_URL)", s.App.Kind)
	}
	t = s.withAuth(t, OpReadSmall, 0)
	r, err := Do(ctx, v.Client, t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RequestLabel(t), err)
	}
	list, err := rows(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RequestLabel(t), err)
	}
	var ids []int64
	for _, it := range list {
		if !strings.HasPrefix(it.Title, prefix) {
			continue
		}
		id, err := parseID(string(it.ID))
		if err != nil {
			return nil, fmt.Errorf("%s: vacancy titled %q: %w", RequestLabel(t), it.Title, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
