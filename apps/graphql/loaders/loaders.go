// Package loaders batches the GraphQL app's nested reads, so that a query
// costs a fixed number of SQL statements however many rows it walks: all the
// appointments of the persons in a response come from one statement, all their
// stipends from another, and so on (no N+1).
//
// A fresh set of loaders is made for every request by Middleware, so results
// are cached for that request only and never leak between users; resolvers
// reach them with For(ctx).
//
// A dataloader batches the keys that arrive within a short wait. gqlgen
// resolves sibling fields concurrently, but on a busy machine the last
// sibling can arrive after the wait and a level splits into two batches. So
// the resolvers that return a list also look ahead (lookahead.go): they load
// each nested list their query selects, one statement per level, and prime
// the loaders with the results before any child resolver runs. The count of
// statements then depends on the query only, never on timing.
package loaders

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"crudbench/db"
)

// wait is how long a loader collects keys before it sends one batch: a
// millisecond, as in the gqlgen documentation. Looked-ahead levels never wait.
const wait = time.Millisecond

// Loaders holds one batching loader per nested read.
type Loaders struct {
	// AppointmentsByPerson loads the appointments of persons by person id.
	AppointmentsByPerson *dataloadgen.Loader[int64, []db.Appointment]
	// StipendsByAppointment loads the stipends of appointments, payers
	// included, by appointment id.
	StipendsByAppointment *dataloadgen.Loader[int64, []db.Stipend]
	// FundingsByAppointment loads the fundings of appointments, payers
	// included, by appointment id.
	FundingsByAppointment *dataloadgen.Loader[int64, []db.Funding]
	// PersonByID loads persons by id; a missing person is ErrNotFound.
	PersonByID *dataloadgen.Loader[int64, db.Person]

	store *db.Store

	mu     sync.Mutex
	primed map[primedKey]bool // what the look-ahead has loaded already
}

// ErrNotFound is what PersonByID returns for an id without a person.
var ErrNotFound = dataloadgen.ErrNotFound

// New returns loaders that read through store.
func New(store *db.Store) *Loaders {
	return &Loaders{
		AppointmentsByPerson: dataloadgen.NewLoader(
			grouped(store.FindAppointments, appointmentParent), dataloadgen.WithWait(wait)),
		StipendsByAppointment: dataloadgen.NewLoader(
			grouped(store.FindStipends, stipendParent), dataloadgen.WithWait(wait)),
		FundingsByAppointment: dataloadgen.NewLoader(
			grouped(store.FindFundings, fundingParent), dataloadgen.WithWait(wait)),
		PersonByID: dataloadgen.NewMappedLoader(
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
		store:  store,
		primed: map[primedKey]bool{},
	}
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
func Middleware(store *db.Store, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), contextKey{}, New(store))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
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
