#!/bin/bash
# LocalStack init hook (runs inside the container once the services are
# ready): the Tenger table, mirroring stacks/data.go and
# internal/store/dynamo.CreateTable. Idempotent, so a
# restarted container with persistence does not fail.
set -euo pipefail

TABLE="${TABLE_NAME:-tenger}"

if ! awslocal dynamodb describe-table --table-name "$TABLE" >/dev/null 2>&1; then
	awslocal dynamodb create-table \
		--table-name "$TABLE" \
		--billing-mode PAY_PER_REQUEST \
		--attribute-definitions \
			AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
			AttributeName=gsi1pk,AttributeType=S AttributeName=gsi1sk,AttributeType=S \
			AttributeName=gsi2pk,AttributeType=S AttributeName=gsi2sk,AttributeType=S \
		--key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
		--global-secondary-indexes \
			'IndexName=gsi1,KeySchema=[{AttributeName=gsi1pk,KeyType=HASH},{AttributeName=gsi1sk,KeyType=RANGE}],Projection={ProjectionType=ALL}' \
			'IndexName=gsi2,KeySchema=[{AttributeName=gsi2pk,KeyType=HASH},{AttributeName=gsi2sk,KeyType=RANGE}],Projection={ProjectionType=ALL}' \
		--stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES >/dev/null
	awslocal dynamodb wait table-exists --table-name "$TABLE"
	awslocal dynamodb update-time-to-live --table-name "$TABLE" \
		--time-to-live-specification Enabled=true,AttributeName=ttl >/dev/null
fi
echo "tenger: table $TABLE ready"
