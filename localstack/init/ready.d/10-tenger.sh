#!/bin/bash
# LocalStack init hook (runs inside the container once the services are
# ready): the Tenger table and queues, mirroring stacks/data.go and
# stacks/queues.go and internal/store/dynamo.CreateTable. Idempotent, so a
# restarted container with persistence does not fail.
set -euo pipefail

TABLE="${TABLE_NAME:-tenger}"
PREFIX="${QUEUE_PREFIX:-tenger}"
MAX_RECEIVES=5 # stacks/queues.go maxReceives

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

# fifo_with_dlq NAME: NAME.fifo with NAME-dlq.fifo as its dead-letter queue.
fifo_with_dlq() {
	local name="$1" dlq_url dlq_arn
	dlq_url="$(awslocal sqs create-queue --queue-name "$name-dlq.fifo" \
		--attributes FifoQueue=true,ContentBasedDeduplication=false,MessageRetentionPeriod=1209600 \
		--query QueueUrl --output text)"
	dlq_arn="$(awslocal sqs get-queue-attributes --queue-url "$dlq_url" \
		--attribute-names QueueArn --query Attributes.QueueArn --output text)"
	cat >/tmp/"$name"-attrs.json <<JSON
{
  "FifoQueue": "true",
  "ContentBasedDeduplication": "false",
  "DeduplicationScope": "messageGroup",
  "FifoThroughputLimit": "perMessageGroupId",
  "VisibilityTimeout": "60",
  "ReceiveMessageWaitTimeSeconds": "0",
  "MessageRetentionPeriod": "345600",
  "RedrivePolicy": "{\"deadLetterTargetArn\":\"$dlq_arn\",\"maxReceiveCount\":\"$MAX_RECEIVES\"}"
}
JSON
	awslocal sqs create-queue --queue-name "$name.fifo" \
		--attributes file:///tmp/"$name"-attrs.json --query QueueUrl --output text
}

fifo_with_dlq "$PREFIX-orders"
echo "tenger: queues ready"
