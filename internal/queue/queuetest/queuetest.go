// Package queuetest is the contract suite of the queue port. Every adapter
// runs it: the embedded queue always, SQS when an endpoint is configured.
package queuetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"tenger/internal/queue"
)

// Harness describes the adapter under test.
type Harness struct {
	// New returns a fresh, empty queue and its dead-letter queue. The queue
	// moves a message to the dead-letter queue after MaxReceives deliveries.
	New func(t *testing.T) (q, dlq queue.Queue)
	// MaxReceives is the queue's dead-letter threshold (at least 2).
	MaxReceives int
	// Unit is the time unit of the suite: the smallest visibility timeout and
	// wait the adapter honours precisely (embedded: tens of ms; SQS: 1 s).
	Unit time.Duration
	// Parallel runs the cases in parallel (each on its own queue); worth
	// it when Unit is long.
	Parallel bool
	// Concurrency enables the concurrent producers/consumers test (cheap on
	// the embedded queue, slow and costly on a real service).
	Concurrency bool
}

// Run runs the contract suite.
func Run(t *testing.T, h Harness) {
	if h.MaxReceives < 2 {
		t.Fatal("queuetest: MaxReceives must be at least 2")
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"OrderWithinGroup", testOrderWithinGroup},
		{"GroupBlockedWhileInFlight", testGroupBlocked},
		{"IndependentGroups", testIndependentGroups},
		{"VisibilityExpiryRedelivers", testVisibilityExpiry},
		{"Delete", testDelete},
		{"ChangeVisibility", testChangeVisibility},
		{"DeadLetterAfterMaxReceives", testDeadLetter},
		{"Dedup", testDedup},
		{"AttributesRoundTrip", testAttributes},
		{"LongPollWakesOnSend", testLongPoll},
		{"SendBatchKeepsOrder", testSendBatch},
		{"ReceiveBeyondMaxBatch", testReceiveLarge},
		{"DeleteBatch", testDeleteBatch},
		{"DeleteBatchUnblocksGroup", testDeleteBatchWakes},
		{"RejectsInvalid", testInvalid},
	}
	if h.Concurrency {
		tests = append(tests, struct {
			name string
			fn   func(t *testing.T, h Harness)
		}{"ConcurrentProducersConsumers", testConcurrent})
	}
	if !h.Parallel {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) { tc.fn(t, h) })
		}
		return
	}
	// The cases mostly sleep, so they run all at once rather than under
	// t.Parallel's GOMAXPROCS limit (t.Run may be called concurrently).
	var wg sync.WaitGroup
	for _, tc := range tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(tc.name, func(t *testing.T) { tc.fn(t, h) })
		}()
	}
	wg.Wait()
}

// runID makes this process's dedup ids unique, so the suite can run
// against a long-lived queue (SQS_QUEUE_URL) without earlier runs'
// dedup windows swallowing its messages.
var runID = func() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

func dd(id string) string {
	if id == "" {
		return ""
	}
	return id + "." + runID
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func send(t *testing.T, q queue.Queue, group, dedup, body string) {
	t.Helper()
	if err := q.Send(ctx(t), queue.Message{Group: group, DedupID: dd(dedup), Body: []byte(body)}); err != nil {
		t.Fatalf("send %s/%s: %v", group, body, err)
	}
}

// receiveN receives until n messages arrived or timeout passed.
func receiveN(t *testing.T, q queue.Queue, n int, vis, timeout time.Duration) []queue.Delivery {
	t.Helper()
	var out []queue.Delivery
	end := time.Now().Add(timeout)
	for len(out) < n && time.Now().Before(end) {
		wait := time.Until(end)
		if wait > 20*time.Second {
			wait = 20 * time.Second
		}
		ds, err := q.Receive(ctx(t), min(n-len(out), queue.MaxBatch), vis, wait)
		if err != nil {
			t.Fatalf("receive: %v", err)
		}
		out = append(out, ds...)
	}
	return out
}

// receiveNone asserts that nothing is delivered within wait.
func receiveNone(t *testing.T, q queue.Queue, vis, wait time.Duration, why string) {
	t.Helper()
	ds, err := q.Receive(ctx(t), queue.MaxBatch, vis, wait)
	if err != nil {
		t.Fatalf("receive: %v", err)
	}
	if len(ds) > 0 {
		t.Fatalf("%s: got %d unexpected message(s), first %q (receive count %d)", why, len(ds), ds[0].Body, ds[0].ReceiveCount)
	}
}

func del(t *testing.T, q queue.Queue, d queue.Delivery) {
	t.Helper()
	if err := q.Delete(ctx(t), d.ReceiptHandle); err != nil {
		t.Fatalf("delete %q: %v", d.Body, err)
	}
}

func bodies(ds []queue.Delivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = string(d.Body)
	}
	return out
}

