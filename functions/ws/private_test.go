package main

import (
	"context"
	"io"
	"strings"
	"tenger/functions/fntest"
	"tenger/internal/push/apigw/apigwtest"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/push/apigw"
	"tenger/internal/store/embedded"
	"tenger/internal/userfeed"
)

// TestAuthFrameBindsPrivateUpdates runs the recorded $connect and an auth
// frame ($default) through the ws function's handler: a valid session token
// binds the connection, so the user's private updates reach it and another
// user's do not; a forged token binds nothing; a sub frame for a private
// channel is refused.
func TestAuthFrameBindsPrivateUpdates(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	api := apigwtest.New()
	sessions := map[string]string{"session-of-alice": "10000001", "session-of-bob": "10000002"}
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop(), Auth: func(_ context.Context, tok string) (string, string, bool) {
		u, ok := sessions[tok]
		return u, "id-of-" + tok, ok
	}})
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(connections{fanout: fan})

	const conn = "Ab1CdEfGhIjKlM="
	if resp, err := h(ctx, fntest.WebSocketEvent(t, "ws_connect.json")); err != nil || resp.StatusCode != 200 {
		t.Fatalf("$connect: %+v %v", resp, err)
	}
	frame := func(body string) string {
		t.Helper()
		ev := fntest.WebSocketEvent(t, "ws_default_auth.json")
		ev.Body = body
		before := len(api.Posts[conn])
		if resp, err := h(ctx, ev); err != nil || resp.StatusCode != 200 {
			t.Fatalf("$default %s: %+v %v", body, resp, err)
		}
		if len(api.Posts[conn]) != before+1 {
			t.Fatalf("$default %s: %d replies", body, len(api.Posts[conn])-before)
		}
		return api.Posts[conn][before]
	}

	forged := fntest.WebSocketEvent(t, "ws_default_auth.json")
	forged.Body = strings.ReplaceAll(forged.Body, "{{token}}", "forged")
	if reply := frame(forged.Body); !strings.Contains(reply, `"event_rep":"auth"`) || !strings.Contains(reply, `"status":"error"`) {
		t.Fatalf("forged token reply %s", reply)
	}
	if n, err := fan.PublishUser(ctx, "10000001", []byte(`{}`)); err != nil || n != 0 {
		t.Fatalf("a forged token bound the connection: %d %v", n, err)
	}

	auth := fntest.WebSocketEvent(t, "ws_default_auth.json")
	auth.Body = strings.ReplaceAll(auth.Body, "{{token}}", "session-of-alice")
	if reply := frame(auth.Body); !strings.Contains(reply, `"status":"ok"`) {
		t.Fatalf("auth reply %s", reply)
	}
	if reply := frame(`{"event":"sub","params":{"channel":"` + userfeed.ChannelOrders + `"}}`); !strings.Contains(reply, `"status":"error"`) {
		t.Fatalf("sub to a private channel: %s", reply)
	}
	if n, err := fan.PublishUser(ctx, "10000001", []byte(`{"channel":"user_orders","data":{"order_id":"1"}}`)); err != nil || n != 1 {
		t.Fatalf("alice's update reached %d connections (%v), want 1", n, err)
	}
	if n, err := fan.PublishUser(ctx, "10000002", []byte(`{"channel":"user_orders","data":{"order_id":"2"}}`)); err != nil || n != 0 {
		t.Fatalf("bob's update reached %d connections (%v), want 0", n, err)
	}
	if last := api.Posts[conn][len(api.Posts[conn])-1]; !strings.Contains(last, `"order_id":"1"`) {
		t.Fatalf("connection got %s last", last)
	}
}
