// Package sqsq is the SQS FIFO adapter of the queue port for the AWS
// runtime. Ordering, in-flight blocking of a group, visibility and
// deduplication are SQS's own; the dead-letter move is configured on the
// queue (redrive policy with maxReceiveCount), so reading the dead-letter
// queue is simply another Queue on its URL.
//
// The SDK leaves zero-valued WaitTimeSeconds and VisibilityTimeout out of a
// ReceiveMessage request, so SQS then applies the queue's own defaults:
// create the queues with ReceiveMessageWaitTimeSeconds = 0 so that a Receive
// with no wait returns at once (the CDK stack does).
package sqsq

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"

	"tenger/internal/queue"
)

// API is the part of the SQS client the adapter uses (*sqs.Client has it).
type API interface {
	SendMessage(ctx context.Context, in *sqs.SendMessageInput, optFns ...func(*sqs.Options)) (*sqs.SendMessageOutput, error)
	SendMessageBatch(ctx context.Context, in *sqs.SendMessageBatchInput, optFns ...func(*sqs.Options)) (*sqs.SendMessageBatchOutput, error)
	ReceiveMessage(ctx context.Context, in *sqs.ReceiveMessageInput, optFns ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(ctx context.Context, in *sqs.DeleteMessageInput, optFns ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error)
	ChangeMessageVisibility(ctx context.Context, in *sqs.ChangeMessageVisibilityInput, optFns ...func(*sqs.Options)) (*sqs.ChangeMessageVisibilityOutput, error)
}

// BodyEncodingAttr marks a body that was base64-encoded because SQS accepts
// only XML-safe text; the adapter decodes and strips it on receive.
const BodyEncodingAttr = "tenger-body-encoding"

// maxWait is SQS's longest long poll.
const maxWait = 20 * time.Second

// Queue is one SQS FIFO queue. It implements queue.Queue.
type Queue struct {
	api API
	url string
}

var _ queue.Queue = (*Queue)(nil)

// New returns the adapter for the FIFO queue at url.
func New(api API, url string) *Queue { return &Queue{api: api, url: url} }

// URL returns the queue URL.
func (q *Queue) URL() string { return q.url }

// Send implements queue.Queue.
func (q *Queue) Send(ctx context.Context, m queue.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	body, attrs := encode(m)
	_, err := q.api.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               &q.url,
		MessageBody:            &body,
		MessageGroupId:         aws.String(m.Group),
		MessageDeduplicationId: aws.String(dedupID(m)),
		MessageAttributes:      attrs,
	})
	if err != nil {
		return fmt.Errorf("sqs send: %w", err)
	}
	return nil
}

// SendBatch implements queue.Queue in requests of up to ten messages. SQS
// keeps the order of entries of one request within a group; requests are
// sent one after another, so slice order is kept across them too.
func (q *Queue) SendBatch(ctx context.Context, ms []queue.Message) error {
	for _, m := range ms {
		if err := m.Validate(); err != nil {
			return err
		}
	}
	for start := 0; start < len(ms); start += queue.MaxBatch {
		chunk := ms[start:min(start+queue.MaxBatch, len(ms))]
		entries := make([]types.SendMessageBatchRequestEntry, len(chunk))
		for i, m := range chunk {
			body, attrs := encode(m)
			entries[i] = types.SendMessageBatchRequestEntry{
				Id:                     aws.String(strconv.Itoa(i)),
				MessageBody:            aws.String(body),
				MessageGroupId:         aws.String(m.Group),
				MessageDeduplicationId: aws.String(dedupID(m)),
				MessageAttributes:      attrs,
			}
		}
		out, err := q.api.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &q.url, Entries: entries})
		if err != nil {
			return fmt.Errorf("sqs send batch: %w", err)
		}
		if len(out.Failed) > 0 {
			f := out.Failed[0]
			// Entries after a failed one may have been accepted; dedup ids
			// make the caller's retry of the whole batch safe.
			return fmt.Errorf("sqs send batch: %d of %d entries failed, first %s: %s", len(out.Failed), len(chunk),
				aws.ToString(f.Code), aws.ToString(f.Message))
		}
	}
	return nil
}