func testOrderWithinGroup(t *testing.T, h Harness) {
	q, _ := h.New(t)
	const n = 15
	for i := range n {
		send(t, q, "g", fmt.Sprintf("o-%d", i), fmt.Sprintf("m%02d", i))
	}
	var got []string
	end := time.Now().Add(20 * h.Unit)
	for len(got) < n && time.Now().Before(end) {
		ds := receiveN(t, q, queue.MaxBatch, 10*h.Unit, 2*h.Unit)
		for _, d := range ds {
			if d.Group != "g" || d.ReceiveCount != 1 {
				t.Fatalf("delivery %q: group %q receive count %d", d.Body, d.Group, d.ReceiveCount)
			}
			got = append(got, string(d.Body))
			del(t, q, d)
		}
	}
	if len(got) != n {
		t.Fatalf("got %d messages, want %d: %v", len(got), n, got)
	}
	for i, b := range got {
		if want := fmt.Sprintf("m%02d", i); b != want {
			t.Fatalf("position %d: got %s, want %s (all: %v)", i, b, want, got)
		}
	}
}

func testGroupBlocked(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "a1", "a1")
	send(t, q, "g", "a2", "a2")
	ds := receiveN(t, q, 1, 20*h.Unit, 5*h.Unit)
	if len(ds) != 1 || string(ds[0].Body) != "a1" {
		t.Fatalf("first receive: %v, want [a1]", bodies(ds))
	}
	receiveNone(t, q, 20*h.Unit, 2*h.Unit, "group must stay blocked while a1 is in flight")
	del(t, q, ds[0])
	ds = receiveN(t, q, 1, 20*h.Unit, 5*h.Unit)
	if len(ds) != 1 || string(ds[0].Body) != "a2" {
		t.Fatalf("after deleting a1: %v, want [a2]", bodies(ds))
	}
	del(t, q, ds[0])
}

func testIndependentGroups(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g1", "a1", "a1")
	send(t, q, "g1", "a2", "a2")
	send(t, q, "g2", "b1", "b1")
	first := receiveN(t, q, 1, 20*h.Unit, 5*h.Unit)
	if len(first) != 1 {
		t.Fatalf("first receive got %d messages", len(first))
	}
	// Whatever group came first, the other group is not held up by it.
	second := receiveN(t, q, 1, 20*h.Unit, 5*h.Unit)
	if len(second) != 1 {
		t.Fatalf("second receive got %d messages: a blocked group held up another", len(second))
	}
	got := map[string]string{first[0].Group: string(first[0].Body), second[0].Group: string(second[0].Body)}
	if got["g1"] != "a1" || got["g2"] != "b1" {
		t.Fatalf("got %v, want heads of both groups (g1:a1, g2:b1)", got)
	}
	receiveNone(t, q, 20*h.Unit, 2*h.Unit, "both groups are in flight")
	del(t, q, first[0])
	del(t, q, second[0])
	rest := receiveN(t, q, 1, 20*h.Unit, 5*h.Unit)
	if len(rest) != 1 || string(rest[0].Body) != "a2" {
		t.Fatalf("last: %v, want [a2]", bodies(rest))
	}
	del(t, q, rest[0])
}

func testVisibilityExpiry(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "v1", "v1")
	first := receiveN(t, q, 1, 2*h.Unit, 5*h.Unit)
	if len(first) != 1 || first[0].ReceiveCount != 1 {
		t.Fatalf("first receive: %+v", first)
	}
	receiveNone(t, q, 2*h.Unit, 0, "message is in flight")
	second := receiveN(t, q, 1, 20*h.Unit, 10*h.Unit)
	if len(second) != 1 {
		t.Fatal("message was not redelivered after its visibility expired")
	}
	d := second[0]
	if d.ID != first[0].ID || string(d.Body) != "v1" {
		t.Fatalf("redelivered %q id %s, want v1 id %s", d.Body, d.ID, first[0].ID)
	}
	if d.ReceiveCount != 2 {
		t.Fatalf("receive count %d, want 2", d.ReceiveCount)
	}
	if d.ReceiptHandle == first[0].ReceiptHandle {
		t.Fatal("a redelivery must carry a new receipt handle")
	}
	del(t, q, d)
}

