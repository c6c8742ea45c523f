// Package streamreplay replays the table-stream batches a stream consumer
// gave up on. When a Lambda function on a DynamoDB stream keeps failing a
// batch (the stream function, wfstart), the event source mapping writes a
// pointer to it into the function's failure queue: the shard and the first
// and last sequence numbers, not the records. Replay reads each pointer,
// fetches those records from the stream (it keeps them 24 hours), invokes
// the function with them as Lambda would, and deletes the pointer once the
// function took the whole batch. A pointer whose records have left the
// stream, or whose batch fails again, stays in the queue and is reported.
package streamreplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// Queue is the failure queue (*sqs.Client has it).
type Queue interface {
	ReceiveMessage(ctx context.Context, in *sqs.ReceiveMessageInput, opts ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(ctx context.Context, in *sqs.DeleteMessageInput, opts ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error)
}

// Streams reads the table's stream (*dynamodbstreams.Client has it).
type Streams interface {
	GetShardIterator(ctx context.Context, in *dynamodbstreams.GetShardIteratorInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error)
	GetRecords(ctx context.Context, in *dynamodbstreams.GetRecordsInput, opts ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error)
}

// Invoker invokes the function (*lambda.Client has it).
type Invoker interface {
	Invoke(ctx context.Context, in *lambda.InvokeInput, opts ...func(*lambda.Options)) (*lambda.InvokeOutput, error)
}

// Pointer is what an event source mapping writes to its failure
// destination for a DynamoDB stream batch.
type Pointer struct {
	RequestContext struct {
		FunctionArn string `json:"functionArn"`
		Condition   string `json:"condition"`
	} `json:"requestContext"`
	Batch struct {
		ShardID       string `json:"shardId"`
		StartSequence string `json:"startSequenceNumber"`
		EndSequence   string `json:"endSequenceNumber"`
		BatchSize     int    `json:"batchSize"`
		StreamArn     string `json:"streamArn"`
	} `json:"DDBStreamBatchInfo"`
}

// Outcome of one pointer.
type Outcome struct {
	MessageID string
	Records   int
	// Replayed is true when the function took the whole batch and the
	// pointer was deleted; Err says why not.
	Replayed bool
	Err      error
}

// Replayer replays a queue's pointers into a function.
type Replayer struct {
	Queue    Queue
	QueueURL string
	Streams  Streams
	Lambda   Invoker
	Function string
	// Region is written into the records' awsRegion.
	Region string
	// DryRun reads and reports, invokes nothing and deletes nothing.
	DryRun bool
}

// ErrGoneFromStream: the batch's records are no longer in the stream.
var ErrGoneFromStream = errors.New("streamreplay: the records have left the stream (it keeps them 24 hours)")

// Run replays every pointer in the queue once and reports each. It stops
// when a receive finds the queue empty.
func (r Replayer) Run(ctx context.Context) ([]Outcome, error) {
	var out []Outcome
	seen := map[string]bool{}
	for {
		res, err := r.Queue.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(r.QueueURL),
			MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 300})
		if err != nil {
			return out, fmt.Errorf("streamreplay: receive: %w", err)
		}
		fresh := 0
		for _, m := range res.Messages {
			id := aws.ToString(m.MessageId)
			if seen[id] {
				continue // a pointer kept earlier in this run, visible again
			}
			seen[id] = true
			fresh++
			o := r.replay(ctx, aws.ToString(m.Body))
			o.MessageID = id
			if o.Replayed && !r.DryRun {
				if _, err := r.Queue.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(r.QueueURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
					o.Replayed, o.Err = false, fmt.Errorf("delete the pointer: %w", err)
				}
			}
			out = append(out, o)
		}
		if fresh == 0 {
			return out, nil
		}
	}
}

// replay handles one pointer.
func (r Replayer) replay(ctx context.Context, body string) Outcome {
	var p Pointer
	if err := json.Unmarshal([]byte(body), &p); err != nil || p.Batch.StreamArn == "" || p.Batch.ShardID == "" {
		return Outcome{Err: fmt.Errorf("not a stream batch pointer: %v", err)}
	}
	recs, err := r.records(ctx, p)
	if err != nil {
		return Outcome{Err: err}
	}
	o := Outcome{Records: len(recs)}
	if r.DryRun {
		return o
	}
	payload, err := json.Marshal(events.DynamoDBEvent{Records: recs})
	if err != nil {
		o.Err = err
		return o
	}
	res, err := r.Lambda.Invoke(ctx, &lambda.InvokeInput{FunctionName: aws.String(r.Function), Payload: payload,
		InvocationType: lambdatypes.InvocationTypeRequestResponse})
	if err != nil {
		o.Err = fmt.Errorf("invoke: %w", err)
		return o
	}
	if res.FunctionError != nil {
		o.Err = fmt.Errorf("the function failed: %s: %s", aws.ToString(res.FunctionError), res.Payload)
		return o
	}
	var answer events.DynamoDBEventResponse
	if len(res.Payload) > 0 && json.Unmarshal(res.Payload, &answer) == nil && len(answer.BatchItemFailures) > 0 {
		o.Err = fmt.Errorf("the function failed the batch from record %s", answer.BatchItemFailures[0].ItemIdentifier)
		return o
	}
	o.Replayed = true
	return o
}

