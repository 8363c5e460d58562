package loaders

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"

	"crudbench/db"
)

// The look-ahead: a resolver that returns persons or vacancies hands them to
// ExpectPersons or ExpectVacancies with the selection below them. That loads
// every nested list the selection asks for, level by level, one statement per
// list, siblings (stipends and fundings) concurrently, and primes the loaders
// with the results. The child resolvers then Load from the cache.
//
// It is an optimisation only: a level it cannot load (an error, a shape it
// does not know) is left to the loaders, which load it on demand and report
// any error on the field that needs it.

// primedKey names one key of one loader that the look-ahead has loaded.
type primedKey struct {
	list string // "appointments", "stipends", "fundings" or "person"
	id   int64
}

// ExpectPersons loads what sel selects below persons: their appointments and,
// below those, stipends, fundings and the appointments' persons.
func (l *Loaders) ExpectPersons(ctx context.Context, persons []db.Person, sel ast.SelectionSet) {
	below := children(ctx, sel, "Person")
	appointmentsSel, ok := below["appointments"]
	if !ok || len(persons) == 0 {
		return
	}
	ids := claim(l, "appointments", persons, func(p db.Person) int64 { return p.ID })
	rows := prime(ctx, l, "appointments", ids, l.store.FindAppointments, appointmentParent, l.AppointmentsByPerson)
	l.expectAppointments(ctx, rows, appointmentsSel)
}

// ExpectVacancies loads what sel selects below vacancies: the persons who
// filled them, and what is selected below those.
func (l *Loaders) ExpectVacancies(ctx context.Context, vacancies []db.Vacancy, sel ast.SelectionSet) {
	below := children(ctx, sel, "Vacancy")
	personSel, ok := below["filledByPerson"]
	if !ok {
		return
	}
	var filled []int64
	for _, v := range vacancies {
		if v.FilledBy != nil {
			filled = append(filled, *v.FilledBy)
		}
	}
	l.expectPersonIDs(ctx, filled, personSel)
}

// expectAppointments loads the lists selected below appointments.
func (l *Loaders) expectAppointments(ctx context.Context, appointments []db.Appointment, sel ast.SelectionSet) {
	if len(appointments) == 0 {
		return
	}
	below := children(ctx, sel, "Appointment")
	var wg sync.WaitGroup
	if _, ok := below["stipends"]; ok {
		wg.Go(func() {
			ids := claim(l, "stipends", appointments, appointmentID)
			prime(ctx, l, "stipends", ids, l.store.FindStipends, stipendParent, l.StipendsByAppointment)
		})
	}
	if _, ok := below["fundings"]; ok {
		wg.Go(func() {
			ids := claim(l, "fundings", appointments, appointmentID)
			prime(ctx, l, "fundings", ids, l.store.FindFundings, fundingParent, l.FundingsByAppointment)
		})
	}
	if personSel, ok := below["person"]; ok {
		wg.Go(func() {
			ids := make([]int64, len(appointments))
			for i, a := range appointments {
				ids[i] = a.PersonID
			}
			l.expectPersonIDs(ctx, ids, personSel)
		})
	}
	wg.Wait()
}

// expectPersonIDs loads persons by id (those not loaded yet) and what sel
// selects below them.
func (l *Loaders) expectPersonIDs(ctx context.Context, ids []int64, sel ast.SelectionSet) {
	ids = claim(l, "person", ids, func(id int64) int64 { return id })
	if len(ids) == 0 {
		return
	}
	persons, err := l.store.FindPersonsByIDs(ctx, ids)
	if err != nil {
		l.unclaim("person", ids)
		return
	}
	for _, p := range persons {
		l.PersonByID.Prime(p.ID, p)
	}
	l.ExpectPersons(ctx, persons, sel)
}

func appointmentID(a db.Appointment) int64 { return a.ID }

// prime loads the children of the claimed ids in one statement, grouped by
// parent as the loader's own fetch groups them, and primes loader with them.
// It returns the rows; after an error none, and the ids are left to the
// loader.
func prime[T any](ctx context.Context, l *Loaders, list string, ids []int64,
	find func(context.Context, []int64) ([]T, error), parent func(T) int64,
	loader *dataloadgen.Loader[int64, []T],
) []T {
	if len(ids) == 0 {
		return nil
	}
	rows, err := find(ctx, ids)
	if err != nil {
		l.unclaim(list, ids)
		return nil
	}
	for i, children := range group(ids, rows, parent) {
		loader.Prime(ids[i], children)
	}
	return rows
}

// claim returns the distinct ids of items that the look-ahead has not
// loaded for list yet, and marks them loaded, so a cycle in the query
// (appointments → person → appointments) costs no second statement.
func claim[T any](l *Loaders, list string, items []T, id func(T) int64) []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []int64
	for _, item := range items {
		k := primedKey{list, id(item)}
		if !l.primed[k] {
			l.primed[k] = true
			ids = append(ids, k.id)
		}
	}
	return ids
}

// unclaim forgets ids whose load failed, leaving them to the loaders.
func (l *Loaders) unclaim(list string, ids []int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		delete(l.primed, primedKey{list, id})
	}
}

// children returns, for each field selected in sel on an object of type
// typeName, the selections below it, merged across aliases and fragments
// (@skip and @include respected).
func children(ctx context.Context, sel ast.SelectionSet, typeName string) map[string]ast.SelectionSet {
	if len(sel) == 0 || !graphql.HasOperationContext(ctx) {
		return nil
	}
	out := map[string]ast.SelectionSet{}
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), sel, []string{typeName}) {
		out[f.Name] = append(out[f.Name], f.Selections...)
	}
	return out
}

// Selection returns the selections below the field being resolved in ctx,
// following path (for example "nodes" below a connection).
func Selection(ctx context.Context, path ...string) ast.SelectionSet {
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