func testDelete(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "d1", "d1")
	ds := receiveN(t, q, 1, h.Unit, 5*h.Unit)
	if len(ds) != 1 {
		t.Fatal("no message")
	}
	del(t, q, ds[0])
	// Deleting again is harmless.
	if err := q.Delete(ctx(t), ds[0].ReceiptHandle); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	// Even after the visibility timeout has passed, it does not come back.
	receiveNone(t, q, h.Unit, 3*h.Unit, "deleted message came back")
}

func testChangeVisibility(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "c1", "c1")
	ds := receiveN(t, q, 1, 60*h.Unit, 5*h.Unit)
	if len(ds) != 1 {
		t.Fatal("no message")
	}
	// Making it visible at once hands it out again right away.
	if err := q.ChangeVisibility(ctx(t), ds[0].ReceiptHandle, 0); err != nil {
		t.Fatalf("change visibility to 0: %v", err)
	}
	again := receiveN(t, q, 1, 2*h.Unit, 5*h.Unit)
	if len(again) != 1 || again[0].ReceiveCount != 2 {
		t.Fatalf("after visibility 0: %+v", again)
	}
	// The old receipt no longer names the in-flight receive.
	if err := q.ChangeVisibility(ctx(t), ds[0].ReceiptHandle, 10*h.Unit); !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("change visibility with a stale receipt: %v, want ErrInvalidReceipt", err)
	}
	// Extending the visibility keeps it hidden past the original timeout.
	if err := q.ChangeVisibility(ctx(t), again[0].ReceiptHandle, 8*h.Unit); err != nil {
		t.Fatalf("extend visibility: %v", err)
	}
	receiveNone(t, q, h.Unit, 4*h.Unit, "visibility was extended")
	del(t, q, again[0])
	if err := q.ChangeVisibility(ctx(t), again[0].ReceiptHandle, h.Unit); err == nil {
		t.Fatal("change visibility of a deleted message must fail")
	}
}

func testDeadLetter(t *testing.T, h Harness) {
	q, dlq := h.New(t)
	if err := q.Send(ctx(t), queue.Message{Group: "g", DedupID: dd("poison"), Body: []byte("poison"),
		Attributes: map[string]string{queue.AttrCorrelationID: "corr-dlq"}}); err != nil {
		t.Fatal(err)
	}
	send(t, q, "g", "next", "next")
	for i := 1; i <= h.MaxReceives; i++ {
		ds := receiveN(t, q, 1, 30*h.Unit, 5*h.Unit)
		if len(ds) != 1 || string(ds[0].Body) != "poison" || ds[0].ReceiveCount != i {
			t.Fatalf("receive %d: %v (counts %+v)", i, bodies(ds), ds)
		}
		// A consumer that fails gives the message back at once.
		if err := q.ChangeVisibility(ctx(t), ds[0].ReceiptHandle, 0); err != nil {
			t.Fatal(err)
		}
	}
	// The poison message is gone from the queue; the group moves on.
	ds := receiveN(t, q, 1, 30*h.Unit, 10*h.Unit)
	if len(ds) != 1 || string(ds[0].Body) != "next" {
		t.Fatalf("after dead-lettering: %v, want [next]", bodies(ds))
	}
	del(t, q, ds[0])
	dead := receiveN(t, dlq, 1, 30*h.Unit, 10*h.Unit)
	if len(dead) != 1 {
		t.Fatal("message did not reach the dead-letter queue")
	}
	d := dead[0]
	if string(d.Body) != "poison" || d.Group != "g" || d.Attributes[queue.AttrCorrelationID] != "corr-dlq" {
		t.Fatalf("dead letter: body %q group %q attrs %v", d.Body, d.Group, d.Attributes)
	}
	del(t, dlq, d)
}