// records reads the pointer's records from the stream, in order.
func (r Replayer) records(ctx context.Context, p Pointer) ([]events.DynamoDBEventRecord, error) {
	end, ok := new(big.Int).SetString(p.Batch.EndSequence, 10)
	if !ok {
		return nil, fmt.Errorf("bad end sequence number %q", p.Batch.EndSequence)
	}
	it, err := r.Streams.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
		StreamArn: aws.String(p.Batch.StreamArn), ShardId: aws.String(p.Batch.ShardID),
		ShardIteratorType: streamtypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String(p.Batch.StartSequence),
	})
	var trimmed *streamtypes.TrimmedDataAccessException
	var missing *streamtypes.ResourceNotFoundException
	if errors.As(err, &trimmed) || errors.As(err, &missing) {
		return nil, ErrGoneFromStream
	}
	if err != nil {
		return nil, fmt.Errorf("shard iterator: %w", err)
	}
	iter := it.ShardIterator
	var out []events.DynamoDBEventRecord
	for iter != nil {
		page, err := r.Streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(1000)})
		if errors.As(err, &trimmed) {
			return nil, ErrGoneFromStream
		}
		if err != nil {
			return nil, fmt.Errorf("records: %w", err)
		}
		for _, rec := range page.Records {
			seq, _ := new(big.Int).SetString(aws.ToString(rec.Dynamodb.SequenceNumber), 10)
			if seq == nil || seq.Cmp(end) > 0 {
				return out, nil
			}
			out = append(out, eventRecord(rec, p.Batch.StreamArn, r.Region))
		}
		if len(page.Records) == 0 {
			// An open shard with nothing more yet: the batch ended earlier.
			return out, nil
		}
		iter = page.NextShardIterator
	}
	return out, nil
}

// eventRecord is a stream record as Lambda hands it to a function.
func eventRecord(rec streamtypes.Record, streamArn, region string) events.DynamoDBEventRecord {
	d := rec.Dynamodb
	out := events.DynamoDBEventRecord{
		EventID: aws.ToString(rec.EventID), EventName: string(rec.EventName), EventVersion: aws.ToString(rec.EventVersion),
		EventSource: "aws:dynamodb", AWSRegion: region, EventSourceArn: streamArn,
		Change: events.DynamoDBStreamRecord{
			Keys: attrs(d.Keys), NewImage: attrs(d.NewImage), OldImage: attrs(d.OldImage),
			SequenceNumber: aws.ToString(d.SequenceNumber), SizeBytes: aws.ToInt64(d.SizeBytes),
			StreamViewType: string(d.StreamViewType),
		},
	}
	if d.ApproximateCreationDateTime != nil {
		out.Change.ApproximateCreationDateTime = events.SecondsEpochTime{Time: d.ApproximateCreationDateTime.Truncate(time.Second)}
	}
	return out
}

func attrs(m map[string]streamtypes.AttributeValue) map[string]events.DynamoDBAttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, v := range m {
		out[k] = attr(v)
	}
	return out
}

func attr(v streamtypes.AttributeValue) events.DynamoDBAttributeValue {
	switch a := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return events.NewStringAttribute(a.Value)
	case *streamtypes.AttributeValueMemberN:
		return events.NewNumberAttribute(a.Value)
	case *streamtypes.AttributeValueMemberB:
		return events.NewBinaryAttribute(a.Value)
	case *streamtypes.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(a.Value)
	case *streamtypes.AttributeValueMemberNULL:
		return events.NewNullAttribute()
	case *streamtypes.AttributeValueMemberSS:
		return events.NewStringSetAttribute(a.Value)
	case *streamtypes.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(a.Value)
	case *streamtypes.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(a.Value)
	case *streamtypes.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(a.Value))
		for i, e := range a.Value {
			l[i] = attr(e)
		}
		return events.NewListAttribute(l)
	case *streamtypes.AttributeValueMemberM:
		return events.NewMapAttribute(attrs(a.Value))
	}
	return events.NewNullAttribute()
}
