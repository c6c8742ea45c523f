package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi/types"
	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
	"tenger/internal/store/dynamo"
	"tenger/localstack/ddblocal"
)

// mgmt records posts; connections listed in gone answer GoneException, as
// API Gateway does for a client that went away without $disconnect.
type mgmt struct {
	mu    sync.Mutex
	posts map[string][]string
	gone  map[string]bool
	fail  error
}

func (m *mgmt) PostToConnection(_ context.Context, in *apigatewaymanagementapi.PostToConnectionInput, _ ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.PostToConnectionOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return nil, m.fail
	}
	if m.gone[*in.ConnectionId] {
		return nil, &types.GoneException{Message: new(string)}
	}
	m.posts[*in.ConnectionId] = append(m.posts[*in.ConnectionId], string(in.Data))
	return &apigatewaymanagementapi.PostToConnectionOutput{}, nil
}

func (m *mgmt) DeleteConnection(context.Context, *apigatewaymanagementapi.DeleteConnectionInput, ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.DeleteConnectionOutput, error) {
	return &apigatewaymanagementapi.DeleteConnectionOutput{}, nil
}

// TestStreamBatchFanOut feeds the recorded stream batch through the stream
// function: the trade ticker outbox item reaches the channel's subscribers,
// the order outbox item reaches the user's bound connection, the balance
// record (whose sort key names no ledger account; see TestStreamUserUpdates
// for real balance items) and the connection removal push nothing, and a
// subscriber that is gone is dropped without failing the batch.
func TestStreamBatchFanOut(t *testing.T) {
	ep := ddblocal.Endpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := ddblocal.NewClient(ctx, ep)
	table := fmt.Sprintf("tenger-stream-fn-%d", time.Now().UnixNano())
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	st := dynamo.New(client, ddblocal.NewStreamsClient(ctx, ep), table)
	t.Cleanup(func() {
		_ = st.Close()
		_ = dynamo.DeleteTable(context.Background(), client, table)
	})
	api := &mgmt{posts: map[string][]string{}, gone: map[string]bool{}}
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	for _, c := range []string{"viewer-1", "viewer-gone", "owner-1"} {
		if err := fan.OnConnect(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"viewer-1", "viewer-gone"} {
		if err := fan.Subscribe(ctx, c, "market_btcusdt_trade_ticker"); err != nil {
			t.Fatal(err)
		}
	}
	if err := fan.Bind(ctx, "owner-1", "u-5001", ""); err != nil {
		t.Fatal(err)
	}
	api.gone["viewer-gone"] = true

	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "ddb_stream_batch.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	h := awslambda.NewRuntime("stream", io.Discard).DynamoDBBatch(fanout{pusher: fan}.handle)
	resp, err := h(ctx, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("batch: %+v %v", resp, err)
	}
	if got := api.posts["viewer-1"]; len(got) != 1 || !strings.Contains(got[0], `"channel":"market_btcusdt_trade_ticker"`) ||
		!strings.Contains(got[0], `"data":{"price":"67250.5"`) || !strings.Contains(got[0], `"ts":1795252367000`) {
		t.Errorf("subscriber got %q", got)
	}
	if got := api.posts["owner-1"]; len(got) != 1 || !strings.Contains(got[0], `"orderId":"o-1001"`) {
		t.Errorf("order owner got %q", got)
	}
	if _, err := st.Get(ctx, store.Key{PK: "WSCONN#viewer-gone", SK: "META"}); err == nil {
		t.Error("gone connection was not dropped")
	}

	// A delivery failure that is not a gone client fails the batch at that
	// record, so Lambda retries from it.
	api.fail = fmt.Errorf("throttled")
	resp, _ = h(ctx, ev)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[0].Change.SequenceNumber {
		t.Errorf("failures = %+v", resp.BatchItemFailures)
	}
}
