package sqsq

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/queue"
	"tenger/internal/queue/embedded"
)

// fakeSQS speaks the SQS JSON protocol for the six operations the adapter
// uses, backed by embedded queues, and records every request so tests can
// assert the exact fields the adapter sends. Like SQS it refuses more than
// ten messages per request.
type fakeSQS struct {
	db *embedded.DB

	mu       sync.Mutex
	queues   map[string]*embedded.Queue // by queue URL path suffix
	requests []fakeRequest
	// failEntry, when set, fails a DeleteMessageBatch entry (without
	// deleting it) with the code it returns, unless that is "".
	failEntry func(receipt string) string
}

type fakeRequest struct {
	Op   string
	Body map[string]any
}

type jsonAttr struct {
	DataType    string `json:"DataType"`
	StringValue string `json:"StringValue"`
}

func (f *fakeSQS) recorded(op string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, r := range f.requests {
		if r.Op == op {
			out = append(out, r.Body)
		}
	}
	return out
}

func (f *fakeSQS) queueFor(url string) *embedded.Queue {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := strings.LastIndex(url, "/")
	return f.queues[url[i+1:]]
}

func (f *fakeSQS) fail(w http.ResponseWriter, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": "com.amazonaws.sqs#" + code, "message": msg})
}

func (f *fakeSQS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "AmazonSQS.")
	var raw map[string]any
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		f.fail(w, "InvalidParameterValue", err.Error())
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, fakeRequest{Op: op, Body: raw})
	f.mu.Unlock()
	b, _ := json.Marshal(raw)
	var in struct {
		QueueURL               string              `json:"QueueUrl"`
		MessageBody            string              `json:"MessageBody"`
		MessageGroupID         string              `json:"MessageGroupId"`
		MessageDeduplicationID string              `json:"MessageDeduplicationId"`
		MessageAttributes      map[string]jsonAttr `json:"MessageAttributes"`
		Entries                []struct {
			ID                     string              `json:"Id"`
			ReceiptHandle          string              `json:"ReceiptHandle"`
			MessageBody            string              `json:"MessageBody"`
			MessageGroupID         string              `json:"MessageGroupId"`
			MessageDeduplicationID string              `json:"MessageDeduplicationId"`
			MessageAttributes      map[string]jsonAttr `json:"MessageAttributes"`
		} `json:"Entries"`
		MaxNumberOfMessages int    `json:"MaxNumberOfMessages"`
		VisibilityTimeout   int    `json:"VisibilityTimeout"`
		WaitTimeSeconds     int    `json:"WaitTimeSeconds"`
		ReceiptHandle       string `json:"ReceiptHandle"`
	}
	_ = json.Unmarshal(b, &in)
	q := f.queueFor(in.QueueURL)
	if q == nil {
		f.fail(w, "QueueDoesNotExist", "no queue "+in.QueueURL)
		return
	}
	attrs := func(m map[string]jsonAttr) map[string]string {
		if len(m) == 0 {
			return nil
		}
		out := map[string]string{}
		for k, v := range m {
			out[k] = v.StringValue
		}
		return out
	}
	ctx := r.Context()
	var resp any
	switch op {
	case "SendMessage":
		err := q.Send(ctx, queue.Message{Group: in.MessageGroupID, DedupID: in.MessageDeduplicationID, Body: []byte(in.MessageBody), Attributes: attrs(in.MessageAttributes)})
		if err != nil {
			f.fail(w, "InvalidParameterValue", err.Error())
			return
		}
		resp = map[string]string{"MessageId": "fake"}
	case "SendMessageBatch":
		if len(in.Entries) > queue.MaxBatch {
			f.fail(w, "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "too many entries")
			return
		}
		var ms []queue.Message
		var ok []map[string]string
		for _, e := range in.Entries {
			ms = append(ms, queue.Message{Group: e.MessageGroupID, DedupID: e.MessageDeduplicationID, Body: []byte(e.MessageBody), Attributes: attrs(e.MessageAttributes)})
			ok = append(ok, map[string]string{"Id": e.ID, "MessageId": "fake"})
		}
		if err := q.SendBatch(ctx, ms); err != nil {
			f.fail(w, "InvalidParameterValue", err.Error())
			return
		}
		resp = map[string]any{"Successful": ok, "Failed": []any{}}
	case "ReceiveMessage":
		if in.MaxNumberOfMessages > queue.MaxBatch {
			f.fail(w, "InvalidParameterValue", "MaxNumberOfMessages must be 1 to 10")
			return
		}
		ds, err := q.Receive(ctx, in.MaxNumberOfMessages, time.Duration(in.VisibilityTimeout)*time.Second, time.Duration(in.WaitTimeSeconds)*time.Second)
		if err != nil {
			f.fail(w, "InvalidParameterValue", err.Error())
			return
		}
		msgs := []map[string]any{}
		for _, d := range ds {
			ma := map[string]jsonAttr{}
			for k, v := range d.Attributes {
				ma[k] = jsonAttr{DataType: "String", StringValue: v}
			}
			msgs = append(msgs, map[string]any{
				"MessageId":     d.ID,
				"ReceiptHandle": d.ReceiptHandle,
				"Body":          string(d.Body),
				"Attributes": map[string]string{
					"ApproximateReceiveCount": strconv.Itoa(d.ReceiveCount),
					"SentTimestamp":           strconv.FormatInt(d.SentAt.UnixMilli(), 10),
					"MessageGroupId":          d.Group,
					"MessageDeduplicationId":  d.DedupID,
				},
				"MessageAttributes": ma,
			})
		}
		resp = map[string]any{"Messages": msgs}
	case "DeleteMessage":
		if err := q.Delete(ctx, in.ReceiptHandle); err != nil {
			f.fail(w, "ReceiptHandleIsInvalid", err.Error())
			return
		}
		resp = map[string]any{}
	case "DeleteMessageBatch":
		if len(in.Entries) == 0 || len(in.Entries) > queue.MaxBatch {
			f.fail(w, "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "1 to 10 entries")
			return
		}
		f.mu.Lock()
		failEntry := f.failEntry
		f.mu.Unlock()
		ok, failed := []map[string]any{}, []map[string]any{}
		for _, e := range in.Entries {
			if failEntry != nil {
				if code := failEntry(e.ReceiptHandle); code != "" {
					failed = append(failed, map[string]any{"Id": e.ID, "Code": code, "Message": "injected", "SenderFault": false})
					continue
				}
			}
			if err := q.Delete(ctx, e.ReceiptHandle); err != nil {
				failed = append(failed, map[string]any{"Id": e.ID, "Code": "ReceiptHandleIsInvalid", "Message": err.Error(), "SenderFault": true})
				continue
			}
			ok = append(ok, map[string]any{"Id": e.ID})
		}
		resp = map[string]any{"Successful": ok, "Failed": failed}
	case "ChangeMessageVisibility":
		if err := q.ChangeVisibility(ctx, in.ReceiptHandle, time.Duration(in.VisibilityTimeout)*time.Second); err != nil {
			if errors.Is(err, queue.ErrInvalidReceipt) {
				f.fail(w, "MessageNotInflight", err.Error())
			} else {
				f.fail(w, "InvalidParameterValue", err.Error())
			}
			return
		}
		resp = map[string]any{}
	default:
		f.fail(w, "UnsupportedOperation", op)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(resp)
}

func (f *fakeSQS) addQueue(t *testing.T, name string, maxReceives int) {
	t.Helper()
	opts := embedded.QueueOptions{}
	if maxReceives > 0 {
		opts = embedded.QueueOptions{MaxReceives: maxReceives, DeadLetter: name + "-dlq"}
	}
	q, err := f.db.Queue(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.queues[name] = q
	f.mu.Unlock()
	if maxReceives > 0 {
		f.addQueue(t, name+"-dlq", 0)
	}
}

func newFake(t *testing.T) *fakeSQS {
	db, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return &fakeSQS{db: db, queues: map[string]*embedded.Queue{}}
}
