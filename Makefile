# crudbench: the developer's commands. `make test` is what CI runs.
GO ?= go

.PHONY: all generate check-generated lint lint-node chart test test-k8s bench

all: test

# generate rewrites every generated file (sqlc, gqlgen, templ, buf) from its
# sources. buf compiles resources/proto in process and runs the protoc-gen-go
# plugins from tools.mod (buf.gen.yaml): no protoc, no network.
generate:
	$(GO) tool -modfile=tools.mod sqlc generate
	$(GO) tool -modfile=tools.mod buf generate
	$(GO) tool -modfile=tools.mod templ generate -path apps/htmx -log-level warn
	@if [ -f apps/graphql/gqlgen.yml ]; then cd apps/graphql && $(GO) tool gqlgen generate --config gqlgen.yml; fi

# check-generated fails when the generated code in the tree is stale. It
# generates into a temporary copy of the tree (tracked and untracked files,
# as they are now) and compares, so a test run never rewrites the checkout
# and a concurrent `go build` there never sees half-written files.
check-generated:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; mkdir "$$tmp/tree"; \
	git ls-files -z --cached --others --exclude-standard \
		| tar --null --files-from=- --ignore-failed-read -cf - \
		| tar -xf - -C "$$tmp/tree"; \
	cp -a "$$tmp/tree" "$$tmp/generated"; \
	$(MAKE) -s -C "$$tmp/generated" generate \
		|| { echo "make generate failed on a copy of the tree (see above)"; exit 1; }; \
	if ! out=$$(cd "$$tmp" && diff -rq tree generated); then \
		echo "generated code is stale; run 'make generate' and commit:"; \
		echo "$$out" | sed -e 's|^Files tree/\([^ ]*\) and .*|  \1|' -e 's|^Only in |  new or removed: |'; \
		exit 1; \
	fi

lint: lint-node
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags k8s ./deploy/helm/

# lint-node is gofmt and vet for the Node workspace (the root package.json,
# every package of apps/): ESLint and Prettier's check, both pinned there
# (npm run lint). It installs the workspace first as the runner does
# (bench/stack's InstallNode): npm ci unless node_modules holds the stamp of
# this lockfile and node, under the same lock on package-lock.json, held
# while the linters run, so that no install of the tests removes them.
lint-node:
	@command -v npm >/dev/null || { echo "lint-node: npm not found: install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)"; exit 1; }
	@flock package-lock.json sh -c ' \
		stamp="$$(sha256sum package-lock.json | cut -d" " -f1) $$(node --version)"; \
		if [ "$$(cat node_modules/.crudbench-installed 2>/dev/null)" != "$$stamp" ]; then \
			npm ci --no-audit --no-fund --loglevel=warn || { echo "lint-node: npm ci at the repository root failed (above)"; exit 1; }; \
			printf "%s" "$$stamp" > node_modules/.crudbench-installed; \
		fi; \
		npm run --silent lint || { echo "lint-node: ESLint or Prettier found problems in the Node workspace (above): fix them; npm run format rewrites the files Prettier names"; exit 1; }'

# HELM is the chart's Helm, pinned in a modfile of its own
# (deploy/helm/tools.mod says why).
HELM = $(GO) tool -modfile=deploy/helm/tools.mod helm

# chart lints and renders the Helm chart with its default values (the
# three-node split) and its one-node values; the Go test in deploy/helm
# renders both again and checks what the benchmark depends on.
chart:
	@for values in values.yaml values-one-node.yaml; do \
		$(HELM) lint --strict deploy/helm/crudbench -f deploy/helm/crudbench/$$values --quiet \
			&& $(HELM) template crudbench deploy/helm/crudbench -f deploy/helm/crudbench/$$values >/dev/null \
			|| { echo "chart: helm lint or template failed with $$values (above)"; exit 1; }; \
	done

test: lint check-generated chart
	$(GO) test -count=1 -timeout 30m ./...

# test-k8s brings up a one-node Kubernetes on this machine (deploy/cluster),
# runs its selftest and the chart's tests on it (deploy/helm's cluster_test.go:
# a server-side dry run, the chart installed and its bench Job run and
# merged, placement on kwok's fake nodes), and takes the cluster down again,
# passed or not. Run as root, with a Docker daemon that has the Dockerfile's
# base images (docs/scale-out.md); the first run installs Debian's packages
# and builds the Kubernetes binaries (deploy/cluster/README.md says how long).
test-k8s:
	@deploy/cluster/cluster.sh up && deploy/cluster/cluster.sh selftest \
		&& $(GO) test -tags k8s -count=1 -timeout 45m -v -run '^TestCluster' ./deploy/helm/; rc=$$?; \
	deploy/cluster/cluster.sh down; exit $$rc

bench:
	$(GO) run ./bench
