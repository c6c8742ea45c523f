package fntest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tenger/internal/store"
	"tenger/internal/store/dynamo"
)

// StreamEvent is the DynamoDB stream batch (NEW_AND_OLD_IMAGES) Lambda
// would hand the stream function for these store changes, in order: each
// image is the item as the DynamoDB adapter writes it (dynamo.MarshalItem),
// so awslambda.ChangeFromStreamRecord reads the change back. A change
// without an ID gets a sequence number after every one given before.
func StreamEvent(t testing.TB, chs ...store.Change) events.DynamoDBEvent {
	t.Helper()
	ev := events.DynamoDBEvent{Records: make([]events.DynamoDBEventRecord, 0, len(chs))}
	for _, ch := range chs {
		if ch.ID == "" {
			ch.ID = fmt.Sprintf("5555%022d", streamSeq.Add(1))
		}
		ev.Records = append(ev.Records, StreamRecord(t, ch))
	}
	return ev
}

// streamSeq numbers the records of changes without an ID.
var streamSeq atomic.Int64

// StreamRecord is one change's stream record (see StreamEvent).
func StreamRecord(t testing.TB, ch store.Change) events.DynamoDBEventRecord {
	t.Helper()
	at := ch.At
	if at == 0 {
		at = time.Now().UnixMilli()
	}
	return events.DynamoDBEventRecord{
		EventID: "fntest-" + ch.ID, EventName: string(ch.Kind), EventVersion: "1.1", EventSource: "aws:dynamodb",
		AWSRegion:      "ap-northeast-2",
		EventSourceArn: "arn:aws:dynamodb:ap-northeast-2:123456789012:table/tenger-fntest/stream/2026-11-21T08:00:00.000",
		Change: events.DynamoDBStreamRecord{
			ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.UnixMilli(at)},
			Keys: map[string]events.DynamoDBAttributeValue{
				store.AttrPK: events.NewStringAttribute(ch.Key.PK), store.AttrSK: events.NewStringAttribute(ch.Key.SK)},
			NewImage:       streamImage(t, ch.New),
			OldImage:       streamImage(t, ch.Old),
			SequenceNumber: ch.ID,
			StreamViewType: "NEW_AND_OLD_IMAGES",
		},
	}
}

func streamImage(t testing.TB, it store.Item) map[string]events.DynamoDBAttributeValue {
	t.Helper()
	if it == nil {
		return nil
	}
	m, err := dynamo.MarshalItem(it)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, av := range m {
		out[k] = streamValue(t, av)
	}
	return out
}

func streamValue(t testing.TB, av types.AttributeValue) events.DynamoDBAttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *types.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *types.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *types.AttributeValueMemberNULL:
		return events.NewNullAttribute()
	case *types.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value)
	case *types.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value)
	case *types.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value)
	case *types.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value)
	case *types.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = streamValue(t, e)
		}
		return events.NewListAttribute(l)
	case *types.AttributeValueMemberM:
		m := make(map[string]events.DynamoDBAttributeValue, len(v.Value))
		for k, e := range v.Value {
			m[k] = streamValue(t, e)
		}
		return events.NewMapAttribute(m)
	}
	t.Fatalf("stream image: attribute value %T", av)
	return events.DynamoDBAttributeValue{}
}
