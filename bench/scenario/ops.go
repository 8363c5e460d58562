package scenario

import (
	"strconv"

	"crudbench/db"
	"crudbench/db/seed"
)

// Op is one kind of request the bench sends. Reads are named after their
// scenario; a write scenario is made of the three vacancy operations.
type Op string

// The operations. OpReadOne, OpReadSmall, OpReadMany, OpReadSlim and
// OpControl carry the names of their scenarios.
const (
	OpReadOne   Op = ReadOne
	OpReadSmall Op = ReadSmall
	OpReadMany  Op = ReadMany
	OpReadSlim  Op = ReadSlim
	OpControl   Op = Control
	OpCreate    Op = "create"
	OpUpdate    Op = "update"
	OpDelete    Op = "delete"
)

// VacancyData is what a write request sets on a vacancy. Every request of a
// run gets its own title, so no two requests write the same data.
type VacancyData struct {
	Title          string
	Department     string
	Location       string
	SalaryMinCents int64
	SalaryMaxCents int64
	Description    string
}

// ReadSmallLimit is the page size the read-small scenario asks every app
// for. The apps' default page (50) would cut the ~60 open vacancies of the
// default dataset in two; asking for 100 returns the whole open list, so
// every app renders the same complete answer and validation can compare it
// with the database.
const ReadSmallLimit = 100

// ReadManyLimit is the page size of read-many: the largest the apps allow,
// i.e. every person of the default dataset.
const ReadManyLimit = db.MaxLimit

// ReadSlimLimit is the number of persons read-slim asks for: read-many's,
// so that the slim and the full answers list the same people and differ
// only in what each person carries.
const ReadSlimLimit = ReadManyLimit

// personOptionsPath is the site's read-slim address: the fragment of
// <option> items its person picker swaps into a <datalist>.
var personOptionsPath = "/persons/options?limit=" + strconv.Itoa(ReadSlimLimit)

// controlPath is the control scenario's address, the same in every app.
const controlPath = "/healthz"

// readPath is the address of a read in the resource paths the REST API
// (under /api) and the site share; control has its own, controlPath.
// read-slim's is read-many's: the REST API has no sparse-fieldset
// parameter, so a client that needs two fields gets the full list (the
// site answers read-slim at personOptionsPath instead).
func readPath(op Op) string {
	switch op {
	case OpReadOne:
		return "/persons/" + strconv.Itoa(seed.ShowcaseID)
	case OpReadSmall:
		return "/vacancies?status=open&limit=" + strconv.Itoa(ReadSmallLimit)
	case OpReadMany:
		return "/persons?limit=" + strconv.Itoa(ReadManyLimit)
	case OpReadSlim:
		return "/persons?limit=" + strconv.Itoa(ReadSlimLimit)
	}
	return ""
}
