# Tenger: one Makefile for the local binary, the tests and the AWS runtime.
# `make run` and `make test` work on a fresh machine: they install what they need.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
ADDR      ?= 127.0.0.1:8080
DATA      ?= ./.tenger-data
BIN       := bin/tenger
CDK_OUTDIR ?= cdk.out
export CDK_OUTDIR
# DynamoDB Local for the contract and handler tests (started and stopped by `make test`).
DYNAMODB_PORT ?= 8000
export DYNAMODB_PORT
# The jsii runtime behind aws-cdk-go warns about Node 20 on every start.
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1

.PHONY: help
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

# --- set-up -------------------------------------------------------------------

.PHONY: deps-go
deps-go: ## download Go modules
	$(GO) mod download

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

.PHONY: deps-web
deps-web: frontend/node_modules/.package-lock.json ## install the web app's npm packages

.PHONY: deps-browser
deps-browser: ## install Debian's chromium for the browser tests (never downloads a browser build)
	@scripts/ensure-chromium.sh

# --- build and run ------------------------------------------------------------

.PHONY: web
web: deps-web ## build the web app into frontend/dist
	cd frontend && npm run build

.PHONY: build
build: ## build the tenger binary into bin/
	$(GO) build -trimpath -o $(BIN) ./cmd/tenger

.PHONY: run
run: web build ## build everything and start tenger serve on http://127.0.0.1:8080 with data in ./.tenger-data
	./$(BIN) serve --addr $(ADDR) --data $(DATA) --dev --web frontend/dist

# --- tests --------------------------------------------------------------------

.PHONY: test
test: deps-go deps-web deps-browser lambdas ## install what the tests need and run every suite
	@scripts/test-all.sh

.PHONY: test-go
test-go: ## Go unit, contract and handler tests (starts DynamoDB Local)
	@scripts/test-go.sh

.PHONY: test-web
test-web: deps-web ## web app lint (ESLint) and unit tests (Vitest)
	cd frontend && npm run lint && npm test

.PHONY: e2e
e2e: deps-web deps-browser web ## browser end-to-end tests against tenger serve
	cd frontend && npm run e2e

.PHONY: bench
bench: ## Go benchmarks of the hot paths (compare runs with benchstat)
	$(GO) test -run '^$$' -bench . -benchtime=3s ./internal/store/embedded ./internal/ledger
	$(GO) test -run '^$$' -bench Workload1M -benchtime 5x -count 5 ./internal/matching

# --- AWS runtime --------------------------------------------------------------

.PHONY: lambdas
lambdas: ## build every Lambda function to build/lambda/<name>/bootstrap (linux/arm64)
	@scripts/build-lambdas.sh

.PHONY: synth
synth: lambdas ## write the CloudFormation templates into cdk.out (or $CDK_OUTDIR), offline
	$(GO) run ./stacks/app

# The CDK CLI is pinned in tools/cdk/package.json (and its lock file).
CDK = npm --prefix tools/cdk exec --offline -- cdk
# What a deploy asks before: "broadening" stops at any IAM or security
# group change that widens access until someone says yes; a pipeline that
# ran make diff and had it reviewed may set CDK_APPROVAL=never.
CDK_APPROVAL ?= broadening
# More arguments for the CDK CLI, e.g. CDK_ARGS="-c stage=prod".
CDK_ARGS ?=

.PHONY: cdk-cli
cdk-cli:
	@npm ci --prefix tools/cdk --no-audit --no-fund --loglevel=error

.PHONY: diff
diff: lambdas web cdk-cli ## show what a deploy would change (read it before make deploy)
	$(CDK) diff --all $(CDK_ARGS)

.PHONY: bootstrap
bootstrap: cdk-cli ## prepare the account for CDK in the stage's region and in us-east-1 (the edge), once
	$(CDK) bootstrap aws://$${CDK_DEFAULT_ACCOUNT:?set CDK_DEFAULT_ACCOUNT}/$${CDK_DEFAULT_REGION:?set CDK_DEFAULT_REGION} aws://$${CDK_DEFAULT_ACCOUNT}/us-east-1

.PHONY: deploy
deploy: lambdas web cdk-cli ## deploy every stack with the account's credentials (asks before widening access)
	$(CDK) deploy --all --require-approval $(CDK_APPROVAL) $(CDK_ARGS)

.PHONY: clean
clean: ## remove build outputs (not the data directory)
	rm -rf bin build cdk.out frontend/dist
