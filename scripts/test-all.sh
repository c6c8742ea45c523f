#!/usr/bin/env bash
# Runs every suite: Go (unit, store contract on both adapters, Lambda handler
# and CDK assertion tests), a CDK synth, the web app's lint and unit tests and the
# browser end-to-end tests, with the size budget of the web app's first load
# checked after its build. DynamoDB Local is started once for the Go phase
# and always stopped. Each phase prints its duration.
set -euo pipefail
cd "$(dirname "$0")/.."

phase() {
	local name="$1"; shift
	local t0=$SECONDS
	echo "=== $name"
	"$@"
	echo "=== $name: done in $((SECONDS - t0)) s"
}

phase "go tests" scripts/test-go.sh
phase "cdk synth" bash -c 'CDK_OUTDIR="$(mktemp -d)" go run ./stacks/app && echo "templates written"'
phase "web lint" bash -c 'cd frontend && npm run lint'
phase "web unit tests" bash -c 'cd frontend && npm test'
phase "web build" bash -c 'cd frontend && npm run build && npm run size'
phase "browser end-to-end tests" bash -c 'cd frontend && E2E_SKIP_WEB_BUILD=1 npm run e2e'
echo "all suites passed in $SECONDS s"