func testDedup(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "same", "first")
	send(t, q, "g", "same", "second") // accepted, not enqueued
	send(t, q, "g", "other", "third")
	ds := receiveN(t, q, 2, 20*h.Unit, 5*h.Unit)
	if got := bodies(ds); len(got) != 2 || got[0] != "first" || got[1] != "third" {
		t.Fatalf("got %v, want [first third]", got)
	}
	for _, d := range ds {
		del(t, q, d)
	}
	// Still deduplicated after the first copy was deleted.
	send(t, q, "g", "same", "fourth")
	receiveNone(t, q, h.Unit, 2*h.Unit, "dedup id reused within the window")
}

func testAttributes(t *testing.T, h Harness) {
	q, _ := h.New(t)
	attrs := map[string]string{queue.AttrCorrelationID: "req-123", "type": "order.create"}
	body := []byte(`{"orderId":"o1","price":"101.50"}`)
	if err := q.Send(ctx(t), queue.Message{Group: "BTC_USDT", DedupID: dd("o1"), Body: body, Attributes: attrs}); err != nil {
		t.Fatal(err)
	}
	ds := receiveN(t, q, 1, 10*h.Unit, 5*h.Unit)
	if len(ds) != 1 {
		t.Fatal("no message")
	}
	d := ds[0]
	if string(d.Body) != string(body) || d.Group != "BTC_USDT" || d.DedupID != dd("o1") {
		t.Fatalf("got body %q group %q dedup %q", d.Body, d.Group, d.DedupID)
	}
	for k, v := range attrs {
		if d.Attributes[k] != v {
			t.Fatalf("attribute %s = %q, want %q (all %v)", k, d.Attributes[k], v, d.Attributes)
		}
	}
	if d.ID == "" || d.ReceiptHandle == "" || d.SentAt.IsZero() {
		t.Fatalf("delivery lacks id, receipt or sent time: %+v", d)
	}
	if time.Since(d.SentAt) > time.Minute || time.Until(d.SentAt) > time.Minute {
		t.Fatalf("sent time %v is not now", d.SentAt)
	}
	del(t, q, d)
}

func testLongPoll(t *testing.T, h Harness) {
	q, _ := h.New(t)
	type result struct {
		ds  []queue.Delivery
		err error
		at  time.Time
	}
	res := make(chan result, 1)
	start := time.Now()
	go func() {
		ds, err := q.Receive(context.Background(), 1, 10*h.Unit, 15*h.Unit)
		res <- result{ds, err, time.Now()}
	}()
	time.Sleep(2 * h.Unit)
	send(t, q, "g", "lp", "lp")
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.ds) != 1 || string(r.ds[0].Body) != "lp" {
		t.Fatalf("long poll got %v", bodies(r.ds))
	}
	if r.at.Sub(start) >= 15*h.Unit {
		t.Fatalf("long poll returned only after its whole wait (%v)", r.at.Sub(start))
	}
	del(t, q, r.ds[0])
}

func testSendBatch(t *testing.T, h Harness) {
	q, _ := h.New(t)
	var ms []queue.Message
	for i := range 8 {
		g := "x"
		if i%2 == 1 {
			g = "y"
		}
		ms = append(ms, queue.Message{Group: g, DedupID: dd(fmt.Sprintf("b%d", i)), Body: []byte(fmt.Sprintf("%s%d", g, i))})
	}
	if err := q.SendBatch(ctx(t), ms); err != nil {
		t.Fatal(err)
	}
	perGroup := map[string][]string{}
	end := time.Now().Add(30 * h.Unit)
	total := 0
	for total < 8 && time.Now().Before(end) {
		for _, d := range receiveN(t, q, queue.MaxBatch, 10*h.Unit, 2*h.Unit) {
			perGroup[d.Group] = append(perGroup[d.Group], string(d.Body))
			total++
			del(t, q, d)
		}
	}
	want := map[string][]string{"x": {"x0", "x2", "x4", "x6"}, "y": {"y1", "y3", "y5", "y7"}}
	for g, w := range want {
		if fmt.Sprint(perGroup[g]) != fmt.Sprint(w) {
			t.Fatalf("group %s: got %v, want %v", g, perGroup[g], w)
		}
	}
}

