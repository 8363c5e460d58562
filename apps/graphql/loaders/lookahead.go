package loaders

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"

	"crudbench/db"
)

// The look-ahead. A dataloader sends one batch for the keys that arrive
// within its wait, and gqlgen resolves sibling fields in goroutines: on a
// busy machine the last siblings arrive after the wait and a level splits
// into two statements or more. Measured with the loaders alone against this
// look-ahead, 300 requests of each query after another through the app's
// handler (as TestStatementsPerQuery sends them), two runs each, on two
// cores at a load average of about 10: the showcase detail took more than
// 4 statements in 6 and 8 of 300 requests (up to 7) and 5.5–8.1 ms a
// request, against 4 in every request and 3.6–5.6 ms; persons(first: 50)
// with appointments and stipends more than 3 in 117 and 133 of 300 (up to
// 10), against 3 in all. So the resolvers that return persons or vacancies
// call PrimePersons or PrimeVacancies: they load each nested list the query
// selects, one statement per level, and prime the loaders before any child
// resolver runs. The count of statements then depends on the query only,
// never on timing, and the child resolvers' GetX calls are answered from
// the cache without waiting.
//
// It is an optimisation only: a level it cannot load (an error) is left to
// the loaders, which load it on demand and report the error on the field
// that needs it.

// PrimePersons primes the loaders with what the query selects below persons:
// the selection of the field being resolved or, with path, of its sub-field
// (a connection's "nodes"). It takes the request's loaders first, so that a
// missing Middleware panics (see For) on every query, not only on those
// that select nested lists.
func PrimePersons(ctx context.Context, persons []db.Person, path ...string) {
	l := For(ctx)
	if len(persons) == 0 {
		return
	}
	sel, ok := fields(ctx, selection(ctx, path), "Person")["appointments"]
	if !ok {
		return
	}
	newWalk(ctx, l).appointmentsOf(persons, sel)
}

// PrimeVacancies primes the loaders with what the query selects below
// vacancies, as PrimePersons does.
func PrimeVacancies(ctx context.Context, vacancies []db.Vacancy, path ...string) {
	l := For(ctx)
	sel, ok := fields(ctx, selection(ctx, path), "Vacancy")["filledByPerson"]
	if !ok {
		return
	}
	var ids []int64
	for _, v := range vacancies {
		if v.FilledBy != nil {
			ids = append(ids, *v.FilledBy)
		}
	}
	newWalk(ctx, l).personIDs(ids, sel)
}

// walk is one look-ahead, down from one resolver's result. It remembers
// whom it has loaded, so a cycle in the query (appointments → person →
// appointments) costs no second statement. Only the walk's own goroutine
// reads or writes those sets.
type walk struct {
	ctx          context.Context
	l            *Loaders
	appointments map[int64]bool // persons whose appointments are loaded
	loaded       map[int64]bool // persons loaded by id
}

func newWalk(ctx context.Context, l *Loaders) *walk {
	return &walk{ctx: ctx, l: l, appointments: map[int64]bool{}, loaded: map[int64]bool{}}
}

// persons loads the appointments of persons if sel selects them, and what
// is selected below those.
func (w *walk) persons(persons []db.Person, sel ast.SelectionSet) {
	if below, ok := fields(w.ctx, sel, "Person")["appointments"]; ok {
		w.appointmentsOf(persons, below)
	}
}

// appointmentsOf loads the appointments of persons, and what sel selects
// below them.
func (w *walk) appointmentsOf(persons []db.Person, sel ast.SelectionSet) {
	ids := claim(w.appointments, persons, func(p db.Person) int64 { return p.ID })
	rows := prime(w.ctx, ids, w.l.store.FindAppointments, appointmentParent, w.l.appointmentsByPerson)
	if len(rows) > 0 {
		w.appointmentsBelow(rows, sel)
	}
}

// appointmentsBelow loads the lists sel selects below appointments: their
// stipends and fundings beside each other, and their persons.
func (w *walk) appointmentsBelow(appointments []db.Appointment, sel ast.SelectionSet) {
	below := fields(w.ctx, sel, "Appointment")
	ids := make([]int64, len(appointments))
	for i, a := range appointments {
		ids[i] = a.ID
	}
	var wg sync.WaitGroup
	if _, ok := below["stipends"]; ok {
		wg.Go(func() { prime(w.ctx, ids, w.l.store.FindStipends, stipendParent, w.l.stipendsByAppointment) })
	}
	if _, ok := below["fundings"]; ok {
		wg.Go(func() { prime(w.ctx, ids, w.l.store.FindFundings, fundingParent, w.l.fundingsByAppointment) })
	}
	if personSel, ok := below["person"]; ok {
		personIDs := make([]int64, len(appointments))
		for i, a := range appointments {
			personIDs[i] = a.PersonID
		}
		w.personIDs(personIDs, personSel)
	}
	wg.Wait()
}

// personIDs loads the persons with ids not loaded yet, and what sel selects
// below them.
func (w *walk) personIDs(ids []int64, sel ast.SelectionSet) {
	ids = claim(w.loaded, ids, func(id int64) int64 { return id })
	if len(ids) == 0 {
		return
	}
	persons, err := w.l.store.FindPersonsByIDs(w.ctx, ids)
	if err != nil {
		return
	}
	for _, p := range persons {
		w.l.personByID.Prime(p.ID, p)
	}
	w.persons(persons, sel)
}

// prime loads the children of ids in one statement, grouped by parent as
// the loader's own fetch groups them, and primes loader with them. It
// returns the rows; after an error none, and the ids are left to the loader.
func prime[T any](ctx context.Context, ids []int64,
	find func(context.Context, []int64) ([]T, error), parent func(T) int64,
	loader *dataloadgen.Loader[int64, []T],
) []T {
	if len(ids) == 0 {
		return nil
	}
	rows, err := find(ctx, ids)
	if err != nil {
		return nil
	}
	for i, children := range group(ids, rows, parent) {
		loader.Prime(ids[i], children)
	}
	return rows
}

// claim returns the distinct ids of items not in seen, and adds them.
func claim[T any](seen map[int64]bool, items []T, id func(T) int64) []int64 {
	var ids []int64
	for _, item := range items {
		if k := id(item); !seen[k] {
			seen[k] = true
			ids = append(ids, k)
		}
	}
	return ids
}

// fields returns, for each field selected in sel on an object of type
// typeName, the selections below it, merged across aliases and fragments
// (@skip and @include respected).
func fields(ctx context.Context, sel ast.SelectionSet, typeName string) map[string]ast.SelectionSet {
	if len(sel) == 0 {
		return nil
	}
	out := map[string]ast.SelectionSet{}
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), sel, []string{typeName}) {
		out[f.Name] = append(out[f.Name], f.Selections...)
	}
	return out
}

// selection returns the selections below the field being resolved in ctx,
// following path.
func selection(ctx context.Context, path []string) ast.SelectionSet {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return nil
	}
	sel := fc.Field.Selections
	typeName := fc.Field.Definition.Type.Name()
	for _, name := range path {
		var next ast.SelectionSet
		nextType := ""
		for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), sel, []string{typeName}) {
			if f.Name == name {
				next = append(next, f.Selections...)
				nextType = f.Definition.Type.Name()
			}
		}
		sel, typeName = next, nextType
	}
	return sel
}
