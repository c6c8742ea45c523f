package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"tenger/internal/engine"
	"tenger/internal/engine/remote"
	"tenger/internal/tracing"
	"tenger/internal/tracing/xray"
)

// answering is an engine that applies credits and refuses the one whose
// Ref is "poor".
type answering struct{ seq uint64 }

func (a *answering) Submit(_ context.Context, c engine.Command) engine.Result {
	if c.Ref == "poor" {
		return engine.Result{Code: engine.Insufficient, Seq: a.seq}
	}
	return engine.Result{Code: engine.OK, Seq: a.seq}
}

// tracedEndpoint serves remote.Handler through traced, exporting to
// memory as the task exports to its collector; sent receives the trace
// header of each request.
func tracedEndpoint(t *testing.T, ratio float64) (*remote.Client, *tracetest.InMemoryExporter, chan string) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithSampler(tracing.Sampler(ratio)),
		sdktrace.WithIDGenerator(tracing.IDGenerator()))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	h := traced(tp.Tracer("test"), remote.Handler(&answering{seq: 42}, testKey, nil))
	sent := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent <- r.Header.Get(xray.HeaderName)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return &remote.Client{URL: srv.URL, Key: testKey, HTTP: srv.Client()}, exp, sent
}

// lambdaContext is ctx as aws-lambda-go's runtime makes an invocation's.
func lambdaContext(header string) context.Context {
	//nolint:staticcheck // the runtime's own key, looked up the same way
	return context.WithValue(context.Background(), "x-amzn-trace-id", header)
}

func attrs(s tracetest.SpanStub) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

// A function's sampled call to the engine: the engine's span continues the
// function's trace, as the child of the span the header names.
func TestEndpointSpanContinuesTheCallersTrace(t *testing.T) {
	c, exp, sent := tracedEndpoint(t, 0)
	ctx := lambdaContext("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1")
	res, err := c.SubmitMany(ctx, []engine.Command{{Kind: engine.KindCredit, Ref: "a"}, {Kind: engine.KindCredit, Ref: "b"}})
	if err != nil || res[0].Code != engine.OK {
		t.Fatalf("%+v %v", res, err)
	}
	header, _ := xray.Parse(<-sent)
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	s := spans[0]
	if s.Name != "engine.submit" || s.SpanKind != trace.SpanKindServer {
		t.Errorf("span %s kind %v", s.Name, s.SpanKind)
	}
	if s.SpanContext.TraceID().String() != "5759e988bd862e3fe1be46a994272793" || s.SpanContext.TraceID() != trace.TraceID(header.TraceID) {
		t.Errorf("trace id %s, want the caller's", s.SpanContext.TraceID())
	}
	if !s.Parent.IsRemote() || s.Parent.SpanID() != trace.SpanID(header.Parent) {
		t.Errorf("parent %s (remote %v), want the caller's %x", s.Parent.SpanID(), s.Parent.IsRemote(), header.Parent)
	}
	a := attrs(s)
	for k, want := range map[attribute.Key]attribute.Value{
		"engine.commands": attribute.IntValue(2), "engine.outcome": attribute.StringValue(remote.OutcomeAccepted),
		"engine.wait": attribute.StringValue("journal"), "engine.seq": attribute.Int64Value(42),
		"http.response.status_code": attribute.IntValue(200), "http.request.method": attribute.StringValue("POST"),
	} {
		if a[k] != want {
			t.Errorf("%s = %v, want %v", k, a[k].Emit(), want.Emit())
		}
	}
	if s.Status.Code == codes.Error {
		t.Errorf("status %+v", s.Status)
	}
}

// A refused command is the engine's answer, not an error; a request it
// could not serve is.
func TestEndpointSpanOutcomes(t *testing.T) {
	c, exp, sent := tracedEndpoint(t, 1)
	c.SubmitMany(context.Background(), []engine.Command{{Kind: engine.KindCredit, Ref: "a"}, {Kind: engine.KindCredit, Ref: "poor"}})
	<-sent
	bad := &remote.Client{URL: c.URL, Key: []byte("another key"), HTTP: c.HTTP}
	bad.SubmitMany(context.Background(), []engine.Command{{Kind: engine.KindCredit, Ref: "a"}})
	<-sent
	spans := exp.GetSpans()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	if a := attrs(spans[0]); a["engine.outcome"].AsString() != remote.OutcomeRefused || a["engine.refused"].AsInt64() != 1 || spans[0].Status.Code == codes.Error {
		t.Errorf("refused: %v %+v", a, spans[0].Status)
	}
	if a := attrs(spans[1]); a["engine.outcome"].AsString() != remote.OutcomeError || a["http.response.status_code"].AsInt64() != 401 ||
		spans[1].Status.Code != codes.Error {
		t.Errorf("bad signature: %v %+v", a, spans[1].Status)
	}
	// Without a caller's trace, at ratio 1, the span starts a trace of
	// its own.
	if spans[0].Parent.IsValid() {
		t.Errorf("a root request has a parent: %v", spans[0].Parent)
	}
}

// A caller that does not sample its trace is not traced here either.
func TestEndpointSpanRespectsTheCallersDecision(t *testing.T) {
	c, exp, sent := tracedEndpoint(t, 1)
	ctx := lambdaContext("Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0")
	if r := c.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: "a"}); r.Code != engine.OK {
		t.Fatalf("%+v", r)
	}
	<-sent
	if n := len(exp.GetSpans()); n != 0 {
		t.Errorf("%d spans of an unsampled trace", n)
	}
}
