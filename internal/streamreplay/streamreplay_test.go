package streamreplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"tenger/internal/awslambda"
	"tenger/internal/store"
)

const streamArn = "arn:aws:dynamodb:ap-northeast-2:123456789012:table/tenger-dev/stream/2026-12-01T00:00:00.000"

type fakeQueue struct {
	mu       sync.Mutex
	messages []sqstypes.Message
	deleted  []string
}

func (q *fakeQueue) ReceiveMessage(context.Context, *sqs.ReceiveMessageInput, ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []sqstypes.Message
	for _, m := range q.messages {
		gone := false
		for _, d := range q.deleted {
			gone = gone || d == aws.ToString(m.ReceiptHandle)
		}
		if !gone {
			out = append(out, m)
		}
	}
	return &sqs.ReceiveMessageOutput{Messages: out}, nil
}

func (q *fakeQueue) DeleteMessage(_ context.Context, in *sqs.DeleteMessageInput, _ ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.deleted = append(q.deleted, aws.ToString(in.ReceiptHandle))
	return &sqs.DeleteMessageOutput{}, nil
}

// fakeStreams holds one shard's records by sequence number; shard
// "trimmed" has lost them.
type fakeStreams struct{ records []streamtypes.Record }

func (s *fakeStreams) GetShardIterator(_ context.Context, in *dynamodbstreams.GetShardIteratorInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetShardIteratorOutput, error) {
	if aws.ToString(in.ShardId) == "trimmed" {
		return nil, &streamtypes.TrimmedDataAccessException{Message: aws.String("trimmed")}
	}
	return &dynamodbstreams.GetShardIteratorOutput{ShardIterator: aws.String("at:" + aws.ToString(in.SequenceNumber))}, nil
}

func (s *fakeStreams) GetRecords(_ context.Context, in *dynamodbstreams.GetRecordsInput, _ ...func(*dynamodbstreams.Options)) (*dynamodbstreams.GetRecordsOutput, error) {
	var start string
	fmt.Sscanf(aws.ToString(in.ShardIterator), "at:%s", &start)
	var out []streamtypes.Record
	for _, r := range s.records {
		if aws.ToString(r.Dynamodb.SequenceNumber) >= start {
			out = append(out, r)
		}
	}
	// One record a page, to walk the iterator.
	if len(out) > 1 {
		next := aws.ToString(out[1].Dynamodb.SequenceNumber)
		return &dynamodbstreams.GetRecordsOutput{Records: out[:1], NextShardIterator: aws.String("at:" + next)}, nil
	}
	return &dynamodbstreams.GetRecordsOutput{Records: out}, nil
}

// fakeLambda runs each record through the change reader the functions
// use, and answers a failure for batches holding failPK.
type fakeLambda struct {
	changes []store.Change
	failPK  string
	calls   int
}

func (f *fakeLambda) Invoke(_ context.Context, in *lambda.InvokeInput, _ ...func(*lambda.Options)) (*lambda.InvokeOutput, error) {
	f.calls++
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(in.Payload, &ev); err != nil {
		return nil, err
	}
	var resp events.DynamoDBEventResponse
	for _, r := range ev.Records {
		ch, err := awslambda.ChangeFromStreamRecord(r)
		if err != nil {
			return nil, err
		}
		f.changes = append(f.changes, ch)
		if ch.Key.PK == f.failPK {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: r.Change.SequenceNumber})
		}
	}
	b, _ := json.Marshal(resp)
	return &lambda.InvokeOutput{Payload: b}, nil
}

func record(seq, pk string, qty string) streamtypes.Record {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	keys := map[string]streamtypes.AttributeValue{"pk": &streamtypes.AttributeValueMemberS{Value: pk}, "sk": &streamtypes.AttributeValueMemberS{Value: "O"}}
	img := map[string]streamtypes.AttributeValue{"pk": keys["pk"], "sk": keys["sk"],
		"volume": &streamtypes.AttributeValueMemberN{Value: qty},
		"tags":   &streamtypes.AttributeValueMemberL{Value: []streamtypes.AttributeValue{&streamtypes.AttributeValueMemberS{Value: "a"}}},
		"meta":   &streamtypes.AttributeValueMemberM{Value: map[string]streamtypes.AttributeValue{"ok": &streamtypes.AttributeValueMemberBOOL{Value: true}}}}
	return streamtypes.Record{EventID: aws.String("e" + seq), EventName: streamtypes.OperationTypeInsert, EventVersion: aws.String("1.1"),
		Dynamodb: &streamtypes.StreamRecord{Keys: keys, NewImage: img, SequenceNumber: aws.String(seq), SizeBytes: aws.Int64(120),
			StreamViewType: streamtypes.StreamViewTypeNewAndOldImages, ApproximateCreationDateTime: &at}}
}

