#!/usr/bin/env bash
# Go tests with DynamoDB Local running: the store contract suite and the Lambda
# handler tests use it through DYNAMODB_ENDPOINT. Concurrency-critical packages
# run again under the race detector.
set -euo pipefail
cd "$(dirname "$0")/.."

DDB=localstack/dynamodb-local.sh
export DYNAMODB_ENDPOINT
DYNAMODB_ENDPOINT="$($DDB start)"
trap '$DDB stop >/dev/null 2>&1 || true' EXIT

go vet ./cmd/... ./internal/... ./functions/... ./engine-fargate/... ./localstack/...
go test -count=1 ./...
go test -count=1 -race ./internal/combine/... ./internal/engine/... ./internal/projector/... ./internal/store/embedded/... ./internal/store/storetest/... ./internal/ledger/... ./internal/userfeed/... ./internal/push/... ./internal/notify/... ./internal/auth/... ./internal/ratelimit/... ./internal/httpapi/...
