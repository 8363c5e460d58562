package scenario

import (
	"strconv"

	"crudbench/db"
	"crudbench/db/seed"
)

// Op is one kind of request the bench sends. Reads are named after their
// scenario; a write scenario is made of the three vacancy operations.
type Op string

// The operations. OpReadOne, OpReadSmall, OpReadMany and OpControl carry the
// names of their scenarios.
const (
	OpReadOne   Op = ReadOne
	OpReadSmall Op = ReadSmall
	OpReadMany  Op = ReadMany
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

// controlPath is the control scenario's address, the same in every app.
const controlPath = "/healthz"

// readPath is the address of a read in the resource paths the REST API
// (under /api) and the site share; control has its own, controlPath.
func readPath(op Op) string {
	switch op {
	case OpReadOne:
		return "/persons/" + strconv.Itoa(seed.ShowcaseID)
	case OpReadSmall:
		return "/vacancies?status=open&limit=" + strconv.Itoa(ReadSmallLimit)
	case OpReadMany:
		return "/persons?limit=" + strconv.Itoa(ReadManyLimit)
	}
	return ""
}
