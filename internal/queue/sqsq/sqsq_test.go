package sqsq

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"tenger/internal/queue"
	"tenger/internal/queue/queuetest"
)

func client(endpoint string) *sqs.Client {
	return sqs.New(sqs.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
}

// TestContractOnFake runs the contract suite through the adapter against
// the fake SQS endpoint: it proves the adapter's mapping of every field and
// error, while SQS's own semantics are checked by TestContractOnSQS.
func TestContractOnFake(t *testing.T) {
	f := newFake(t)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := client(srv.URL)
	var n atomic.Int64
	queuetest.Run(t, queuetest.Harness{
		New: func(t *testing.T) (queue.Queue, queue.Queue) {
			name := fmt.Sprintf("q%d.fifo", n.Add(1))
			f.addQueue(t, name, 3)
			return New(c, srv.URL+"/000000000000/"+name), New(c, srv.URL+"/000000000000/"+name+"-dlq")
		},
		MaxReceives: 3,
		Unit:        time.Second,
		Parallel:    true,
	})
}

func TestRequestFields(t *testing.T) {
	f := newFake(t)
	srv := httptest.NewServer(f)
	defer srv.Close()
	f.addQueue(t, "orders.fifo", 0)
	url := srv.URL + "/000000000000/orders.fifo"
	q := New(client(srv.URL), url)
	ctx := context.Background()

	binary := []byte{0x00, 0xff, 0x01, 'x'}
	if err := q.Send(ctx, queue.Message{Group: "BTC_USDT", DedupID: "o-1", Body: binary,
		Attributes: map[string]string{queue.AttrCorrelationID: "corr-1"}}); err != nil {
		t.Fatal(err)
	}
	if err := q.SendBatch(ctx, []queue.Message{{Group: "ETH_USDT", Body: []byte("a")}, {Group: "ETH_USDT", Body: []byte("b")}}); err != nil {
		t.Fatal(err)
	}
	sends := f.recorded("SendMessage")
	if len(sends) != 1 {
		t.Fatalf("%d SendMessage requests", len(sends))
	}
	s := sends[0]
	if s["QueueUrl"] != url || s["MessageGroupId"] != "BTC_USDT" || s["MessageDeduplicationId"] != "o-1" {
		t.Fatalf("SendMessage fields: %v", s)
	}
	attrs, _ := json.Marshal(s["MessageAttributes"])
	var am map[string]jsonAttr
	_ = json.Unmarshal(attrs, &am)
	if am[queue.AttrCorrelationID] != (jsonAttr{"String", "corr-1"}) || am[BodyEncodingAttr].StringValue != "base64" {
		t.Fatalf("message attributes: %v", am)
	}
	batch := f.recorded("SendMessageBatch")
	if len(batch) != 1 {
		t.Fatalf("%d SendMessageBatch requests", len(batch))
	}
	entries := batch[0]["Entries"].([]any)
	e0, e1 := entries[0].(map[string]any), entries[1].(map[string]any)
	d0, _ := e0["MessageDeduplicationId"].(string)
	d1, _ := e1["MessageDeduplicationId"].(string)
	if len(entries) != 2 || d0 == "" || d0 == d1 || e0["MessageGroupId"] != "ETH_USDT" || e0["Id"] == e1["Id"] {
		t.Fatalf("batch entries: %v", entries)
	}

	ds, err := q.Receive(ctx, 50, 1500*time.Millisecond, 0)
	if err != nil {
		t.Fatal(err)
	}
	recv := f.recorded("ReceiveMessage")[0]
	if recv["MaxNumberOfMessages"] != float64(10) || recv["VisibilityTimeout"] != float64(2) || (recv["WaitTimeSeconds"] != nil && recv["WaitTimeSeconds"] != float64(0)) {
		t.Fatalf("ReceiveMessage fields: %v", recv)
	}
	if fmt.Sprint(recv["MessageAttributeNames"]) != "[All]" {
		t.Fatalf("MessageAttributeNames: %v", recv["MessageAttributeNames"])
	}
	if len(ds) != 3 {
		t.Fatalf("received %d messages, want all three", len(ds))
	}
	var btc queue.Delivery
	for _, d := range ds {
		if d.Group == "BTC_USDT" {
			btc = d
		}
	}
	if !bytes.Equal(btc.Body, binary) || btc.Attributes[queue.AttrCorrelationID] != "corr-1" || btc.ReceiveCount != 1 || btc.DedupID != "o-1" {
		t.Fatalf("delivery: %+v", btc)
	}
	if _, ok := btc.Attributes[BodyEncodingAttr]; ok {
		t.Fatal("the body-encoding marker must not reach the consumer")
	}
	if err := q.ChangeVisibility(ctx, btc.ReceiptHandle, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	cv := f.recorded("ChangeMessageVisibility")[0]
	if cv["ReceiptHandle"] != btc.ReceiptHandle || cv["VisibilityTimeout"] != float64(30) {
		t.Fatalf("ChangeMessageVisibility fields: %v", cv)
	}
	if err := q.Delete(ctx, btc.ReceiptHandle); err != nil {
		t.Fatal(err)
	}
	if del := f.recorded("DeleteMessage")[0]; del["ReceiptHandle"] != btc.ReceiptHandle || del["QueueUrl"] != url {
		t.Fatalf("DeleteMessage fields: %v", del)
	}
}

func TestSQSSafeBody(t *testing.T) {
	cases := map[string]bool{`{"a":"b"}`: true, "tab\tnl\n": true, "\x00": false, "\xff": false, "монгол ₮": true, "\uFFFE": false}
	for in, want := range cases {
		if got := sqsSafe([]byte(in)); got != want {
			t.Errorf("sqsSafe(%q) = %v, want %v", in, got, want)
		}
	}
	if seconds(0) != 0 || seconds(time.Millisecond) != 1 || seconds(time.Second) != 1 || seconds(1001*time.Millisecond) != 2 {
		t.Fatal("seconds must round up")
	}
}

// TestContractOnSQS runs the suite against a real SQS (or compatible)
// endpoint when SQS_ENDPOINT is set. With SQS_QUEUE_URL and SQS_DLQ_URL it
// uses those queues (their redrive policy must say maxReceiveCount =
// SQS_MAX_RECEIVES, default 3); otherwise it creates a FIFO queue pair per
// case and deletes it afterwards. No SQS emulator exists on the project's
// machines, so this is skipped there.
func TestContractOnSQS(t *testing.T) {
	endpoint := os.Getenv("SQS_ENDPOINT")
	if endpoint == "" {
		t.Skip("SQS_ENDPOINT not set: no SQS endpoint to test against")
	}
	c := client(endpoint)
	maxReceives := 3
	if v := os.Getenv("SQS_MAX_RECEIVES"); v != "" {
		fmt.Sscan(v, &maxReceives)
	}
	var n atomic.Int64
	run := time.Now().Unix()
	queuetest.Run(t, queuetest.Harness{
		New: func(t *testing.T) (queue.Queue, queue.Queue) {
			if u := os.Getenv("SQS_QUEUE_URL"); u != "" {
				return New(c, u), New(c, os.Getenv("SQS_DLQ_URL"))
			}
			ctx := context.Background()
			base := fmt.Sprintf("tenger-test-%d-%d", run, n.Add(1))
			dlq, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(base + "-dlq.fifo"),
				Attributes: map[string]string{string(types.QueueAttributeNameFifoQueue): "true"}})
			if err != nil {
				t.Fatal(err)
			}
			at, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: dlq.QueueUrl,
				AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn}})
			if err != nil {
				t.Fatal(err)
			}
			redrive := fmt.Sprintf(`{"deadLetterTargetArn":%q,"maxReceiveCount":"%d"}`, at.Attributes["QueueArn"], maxReceives)
			main, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(base + ".fifo"),
				Attributes: map[string]string{string(types.QueueAttributeNameFifoQueue): "true",
					string(types.QueueAttributeNameRedrivePolicy): redrive}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_, _ = c.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: main.QueueUrl})
				_, _ = c.DeleteQueue(context.Background(), &sqs.DeleteQueueInput{QueueUrl: dlq.QueueUrl})
			})
			return New(c, *main.QueueUrl), New(c, *dlq.QueueUrl)
		},
		MaxReceives: maxReceives,
		Unit:        time.Second,
		Parallel:    os.Getenv("SQS_QUEUE_URL") == "",
	})
}