func pointer(shard, start, end string) string {
	return fmt.Sprintf(`{"requestContext":{"requestId":"r1","functionArn":"arn:aws:lambda:ap-northeast-2:123456789012:function:stream","condition":"RetryAttemptsExhausted","approximateInvokeCount":11},`+
		`"responseContext":{"statusCode":200,"executedVersion":"$LATEST","functionError":"Unhandled"},"version":"1.0","timestamp":"2026-12-06T10:05:00.000Z",`+
		`"DDBStreamBatchInfo":{"shardId":%q,"startSequenceNumber":%q,"endSequenceNumber":%q,"approximateArrivalOfFirstRecord":"2026-12-06T10:00:00Z","approximateArrivalOfLastRecord":"2026-12-06T10:00:01Z","batchSize":2,"streamArn":%q}}`,
		shard, start, end, streamArn)
}

func msg(id, body string) sqstypes.Message {
	return sqstypes.Message{MessageId: aws.String(id), ReceiptHandle: aws.String("rh-" + id), Body: aws.String(body)}
}

// TestReplay: a pointer's records (and only those, across pages) reach the
// function as Lambda would hand them (the functions' change reader reads
// keys, numbers, lists and maps back); a batch the function takes is
// deleted; one it fails, one that left the stream, and a body that is no
// pointer stay, with their reasons; a dry run invokes and deletes nothing.
func TestReplay(t *testing.T) {
	ctx := context.Background()
	st := &fakeStreams{records: []streamtypes.Record{
		record("100000000000000000001", "SORD#1", "0.5"), record("100000000000000000002", "BAL#10000001", "12.25"),
		record("100000000000000000003", "SORD#2", "1"), record("100000000000000000004", "SORD#FAIL", "1"),
	}}
	q := &fakeQueue{messages: []sqstypes.Message{
		msg("ok", pointer("shard-1", "100000000000000000001", "100000000000000000002")),
		msg("fails", pointer("shard-1", "100000000000000000003", "100000000000000000004")),
		msg("trimmed", pointer("trimmed", "1", "2")),
		msg("junk", `{"hello":1}`),
	}}
	fn := &fakeLambda{failPK: "SORD#FAIL"}

	dry := Replayer{Queue: q, QueueURL: "q", Streams: st, Lambda: fn, Function: "stream", Region: "ap-northeast-2", DryRun: true}
	outs, err := dry.Run(ctx)
	if err != nil || len(outs) != 4 || fn.calls != 0 || len(q.deleted) != 0 || outs[0].Records != 2 {
		t.Fatalf("dry run: %+v %v, %d calls, deleted %v", outs, err, fn.calls, q.deleted)
	}

	r := dry
	r.DryRun = false
	outs, err = r.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Outcome{}
	for _, o := range outs {
		by[o.MessageID] = o
	}
	if o := by["ok"]; !o.Replayed || o.Records != 2 || o.Err != nil {
		t.Errorf("ok: %+v", o)
	}
	if o := by["fails"]; o.Replayed || o.Err == nil {
		t.Errorf("fails: %+v", o)
	}
	if o := by["trimmed"]; o.Replayed || !errors.Is(o.Err, ErrGoneFromStream) {
		t.Errorf("trimmed: %+v", o)
	}
	if o := by["junk"]; o.Replayed || o.Err == nil {
		t.Errorf("junk: %+v", o)
	}
	if len(q.deleted) != 1 || q.deleted[0] != "rh-ok" {
		t.Fatalf("deleted %v", q.deleted)
	}
	ch := fn.changes[0]
	if ch.Key.PK != "SORD#1" || ch.Kind != store.ChangeInsert || ch.New.Dec("volume").String() != "0.5" {
		t.Fatalf("first change %+v", ch)
	}
	if fn.changes[1].Key.PK != "BAL#10000001" || fn.changes[1].New.Dec("volume").String() != "12.25" {
		t.Fatalf("second change %+v", fn.changes[1])
	}
	if m, _ := ch.New["meta"].(map[string]any); m["ok"] != true {
		t.Fatalf("map attribute %#v", ch.New["meta"])
	}
}
