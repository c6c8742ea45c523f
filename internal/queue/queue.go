// Package queue is the message-queue port of Tenger: a FIFO queue with
// message groups, at-least-once delivery, a visibility timeout and a
// dead-letter queue, shaped like an SQS FIFO queue.
//
// Semantics every adapter honours (and queuetest checks):
//   - Within one message group, messages are delivered in the order they were
//     sent. While any message of a group is in flight (received, not deleted,
//     visibility not expired), no later message of that group is delivered.
//     Different groups proceed independently.
//   - A received message that is not deleted before its visibility timeout
//     ends becomes visible again and is delivered again with a higher
//     ReceiveCount. Consumers must therefore be idempotent.
//   - A message that has been received MaxReceives times and is still not
//     deleted moves to the dead-letter queue instead of being delivered again.
//   - A message sent with the DedupID of a message sent in the previous
//     DedupWindow is accepted but not enqueued a second time.
//
// The embedded adapter (queue/embedded) backs the local binary and the SQS
// adapter (queue/sqsq) backs the AWS runtime.
package queue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// DedupWindow is how long a DedupID suppresses duplicates, as in SQS FIFO.
const DedupWindow = 5 * time.Minute

// MaxBatch is the largest number of messages one underlying SQS request
// carries (ReceiveMessage, SendMessageBatch, DeleteMessageBatch). The port's
// Receive, SendBatch and DeleteBatch take larger batches on every adapter:
// the SQS adapter splits or fills them with several requests.
const MaxBatch = 10

// Well-known attribute names.
const (
	// AttrCorrelationID carries the id that ties every hop of one request
	// together (HTTP request → queue → engine → events) for logs and traces.
	AttrCorrelationID = "correlation-id"
)

// Errors returned by every adapter. Callers test them with errors.Is.
var (
	// ErrInvalidReceipt: the receipt handle does not name a message that is
	// currently in flight under that receipt (it was deleted, its visibility
	// expired and it was received again, or the handle is malformed).
	ErrInvalidReceipt = errors.New("queue: invalid or stale receipt handle")
	// ErrInvalid: the request is malformed (missing group, empty body,
	// negative durations ...).
	ErrInvalid = errors.New("queue: invalid request")
	// ErrClosed: the queue was closed.
	ErrClosed = errors.New("queue: closed")
)

// Message is what a producer sends.
type Message struct {
	// Group orders messages: FIFO within a group, independent across groups
	// (for order commands, the symbol).
	Group string
	// DedupID suppresses a second copy sent within DedupWindow. Producers set
	// it to the idempotency key of what the message asks for (an order id),
	// so a retried send is harmless. Empty means no deduplication.
	DedupID string
	// Body is the payload (JSON in practice).
	Body []byte
	// Attributes are small string headers, e.g. AttrCorrelationID.
	Attributes map[string]string
	// Backed says the sender keeps its own durable copy of the message (an
	// outbox record written before the send) and sends it again if it is
	// lost, so the queue may accept it before it is durable: the embedded
	// queue then answers without waiting for an fsync, and makes the
	// message durable within a few milliseconds (or with the next write that
	// waits for one, as the log is written in order). It is not
	// transmitted; SQS ignores it (a send there is durable when answered).
	Backed bool
}

// Delivery is one received message.
type Delivery struct {
	Message
	// ID identifies the message for its whole life in this queue (the same
	// on every redelivery).
	ID string
	// ReceiptHandle names this receive; Delete and ChangeVisibility take it.
	ReceiptHandle string
	// ReceiveCount is 1 on the first delivery and grows on each redelivery.
	ReceiveCount int
	// SentAt is when the queue accepted the message.
	SentAt time.Time
}

// Queue is the port.
type Queue interface {
	// Send enqueues one message durably: once Send returns nil the message
	// survives a crash.
	Send(ctx context.Context, m Message) error
	// SendBatch enqueues several messages; order within a group follows the
	// slice order. Adapters commit them as one unit where they can.
	SendBatch(ctx context.Context, ms []Message) error
	// Receive returns up to max messages that are visible now, making them
	// invisible for visibility. When none is visible it waits up to wait
	// for one to arrive (long polling) and returns an empty slice, not an
	// error, when none did. Once it has messages it returns without
	// waiting for more. max may exceed MaxBatch: an adapter whose service
	// caps one request (SQS at MaxBatch) makes further requests, without
	// waiting, while the previous one came back full. Either way the
	// messages of one group come in their order, and a group that already
	// had a message in flight when Receive began contributes none.
	Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]Delivery, error)
	// Delete acknowledges a message. Deleting a message that is already gone
	// is not an error.
	Delete(ctx context.Context, receipt string) error
	// DeleteBatch acknowledges several messages, as Delete does each, in as
	// few requests as the adapter can (any number of receipts; none is a
	// no-op). It is not atomic: an entry that fails does not stop the
	// others, and failed entries are reported in a *BatchError naming
	// them. An error of the whole call (closed queue, cancelled context)
	// comes as it is.
	DeleteBatch(ctx context.Context, receipts []string) error
	// ChangeVisibility sets the remaining invisibility of an in-flight
	// message to d from now (0 makes it visible at once). It fails with
	// ErrInvalidReceipt when the message is not in flight under receipt.
	ChangeVisibility(ctx context.Context, receipt string, d time.Duration) error
}

// BatchError reports the entries of a batch request that failed while the
// others succeeded (or were not refused). errors.Is sees through it to
// each entry's error, e.g. ErrInvalidReceipt.
type BatchError struct {
	// Op names the request ("delete batch").
	Op string
	// Total is the number of entries in the request.
	Total int
	// Failed lists the failed entries in slice order.
	Failed []BatchFailure
}

// BatchFailure is one failed entry of a batch request.
type BatchFailure struct {
	// Index is the entry's position in the caller's slice (-1 if the
	// service reported an entry it was not sent).
	Index int
	// Err is why it failed.
	Err error
}

func (e *BatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "queue: %s: %d of %d entries failed:", e.Op, len(e.Failed), e.Total)
	for i, f := range e.Failed {
		if i == 5 {
			fmt.Fprintf(&b, " ... and %d more", len(e.Failed)-i)
			break
		}
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, " entry %d: %v", f.Index, f.Err)
	}
	return b.String()
}

// Unwrap returns the entries' errors, for errors.Is and errors.As.
func (e *BatchError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		errs[i] = f.Err
	}
	return errs
}

// Validate checks a message before sending.
func (m Message) Validate() error {
	if m.Group == "" {
		return errors.Join(ErrInvalid, errors.New("message group is required"))
	}
	if len(m.Body) == 0 {
		return errors.Join(ErrInvalid, errors.New("message body is empty"))
	}
	if len(m.DedupID) > 128 || len(m.Group) > 128 {
		return errors.Join(ErrInvalid, errors.New("group and dedup id are at most 128 characters"))
	}
	return nil
}
