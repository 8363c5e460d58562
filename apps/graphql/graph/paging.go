package graph

import (
	"fmt"

	"crudbench/apps/graphql/graph/model"
	"crudbench/db"
)

// pageSize checks a list's first argument: 1..db.MaxLimit, like every list of
// every app. The store would take 0 as "the default", which a GraphQL client
// asking for first: 0 does not mean, so the range is checked here.
func pageSize(first *int32) (int, error) {
	if first == nil {
		return db.DefaultLimit, nil
	}
	if *first < 1 || *first > db.MaxLimit {
		return 0, &db.Error{
			Code:    db.EINVALID,
			Message: "invalid input",
			Fields:  map[string]string{"first": fmt.Sprintf("must be between 1 and %d", db.MaxLimit)},
		}
	}
	return int(*first), nil
}

// pageInfo turns the store's next cursor ("" on the last page) into PageInfo.
func pageInfo(next string) *model.PageInfo {
	if next == "" {
		return &model.PageInfo{}
	}
	return &model.PageInfo{EndCursor: &next, HasNextPage: true}
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
