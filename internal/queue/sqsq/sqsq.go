// Package sqsq is the SQS FIFO adapter of the queue port for the AWS
// runtime. Ordering, in-flight blocking of a group, visibility and
// deduplication are SQS's own; the dead-letter move is configured on the
// queue (redrive policy with maxReceiveCount), so reading the dead-letter
// queue is simply another Queue on its URL.
//
// The SDK leaves zero-valued WaitTimeSeconds and VisibilityTimeout out of a
// ReceiveMessage request, so SQS then applies the queue's own defaults:
// create the queues with ReceiveMessageWaitTimeSeconds = 0 so that a Receive
// with no wait returns at once (the CDK stack does), and so that the follow-up
// requests of a large Receive (below) do not wait.
//
// Batches: SQS carries at most ten messages per request (queue.MaxBatch).
// SendBatch and DeleteBatch split a larger batch into requests of ten;
// Receive asks for ten and, while a request came back full and max is not
// reached, asks again without waiting, so the engine's batch of 256 can be
// filled in one Receive. FIFO order holds across those requests: SQS returns
// no message of a group while an earlier message of that group is in flight,
// and everything the first requests returned is in flight when the next is
// made, so a group's messages all come from one request, in order. (The
// flip side: one group contributes at most ten messages to a Receive.)
package sqsq

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
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
	DeleteMessageBatch(ctx context.Context, in *sqs.DeleteMessageBatchInput, optFns ...func(*sqs.Options)) (*sqs.DeleteMessageBatchOutput, error)
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
// by repeated long polls. Once a request returned messages, further
// requests (no wait) fill the batch up to max while each came back full;
// see the package doc for why group order holds across them.
func (q *Queue) Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	if max <= 0 || visibility < 0 || wait < 0 {
		return nil, fmt.Errorf("%w: max must be positive and durations not negative", queue.ErrInvalid)
	}
	end := time.Now().Add(wait)
	var ds []queue.Delivery
	for {
		w := time.Until(end)
		if w > maxWait {
			w = maxWait
		}
		n := min(max, queue.MaxBatch)
		got, err := q.receiveOnce(ctx, n, visibility, w)
		if err != nil {
			return nil, err
		}
		if len(got) > 0 {
			ds = got
			if len(got) == n {
				ds = q.fill(ctx, ds, max, visibility)
			}
			return ds, nil
		}
		if time.Until(end) < time.Second {
			return nil, nil
		}
	}
}

// fill adds to ds, without waiting, while the last request came back full.
// A failed follow-up request ends the fill and ds is returned without an
// error: its messages are in flight and would otherwise be lost until their
// visibility ends (a lasting failure shows on the next Receive).
func (q *Queue) fill(ctx context.Context, ds []queue.Delivery, max int, visibility time.Duration) []queue.Delivery {
	for len(ds) < max {
		n := min(max-len(ds), queue.MaxBatch)
		got, err := q.receiveOnce(ctx, n, visibility, 0)
		ds = append(ds, got...)
		if err != nil || len(got) < n {
			break
		}
	}
	return ds
}

// receiveOnce is one ReceiveMessage request of at most queue.MaxBatch
// messages. A message that does not decode fails the request, but the
// messages before it are returned with the error.
func (q *Queue) receiveOnce(ctx context.Context, n int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	out, err := q.api.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl:              &q.url,
		MaxNumberOfMessages:   int32(n),
		VisibilityTimeout:     seconds(visibility),
		WaitTimeSeconds:       seconds(wait),
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
	ds := make([]queue.Delivery, 0, len(out.Messages))
	for _, m := range out.Messages {
		d, err := decode(m)
		if err != nil {
			return ds, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// Delete implements queue.Queue.
func (q *Queue) Delete(ctx context.Context, receipt string) error {
	_, err := q.api.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &q.url, ReceiptHandle: &receipt})
	if err != nil {
		return mapReceiptErr("sqs delete", err)
	}
	return nil
}

// DeleteBatch implements queue.Queue with DeleteMessageBatch requests of
// up to ten entries. Every request is made even when an earlier one
// failed; the *queue.BatchError names each failed entry by its index in
// receipts, with SQS's code (an invalid receipt wraps
// queue.ErrInvalidReceipt), or the request's error for all of a failed
// request's entries.
func (q *Queue) DeleteBatch(ctx context.Context, receipts []string) error {
	var failed []queue.BatchFailure
	for start := 0; start < len(receipts); start += queue.MaxBatch {
		chunk := receipts[start:min(start+queue.MaxBatch, len(receipts))]
		entries := make([]types.DeleteMessageBatchRequestEntry, len(chunk))
		for i := range chunk {
			entries[i] = types.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(start + i)), ReceiptHandle: aws.String(chunk[i])}
		}
		out, err := q.api.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &q.url, Entries: entries})
		if err != nil {
			err = mapReceiptErr("sqs delete batch", err)
			for i := range chunk {
				failed = append(failed, queue.BatchFailure{Index: start + i, Err: err})
			}
			continue
		}
		for _, f := range out.Failed {
			idx, perr := strconv.Atoi(aws.ToString(f.Id))
			if perr != nil || idx < start || idx >= start+len(chunk) {
				idx = -1 // not an id we sent; still reported
			}
			failed = append(failed, queue.BatchFailure{Index: idx, Err: entryErr(aws.ToString(f.Code), aws.ToString(f.Message))})
		}
	}
	if len(failed) == 0 {
		return nil
	}
	sort.SliceStable(failed, func(i, j int) bool { return failed[i].Index < failed[j].Index })
	return &queue.BatchError{Op: "sqs delete batch", Total: len(receipts), Failed: failed}
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
	if errors.As(err, &apiErr) && receiptCode(apiErr.ErrorCode()) {
		return fmt.Errorf("%s: %w: %s", op, queue.ErrInvalidReceipt, apiErr.ErrorMessage())
	}
	return fmt.Errorf("%s: %w", op, err)
}

// receiptCode reports whether an SQS error code means the receipt handle
// was refused.
func receiptCode(code string) bool {
	switch code {
	case "ReceiptHandleIsInvalid", "MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight",
		"InvalidParameterValue", "InvalidIdFormat":
		return true
	}
	return false
}

// entryErr is the error of one failed entry of a batch response.
func entryErr(code, msg string) error {
	if receiptCode(code) {
		return fmt.Errorf("%w: %s: %s", queue.ErrInvalidReceipt, code, msg)
	}
	return fmt.Errorf("%s: %s", code, msg)
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
