package awslambda

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// TestServiceOf: every invocation's context names the function serving
// it, whichever adapter runs it; a context outside an invocation names
// none.
func TestServiceOf(t *testing.T) {
	if s := ServiceOf(context.Background()); s != "" {
		t.Errorf("outside an invocation: %q", s)
	}
	ctx, _ := NewRuntime("workflow", io.Discard).Begin(context.Background(), "c-1")
	if s := ServiceOf(ctx); s != "workflow" {
		t.Errorf("Begin: %q", s)
	}
	var served string
	h := NewRuntime("profile", io.Discard).HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served = ServiceOf(r.Context())
		_, _ = io.WriteString(w, `{"code":"0"}`)
	}))
	var ev events.APIGatewayV2HTTPRequest
	loadSample(t, "http_login.json", &ev)
	if _, err := h(lambdaCtx("r-1"), ev); err != nil || served != "profile" {
		t.Errorf("HTTP: %q %v", served, err)
	}
	var batch events.DynamoDBEvent
	loadSample(t, "ddb_stream_batch.json", &batch)
	served = ""
	b := NewRuntime("stream", io.Discard).DynamoDBBatch(func(ctx context.Context, _ events.DynamoDBEventRecord) error {
		served = ServiceOf(ctx)
		return nil
	})
	if _, err := b(lambdaCtx("s-1"), batch); err != nil || served != "stream" {
		t.Errorf("batch: %q %v", served, err)
	}
}
