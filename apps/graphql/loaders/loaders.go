// Package loaders batches the GraphQL app's nested reads, so that a query
// costs a fixed number of SQL statements however many rows it walks: all the
// appointments of the persons in a response come from one statement, all their
// stipends from another, and so on (no N+1).
//
// A fresh set of loaders is made for every request by Middleware, so results
// are cached for that request only and never leak between users. Resolvers
// read through the GetX helpers, which find the request's loaders with
// For(ctx) and answer in the data layer's terms; the resolvers that return
// persons or vacancies prime the loaders first (lookahead.go says why).
package loaders

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/vikstrous/dataloadgen"

	"crudbench/db"
)

// wait is how long a loader collects keys before it sends one batch: a
// millisecond, as in the gqlgen documentation. Primed keys never wait.
const wait = time.Millisecond

// Loaders holds one batching loader per nested read.
type Loaders struct {
	appointmentsByPerson  *dataloadgen.Loader[int64, []db.Appointment]
	stipendsByAppointment *dataloadgen.Loader[int64, []db.Stipend]
	fundingsByAppointment *dataloadgen.Loader[int64, []db.Funding]
	personByID            *dataloadgen.Loader[int64, db.Person]

	store *db.Store // for the look-ahead (lookahead.go)
}

// New returns loaders that read through store.
func New(store *db.Store) *Loaders {
	return &Loaders{
		appointmentsByPerson: dataloadgen.NewLoader(
			grouped(store.FindAppointments, appointmentParent), dataloadgen.WithWait(wait)),
		stipendsByAppointment: dataloadgen.NewLoader(
			grouped(store.FindStipends, stipendParent), dataloadgen.WithWait(wait)),
		fundingsByAppointment: dataloadgen.NewLoader(
			grouped(store.FindFundings, fundingParent), dataloadgen.WithWait(wait)),
		personByID: dataloadgen.NewMappedLoader(
			func(ctx context.Context, ids []int64) (map[int64]db.Person, error) {
				persons, err := store.FindPersonsByIDs(ctx, ids)
				if err != nil {
					return nil, err
				}
				byID := make(map[int64]db.Person, len(persons))
				for _, p := range persons {
					byID[p.ID] = p
				}
				return byID, nil
			},
			dataloadgen.WithWait(wait)),
		store: store,
	}
}

// GetAppointments returns the appointments of the person with personID.
func GetAppointments(ctx context.Context, personID int64) ([]db.Appointment, error) {
	return For(ctx).appointmentsByPerson.Load(ctx, personID)
}

// GetStipends returns the stipends of the appointment with appointmentID,
// payers included.
func GetStipends(ctx context.Context, appointmentID int64) ([]db.Stipend, error) {
	return For(ctx).stipendsByAppointment.Load(ctx, appointmentID)
}

// GetFundings returns the fundings of the appointment with appointmentID,
// payers included.
func GetFundings(ctx context.Context, appointmentID int64) ([]db.Funding, error) {
	return For(ctx).fundingsByAppointment.Load(ctx, appointmentID)
}

// GetPerson returns the person with id, or an error of code db.ENOTFOUND
// when there is none, as the Store's FindPersonByID does.
func GetPerson(ctx context.Context, id int64) (*db.Person, error) {
	p, err := For(ctx).personByID.Load(ctx, id)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, db.Errorf(db.ENOTFOUND, "person not found")
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// GetFilledBy returns the person who filled v, or nil when nobody did or
// that person is gone: a vacancy outlives its filler (the database sets
// filled_by to null when the person is deleted).
func GetFilledBy(ctx context.Context, v *db.Vacancy) (*db.Person, error) {
	if v.FilledBy == nil {
		return nil, nil
	}
	p, err := For(ctx).personByID.Load(ctx, *v.FilledBy)
	if errors.Is(err, dataloadgen.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func appointmentParent(a db.Appointment) int64 { return a.PersonID }
func stipendParent(s db.Stipend) int64         { return s.AppointmentID }
func fundingParent(f db.Funding) int64         { return f.AppointmentID }

// grouped turns a batch read of children into a loader fetch: one call for
// all keys, its rows grouped by their parent key.
func grouped[T any](find func(context.Context, []int64) ([]T, error), parent func(T) int64) func(context.Context, []int64) ([][]T, []error) {
	return func(ctx context.Context, keys []int64) ([][]T, []error) {
		rows, err := find(ctx, keys)
		if err != nil {
			return nil, []error{err}
		}
		return group(keys, rows, parent), nil
	}
}

// group sorts rows under their parent keys, keeping the order the store
// returned them in; a key without children gets an empty, non-nil slice.
func group[T any](keys []int64, rows []T, parent func(T) int64) [][]T {
	index := make(map[int64]int, len(keys))
	out := make([][]T, len(keys))
	for i, k := range keys {
		index[k] = i
		out[i] = []T{}
	}
	for _, row := range rows {
		if i, ok := index[parent(row)]; ok {
			out[i] = append(out[i], row)
		}
	}
	return out
}

type contextKey struct{}

// Middleware gives each request its own loaders.
func Middleware(store *db.Store) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := context.WithValue(r.Context(), contextKey{}, New(store))
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// For returns the request's loaders. It panics when Middleware did not run:
// that is a wiring mistake, which the server's recovery reports as INTERNAL.
func For(ctx context.Context) *Loaders {
	l, ok := ctx.Value(contextKey{}).(*Loaders)
	if !ok {
		panic(errors.New("loaders: no loaders in context; wrap the handler with loaders.Middleware"))
	}
	return l
}
