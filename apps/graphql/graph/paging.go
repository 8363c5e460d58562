package graph

import (
	"crudbench/apps/graphql/graph/model"
	"crudbench/db"
)

// pageSize reads a list's first argument; the rule is the data's
// (db.PageLimit). Without first it is 0, which the Store's filters read as
// db.DefaultLimit; first: 0 is a client asking for nothing, which the rule
// refuses.
func pageSize(first *int32) (int, error) {
	if first == nil {
		return 0, nil
	}
	return db.PageLimit("first", int64(*first))
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
