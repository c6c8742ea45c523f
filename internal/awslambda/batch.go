package awslambda

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
)

// DynamoDBRecordFunc processes one stream record; an error stops the batch.
type DynamoDBRecordFunc func(ctx context.Context, rec events.DynamoDBEventRecord) error

// DynamoDBFunc is the Lambda handler signature for a DynamoDB stream event
// source mapping with ReportBatchItemFailures on.
type DynamoDBFunc func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error)

// DynamoDBBatch runs fn on the records of a stream batch in order and stops at
// the first failure, reporting its sequence number: Lambda then checkpoints
// everything before it and retries from it, so changes of one item are never
// applied out of order and records after the failure are not processed twice.
// Each record is logged under the correlation id stored on the item
// (ItemAttrCorrelationID in the new image, or the old one on removal).
func (r *Runtime) DynamoDBBatch(fn DynamoDBRecordFunc) DynamoDBFunc {
	return func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		inv := r.start(ctx)
		resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
		for _, rec := range ev.Records {
			rctx, log := inv.scope(ctx, streamCorrelationID(rec), "event_id", rec.EventID, "event_name", rec.EventName)
			if err := runRecord(rctx, log, func() error { return fn(rctx, rec) }); err != nil {
				resp.BatchItemFailures = append(resp.BatchItemFailures,
					events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
				break
			}
		}
		return resp, nil
	}
}

func streamCorrelationID(rec events.DynamoDBEventRecord) string {
	for _, img := range []map[string]events.DynamoDBAttributeValue{rec.Change.NewImage, rec.Change.OldImage} {
		if v, ok := img[ItemAttrCorrelationID]; ok && v.DataType() == events.DataTypeString {
			return v.String()
		}
	}
	return ""
}

// runRecord runs one record's work, turning a panic into a failure so the
// rest of the batch is still reported correctly.
func runRecord(ctx context.Context, log zerolog.Logger, work func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		if err != nil {
			log.Error().Err(err).Msg("record failed")
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	return work()
}
