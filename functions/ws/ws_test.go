package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/push/apigw"
)

// mgmt records PostToConnection calls instead of reaching API Gateway.
type mgmt struct {
	mu    sync.Mutex
	posts map[string][]string
}

func (m *mgmt) PostToConnection(_ context.Context, in *apigatewaymanagementapi.PostToConnectionInput, _ ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.PostToConnectionOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.posts[*in.ConnectionId] = append(m.posts[*in.ConnectionId], string(in.Data))
	return &apigatewaymanagementapi.PostToConnectionOutput{}, nil
}

func (m *mgmt) DeleteConnection(context.Context, *apigatewaymanagementapi.DeleteConnectionInput, ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.DeleteConnectionOutput, error) {
	return &apigatewaymanagementapi.DeleteConnectionOutput{}, nil
}

func wsEvent(t *testing.T, name string) events.APIGatewayWebsocketProxyRequest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayWebsocketProxyRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestConnectSubscribeDisconnectFromSamples runs the recorded $connect,
// $default (sub frame) and $disconnect events through the ws function's
// handler on DynamoDB Local: the subscription reaches publishers while the
// connection lives and is gone after $disconnect.
func TestConnectSubscribeDisconnectFromSamples(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "ws-fn")
	api := &mgmt{posts: map[string][]string{}}
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(connections{fanout: fan})

	for _, name := range []string{"ws_connect.json", "ws_default_sub.json"} {
		if resp, err := h(ctx, wsEvent(t, name)); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %+v %v", name, resp, err)
		}
	}
	const conn, channel = "Ab1CdEfGhIjKlM=", "market_btcusdt_ticker"
	if got := strings.Join(api.posts[conn], ""); !strings.Contains(got, `"event_rep":"sub"`) || !strings.Contains(got, `"status":"ok"`) {
		t.Fatalf("sub reply = %q", got)
	}
	n, err := fan.Publish(ctx, channel, []byte(`{"channel":"market_btcusdt_ticker","tick":{"close":"67250.5"}}`))
	if err != nil || n != 1 {
		t.Fatalf("publish while connected: %d %v", n, err)
	}

	if resp, err := h(ctx, wsEvent(t, "ws_disconnect.json")); err != nil || resp.StatusCode != 200 {
		t.Fatalf("disconnect: %+v %v", resp, err)
	}
	if n, err := fan.Publish(ctx, channel, []byte(`{}`)); err != nil || n != 0 {
		t.Errorf("publish after disconnect reached %d connections (%v)", n, err)
	}

	// A malformed frame gets an error reply, not a failed invocation.
	bad := wsEvent(t, "ws_default_sub.json")
	bad.RequestContext.ConnectionID = "Zz9YyXxWwVv="
	if _, err := h(ctx, wsEvent(t, "ws_connect.json")); err != nil {
		t.Fatal(err)
	}
	bad.Body = `{"event":`
	if resp, _ := h(ctx, bad); resp.StatusCode != 200 {
		t.Errorf("malformed frame: status %d", resp.StatusCode)
	}
}
