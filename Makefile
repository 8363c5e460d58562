# crudbench: the developer's commands. `make test` is what CI runs.
GO ?= go

.PHONY: all generate check-generated lint test bench

all: test

# generate rewrites every generated file (sqlc, gqlgen) from its sources.
generate:
	$(GO) tool -modfile=tools.mod sqlc generate
	@if [ -f apps/graphql/gqlgen.yml ]; then cd apps/graphql && $(GO) tool gqlgen generate --config gqlgen.yml; fi

# check-generated fails when the committed generated code is stale.
check-generated: generate
	@out=$$(git status --porcelain -- db/internal/sqlcdb apps/graphql); \
	if [ -n "$$out" ]; then echo "generated code is stale; run 'make generate' and commit:"; echo "$$out"; exit 1; fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

test: lint check-generated
	$(GO) test -count=1 -timeout 30m ./...

bench:
	$(GO) run ./bench