func testInvalid(t *testing.T, h Harness) {
	q, _ := h.New(t)
	if err := q.Send(ctx(t), queue.Message{Body: []byte("x")}); !errors.Is(err, queue.ErrInvalid) {
		t.Fatalf("send without group: %v, want ErrInvalid", err)
	}
	if err := q.Send(ctx(t), queue.Message{Group: "g"}); !errors.Is(err, queue.ErrInvalid) {
		t.Fatalf("send without body: %v, want ErrInvalid", err)
	}
	if err := q.ChangeVisibility(ctx(t), "not-a-receipt", h.Unit); !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("change visibility with a garbage receipt: %v, want ErrInvalidReceipt", err)
	}
}

// testConcurrent runs producers and consumers at once and checks that every
// message is delivered and that, per group, deliveries never go backwards.
func testConcurrent(t *testing.T, h Harness) {
	q, _ := h.New(t)
	const producers, groupsPer, perGroup, consumers = 4, 3, 40, 4
	total := producers * groupsPer * perGroup
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perGroup {
				for g := range groupsPer {
					grp := fmt.Sprintf("p%d-g%d", p, g)
					err := q.Send(context.Background(), queue.Message{Group: grp, DedupID: dd(fmt.Sprintf("%s-%d", grp, i)), Body: []byte(fmt.Sprint(i))})
					if err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	var mu sync.Mutex
	last := map[string]int{}
	seen := 0
	var orderErr error
	done := make(chan struct{})
	var once sync.Once
	finish := func() { once.Do(func() { close(done) }) }
	var cwg sync.WaitGroup
	for range consumers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				ds, err := q.Receive(context.Background(), 5, 30*h.Unit, h.Unit)
				if err != nil {
					t.Error(err)
					return
				}
				for _, d := range ds {
					var n int
					fmt.Sscan(string(d.Body), &n)
					mu.Lock()
					if prev, ok := last[d.Group]; ok && n != prev+1 && orderErr == nil {
						orderErr = fmt.Errorf("group %s: got %d after %d", d.Group, n, prev)
					} else if !ok && n != 0 && orderErr == nil {
						orderErr = fmt.Errorf("group %s: first message %d", d.Group, n)
					}
					last[d.Group] = n
					seen++
					if seen == total {
						finish()
					}
					mu.Unlock()
					if err := q.Delete(context.Background(), d.ReceiptHandle); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		mu.Lock()
		t.Errorf("only %d of %d messages delivered", seen, total)
		mu.Unlock()
		finish()
	}
	cwg.Wait()
	if orderErr != nil {
		t.Fatal(orderErr)
	}
}

// testReceiveLarge: one Receive with max above MaxBatch returns more than
// MaxBatch messages when that many are visible across groups (the SQS
// adapter makes several requests), keeping each group's order; groups it
// left in flight contribute nothing to the next Receive.
func testReceiveLarge(t *testing.T, h Harness) {
	q, _ := h.New(t)
	const groups, per = 5, 5
	var ms []queue.Message
	for i := range per {
		for g := range groups {
			ms = append(ms, queue.Message{Group: fmt.Sprintf("g%d", g), DedupID: dd(fmt.Sprintf("L%d-%d", g, i)), Body: []byte(fmt.Sprintf("g%d-%d", g, i))})
		}
	}
	if err := q.SendBatch(ctx(t), ms); err != nil {
		t.Fatal(err)
	}
	ds, err := q.Receive(ctx(t), 64, 30*h.Unit, 5*h.Unit)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) <= queue.MaxBatch {
		t.Fatalf("one Receive(max 64) with %d messages visible returned %d, want more than %d", groups*per, len(ds), queue.MaxBatch)
	}
	next := map[string]int{}
	for _, d := range ds {
		want := fmt.Sprintf("%s-%d", d.Group, next[d.Group])
		if string(d.Body) != want || d.ReceiveCount != 1 {
			t.Fatalf("got %q (receive count %d), want %s next: group order broken across requests (all: %v)", d.Body, d.ReceiveCount, want, bodies(ds))
		}
		next[d.Group]++
	}
	// Whatever is left belongs to groups not yet seen, never to those in
	// flight.
	rest, err := q.Receive(ctx(t), 64, 30*h.Unit, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rest {
		if next[d.Group] > 0 {
			t.Fatalf("got %q while group %s had messages in flight", d.Body, d.Group)
		}
	}
	all := append(ds, rest...)
	receipts := make([]string, len(all))
	for i, d := range all {
		receipts[i] = d.ReceiptHandle
	}
	if err := q.DeleteBatch(ctx(t), receipts); err != nil {
		t.Fatalf("delete batch of %d: %v", len(receipts), err)
	}
	// The remaining messages (if any) come after the deletes.
	left := groups*per - len(all)
	for len(all) < groups*per {
		more := receiveN(t, q, left, 30*h.Unit, 10*h.Unit)
		if len(more) == 0 {
			t.Fatalf("%d of %d messages received", len(all), groups*per)
		}
		for _, d := range more {
			del(t, q, d)
		}
		all = append(all, more...)
		left -= len(more)
	}
}

// testDeleteBatch: a batch larger than MaxBatch deletes every message it
// names; an invalid receipt fails only its entry, named in a
// *queue.BatchError; deleting gone messages and an empty batch are fine.
func testDeleteBatch(t *testing.T, h Harness) {
	q, _ := h.New(t)
	const n = 12
	var ms []queue.Message
	for i := range n {
		ms = append(ms, queue.Message{Group: fmt.Sprintf("d%d", i), DedupID: dd(fmt.Sprintf("D%d", i)), Body: []byte(fmt.Sprint(i))})
	}
	if err := q.SendBatch(ctx(t), ms); err != nil {
		t.Fatal(err)
	}
	ds := receiveN(t, q, n, 5*h.Unit, 10*h.Unit)
	if len(ds) != n {
		t.Fatalf("received %d of %d", len(ds), n)
	}
	var receipts []string
	for i, d := range ds {
		if i == 5 {
			receipts = append(receipts, "not-a-receipt")
		}
		receipts = append(receipts, d.ReceiptHandle)
	}
	err := q.DeleteBatch(ctx(t), receipts)
	var be *queue.BatchError
	if !errors.As(err, &be) || len(be.Failed) != 1 || be.Failed[0].Index != 5 || be.Total != n+1 {
		t.Fatalf("delete batch with one bad receipt at 5: %v (%+v), want a BatchError naming entry 5 only", err, be)
	}
	if !errors.Is(err, queue.ErrInvalidReceipt) {
		t.Fatalf("delete batch with a bad receipt: %v, want it to wrap ErrInvalidReceipt", err)
	}
	// Every valid entry was deleted: nothing comes back after the
	// visibility timeout.
	receiveNone(t, q, h.Unit, 7*h.Unit, "a message deleted in a batch came back")
	if err := q.DeleteBatch(ctx(t), receipts[:5]); err != nil {
		t.Fatalf("deleting deleted messages again: %v", err)
	}
	if err := q.DeleteBatch(ctx(t), nil); err != nil {
		t.Fatalf("empty delete batch: %v", err)
	}
}

// testDeleteBatchWakes: deleting a group's in-flight message in a batch
// lets a long-polling receiver have the group's next message at once.
func testDeleteBatchWakes(t *testing.T, h Harness) {
	q, _ := h.New(t)
	send(t, q, "g", "w1", "w1")
	send(t, q, "g", "w2", "w2")
	first := receiveN(t, q, 1, 30*h.Unit, 5*h.Unit)
	if len(first) != 1 || string(first[0].Body) != "w1" {
		t.Fatalf("first receive: %v, want [w1]", bodies(first))
	}
	type result struct {
		ds  []queue.Delivery
		err error
		at  time.Time
	}
	res := make(chan result, 1)
	start := time.Now()
	go func() {
		ds, err := q.Receive(context.Background(), queue.MaxBatch, 10*h.Unit, 15*h.Unit)
		res <- result{ds, err, time.Now()}
	}()
	time.Sleep(2 * h.Unit)
	if err := q.DeleteBatch(ctx(t), []string{first[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.ds) != 1 || string(r.ds[0].Body) != "w2" {
		t.Fatalf("after the batch delete: %v, want [w2]", bodies(r.ds))
	}
	if r.at.Sub(start) >= 15*h.Unit {
		t.Fatalf("the long poll returned only after its whole wait (%v)", r.at.Sub(start))
	}
	del(t, q, r.ds[0])
}
