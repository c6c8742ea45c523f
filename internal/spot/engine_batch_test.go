package spot

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"tenger/internal/matching"
	"tenger/internal/queue"
	qembedded "tenger/internal/queue/embedded"
	"tenger/internal/queue/sqsq"
)

// TestEngineBatchBeyondSQSLimit: on SQS (at most ten messages per
// ReceiveMessage and per DeleteMessageBatch) one engine batch still takes
// more than ten commands when several symbols have orders waiting, and the
// batch is acknowledged with DeleteMessageBatch requests, not one
// DeleteMessage per command.
func TestEngineBatchBeyondSQSLimit(t *testing.T) {
	e := newEnv(t)
	api := newFakeSQSAPI(t)
	orders := &batchRec{Queue: sqsq.New(api, "https://sqs.test/000000000000/orders.fifo")}
	e.q = orders
	e.svc = New(Options{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: orders})
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: orders,
		Journal: e.journal, Feed: e.feed, Visibility: 30 * time.Second, SnapshotEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	e.eng = eng

	e.deposit(bob, "USDT", "10000")
	// Six resting bids on each of five symbols (message groups), sent
	// round-robin: 30 commands, of which SQS hands out at most ten per
	// request and none of a group already in flight.
	bids := []PlaceRequest{
		limit("btcusdt", "BUY", "30000", "0.001"),
		limit("ethusdt", "BUY", "2000", "0.01"),
		limit("trxusdt", "BUY", "0.1", "100"),
		limit("xrpusdt", "BUY", "1", "10"),
		limit("tonusdt", "BUY", "5", "2"),
	}
	const per = 6
	var ids []string
	for range per {
		for _, r := range bids {
			ids = append(ids, e.place(bob, r))
		}
	}

	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- eng.Run(ctx) }()
	deadline := time.Now().Add(20 * time.Second)
	for api.q.Stats().Messages > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("engine loop: %v", err)
	}
	if left := api.q.Stats().Messages; left > 0 {
		t.Fatalf("%d commands still queued", left)
	}

	orders.mu.Lock()
	sizes := orders.sizes
	orders.mu.Unlock()
	if len(sizes) == 0 || sizes[0] <= queue.MaxBatch {
		t.Fatalf("engine batches %v: the first batch must take more than %d of the %d waiting commands", sizes, queue.MaxBatch, len(ids))
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	if total != len(ids) {
		t.Errorf("engine received %d commands in batches %v, want %d", total, sizes, len(ids))
	}
	api.mu.Lock()
	singles, batches, maxRecv := api.deletes, api.batchDeletes, api.maxRecv
	api.mu.Unlock()
	if singles != 0 || len(batches) == 0 {
		t.Errorf("%d DeleteMessage and %d DeleteMessageBatch requests, want batch deletes only", singles, len(batches))
	}
	t.Logf("engine batches %v; DeleteMessageBatch entries %v", sizes, batches)
	deleted := 0
	for _, n := range batches {
		if n > queue.MaxBatch {
			t.Errorf("DeleteMessageBatch with %d entries", n)
		}
		deleted += n
	}
	if deleted != len(ids) || maxRecv > queue.MaxBatch {
		t.Errorf("deleted %d of %d commands; largest ReceiveMessage asked for %d", deleted, len(ids), maxRecv)
	}
	for _, id := range ids {
		if o := e.order(bob, id); o.Status != StatusNew {
			t.Errorf("order %s: status %s, want resting", id, o.Status.Text())
		}
	}
	for _, r := range bids {
		if lv := eng.BookDepth(r.Symbol, matching.Buy, 5); len(lv) != 1 {
			t.Errorf("%s bids %+v, want one level of %d orders", r.Symbol, lv, per)
		}
	}
}

// batchRec records the size of every batch the engine receives.
type batchRec struct {
	queue.Queue
	mu    sync.Mutex
	sizes []int
}

func (r *batchRec) Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	ds, err := r.Queue.Receive(ctx, max, visibility, wait)
	if len(ds) > 0 {
		r.mu.Lock()
		r.sizes = append(r.sizes, len(ds))
		r.mu.Unlock()
	}
	return ds, err
}

// fakeSQSAPI is sqsq.API in process, on an embedded FIFO queue, with SQS's
// limit of ten messages per request.
type fakeSQSAPI struct {
	q *qembedded.Queue

	mu           sync.Mutex
	deletes      int
	batchDeletes []int
	maxRecv      int
}

func newFakeSQSAPI(t *testing.T) *fakeSQSAPI {
	db, err := qembedded.Open(t.TempDir(), qembedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	q, err := db.Queue("orders.fifo", qembedded.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeSQSAPI{q: q}
}

var errTooMany = errors.New("fake sqs: more than ten entries")

func sqsAttrs(m map[string]types.MessageAttributeValue) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = aws.ToString(v.StringValue)
	}
	return out
}