// Receive implements queue.Queue. Waits longer than SQS's 20 s are served
// by repeated long polls.
func (q *Queue) Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	if max <= 0 || visibility < 0 || wait < 0 {
		return nil, fmt.Errorf("%w: max must be positive and durations not negative", queue.ErrInvalid)
	}
	end := time.Now().Add(wait)
	for {
		w := time.Until(end)
		if w > maxWait {
			w = maxWait
		}
		out, err := q.api.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:              &q.url,
			MaxNumberOfMessages:   int32(min(max, queue.MaxBatch)),
			VisibilityTimeout:     seconds(visibility),
			WaitTimeSeconds:       seconds(w),
			MessageAttributeNames: []string{"All"},
			MessageSystemAttributeNames: []types.MessageSystemAttributeName{
				types.MessageSystemAttributeNameApproximateReceiveCount,
				types.MessageSystemAttributeNameSentTimestamp,
				types.MessageSystemAttributeNameMessageGroupId,
				types.MessageSystemAttributeNameMessageDeduplicationId,
			},
		})
		if err != nil {
			return nil, fmt.Errorf("sqs receive: %w", err)
		}
		if len(out.Messages) > 0 {
			ds := make([]queue.Delivery, 0, len(out.Messages))
			for _, m := range out.Messages {
				d, err := decode(m)
				if err != nil {
					return nil, err
				}
				ds = append(ds, d)
			}
			return ds, nil
		}
		if time.Until(end) < time.Second {
			return nil, nil
		}
	}
}

// Delete implements queue.Queue.
func (q *Queue) Delete(ctx context.Context, receipt string) error {
	_, err := q.api.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &q.url, ReceiptHandle: &receipt})
	if err != nil {
		return mapReceiptErr("sqs delete", err)
	}
	return nil
}

// ChangeVisibility implements queue.Queue.
func (q *Queue) ChangeVisibility(ctx context.Context, receipt string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: negative visibility", queue.ErrInvalid)
	}
	_, err := q.api.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{
		QueueUrl: &q.url, ReceiptHandle: &receipt, VisibilityTimeout: seconds(d),
	})
	if err != nil {
		return mapReceiptErr("sqs change visibility", err)
	}
	return nil
}

// mapReceiptErr turns SQS's ways of rejecting a receipt into
// queue.ErrInvalidReceipt.
func mapReceiptErr(op string, err error) error {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "ReceiptHandleIsInvalid", "MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight",
			"InvalidParameterValue", "InvalidIdFormat":
			return fmt.Errorf("%s: %w: %s", op, queue.ErrInvalidReceipt, apiErr.ErrorMessage())
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// seconds rounds a duration up to whole seconds, SQS's unit.
func seconds(d time.Duration) int32 {
	return int32((d + time.Second - 1) / time.Second)
}

// dedupID returns the message's dedup id, or a random one: a FIFO queue
// without content-based deduplication requires one, and the port promises
// no deduplication for an empty DedupID.
func dedupID(m queue.Message) string {
	if m.DedupID != "" {
		return m.DedupID
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sqsSafe reports whether SQS accepts s as a message body: valid UTF-8 of
// the characters #x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000-#x10FFFF.
func sqsSafe(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		switch {
		case r == 0x9 || r == 0xA || r == 0xD:
		case r >= 0x20 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
	}
	return true
}

func encode(m queue.Message) (string, map[string]types.MessageAttributeValue) {
	var attrs map[string]types.MessageAttributeValue
	if len(m.Attributes) > 0 {
		attrs = make(map[string]types.MessageAttributeValue, len(m.Attributes)+1)
		for k, v := range m.Attributes {
			attrs[k] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(v)}
		}
	}
	if sqsSafe(m.Body) {
		return string(m.Body), attrs
	}
	if attrs == nil {
		attrs = map[string]types.MessageAttributeValue{}
	}
	attrs[BodyEncodingAttr] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String("base64")}
	return base64.StdEncoding.EncodeToString(m.Body), attrs
}

func decode(m types.Message) (queue.Delivery, error) {
	d := queue.Delivery{
		ID:            aws.ToString(m.MessageId),
		ReceiptHandle: aws.ToString(m.ReceiptHandle),
	}
	d.Group = m.Attributes[string(types.MessageSystemAttributeNameMessageGroupId)]
	d.DedupID = m.Attributes[string(types.MessageSystemAttributeNameMessageDeduplicationId)]
	d.ReceiveCount, _ = strconv.Atoi(m.Attributes[string(types.MessageSystemAttributeNameApproximateReceiveCount)])
	if ms, err := strconv.ParseInt(m.Attributes[string(types.MessageSystemAttributeNameSentTimestamp)], 10, 64); err == nil {
		d.SentAt = time.UnixMilli(ms)
	}
	body := aws.ToString(m.Body)
	encoding := ""
	for k, v := range m.MessageAttributes {
		if k == BodyEncodingAttr {
			encoding = aws.ToString(v.StringValue)
			continue
		}
		if d.Attributes == nil {
			d.Attributes = make(map[string]string, len(m.MessageAttributes))
		}
		d.Attributes[k] = aws.ToString(v.StringValue)
	}
	if encoding == "base64" {
		b, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			return d, fmt.Errorf("sqs receive: message %s: bad base64 body: %w", d.ID, err)
		}
		d.Body = b
	} else {
		d.Body = []byte(body)
	}
	return d, nil
}