func (f *fakeSQSAPI) SendMessage(ctx context.Context, in *sqs.SendMessageInput, _ ...func(*sqs.Options)) (*sqs.SendMessageOutput, error) {
	err := f.q.Send(ctx, queue.Message{Group: aws.ToString(in.MessageGroupId), DedupID: aws.ToString(in.MessageDeduplicationId),
		Body: []byte(aws.ToString(in.MessageBody)), Attributes: sqsAttrs(in.MessageAttributes)})
	return &sqs.SendMessageOutput{}, err
}

func (f *fakeSQSAPI) SendMessageBatch(ctx context.Context, in *sqs.SendMessageBatchInput, _ ...func(*sqs.Options)) (*sqs.SendMessageBatchOutput, error) {
	if len(in.Entries) > queue.MaxBatch {
		return nil, errTooMany
	}
	var ms []queue.Message
	for _, e := range in.Entries {
		ms = append(ms, queue.Message{Group: aws.ToString(e.MessageGroupId), DedupID: aws.ToString(e.MessageDeduplicationId),
			Body: []byte(aws.ToString(e.MessageBody)), Attributes: sqsAttrs(e.MessageAttributes)})
	}
	return &sqs.SendMessageBatchOutput{}, f.q.SendBatch(ctx, ms)
}

func (f *fakeSQSAPI) ReceiveMessage(ctx context.Context, in *sqs.ReceiveMessageInput, _ ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error) {
	n := int(in.MaxNumberOfMessages)
	if n > queue.MaxBatch {
		return nil, errTooMany
	}
	f.mu.Lock()
	f.maxRecv = max(f.maxRecv, n)
	f.mu.Unlock()
	ds, err := f.q.Receive(ctx, max(n, 1), time.Duration(in.VisibilityTimeout)*time.Second, time.Duration(in.WaitTimeSeconds)*time.Second)
	if err != nil {
		return nil, err
	}
	out := &sqs.ReceiveMessageOutput{}
	for _, d := range ds {
		ma := map[string]types.MessageAttributeValue{}
		for k, v := range d.Attributes {
			ma[k] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(v)}
		}
		out.Messages = append(out.Messages, types.Message{
			MessageId: aws.String(d.ID), ReceiptHandle: aws.String(d.ReceiptHandle), Body: aws.String(string(d.Body)),
			Attributes: map[string]string{
				"ApproximateReceiveCount": strconv.Itoa(d.ReceiveCount),
				"SentTimestamp":           strconv.FormatInt(d.SentAt.UnixMilli(), 10),
				"MessageGroupId":          d.Group,
				"MessageDeduplicationId":  d.DedupID,
			},
			MessageAttributes: ma,
		})
	}
	return out, nil
}

func (f *fakeSQSAPI) DeleteMessage(ctx context.Context, in *sqs.DeleteMessageInput, _ ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error) {
	f.mu.Lock()
	f.deletes++
	f.mu.Unlock()
	return &sqs.DeleteMessageOutput{}, f.q.Delete(ctx, aws.ToString(in.ReceiptHandle))
}

func (f *fakeSQSAPI) DeleteMessageBatch(ctx context.Context, in *sqs.DeleteMessageBatchInput, _ ...func(*sqs.Options)) (*sqs.DeleteMessageBatchOutput, error) {
	if len(in.Entries) > queue.MaxBatch {
		return nil, errTooMany
	}
	f.mu.Lock()
	f.batchDeletes = append(f.batchDeletes, len(in.Entries))
	f.mu.Unlock()
	out := &sqs.DeleteMessageBatchOutput{}
	for _, e := range in.Entries {
		if err := f.q.Delete(ctx, aws.ToString(e.ReceiptHandle)); err != nil {
			out.Failed = append(out.Failed, types.BatchResultErrorEntry{Id: e.Id, Code: aws.String("ReceiptHandleIsInvalid"), Message: aws.String(err.Error())})
			continue
		}
		out.Successful = append(out.Successful, types.DeleteMessageBatchResultEntry{Id: e.Id})
	}
	return out, nil
}

func (f *fakeSQSAPI) ChangeMessageVisibility(ctx context.Context, in *sqs.ChangeMessageVisibilityInput, _ ...func(*sqs.Options)) (*sqs.ChangeMessageVisibilityOutput, error) {
	return &sqs.ChangeMessageVisibilityOutput{}, f.q.ChangeVisibility(ctx, aws.ToString(in.ReceiptHandle), time.Duration(in.VisibilityTimeout)*time.Second)
}

var _ sqsq.API = (*fakeSQSAPI)(nil)
