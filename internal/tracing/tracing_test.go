package tracing

import (
	"context"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const (
	root   = "1-5759e988-bd862e3fe1be46a994272793"
	parent = "53995c3f42cd8ad8"
)

func carrier(header string) propagation.HeaderCarrier {
	h := http.Header{}
	if header != "" {
		h.Set("X-Amzn-Trace-Id", header)
	}
	return propagation.HeaderCarrier(h)
}

func TestPropagatorExtract(t *testing.T) {
	var p Propagator
	sc := trace.SpanContextFromContext(p.Extract(context.Background(), carrier("Root="+root+";Parent="+parent+";Sampled=1;Lineage=a:b:1")))
	if !sc.IsValid() || !sc.IsRemote() || !sc.IsSampled() {
		t.Fatalf("span context %+v", sc)
	}
	if sc.TraceID().String() != "5759e988bd862e3fe1be46a994272793" || sc.SpanID().String() != parent {
		t.Errorf("trace %s span %s", sc.TraceID(), sc.SpanID())
	}
	// Only Sampled=1 is a sampled caller.
	for _, flag := range []string{";Sampled=0", ";Sampled=?", ""} {
		sc := trace.SpanContextFromContext(p.Extract(context.Background(), carrier("Root="+root+";Parent="+parent+flag)))
		if !sc.IsValid() || sc.IsSampled() {
			t.Errorf("%q: span context %+v, want valid and not sampled", flag, sc)
		}
	}
}

// A malformed header, or one without a parent, leaves the context alone:
// the request starts a trace of its own.
func TestPropagatorIgnoresMalformedHeaders(t *testing.T) {
	var p Propagator
	for _, h := range []string{
		"",
		"junk",
		"Root=" + root + ";Sampled=1", // no parent
		"Root=1-5759e988-bd862e3f;Parent=" + parent,                 // short root
		"Root=" + root + ";Parent=xyz;Sampled=1",                    // bad parent
		"Root=1-5759e988-bd862e3fe1be46a99427279z;Parent=" + parent, // not hex
	} {
		ctx := context.Background()
		if got := p.Extract(ctx, carrier(h)); trace.SpanContextFromContext(got).IsValid() {
			t.Errorf("%q was followed: %+v", h, trace.SpanContextFromContext(got))
		}
	}
}

func TestPropagatorInject(t *testing.T) {
	var p Propagator
	tid, _ := trace.TraceIDFromHex("5759e988bd862e3fe1be46a994272793")
	sid, _ := trace.SpanIDFromHex(parent)
	for flags, want := range map[trace.TraceFlags]string{
		trace.FlagsSampled: "Root=" + root + ";Parent=" + parent + ";Sampled=1",
		0:                  "Root=" + root + ";Parent=" + parent + ";Sampled=0",
	} {
		ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags}))
		c := carrier("")
		p.Inject(ctx, c)
		if got := c.Get("X-Amzn-Trace-Id"); got != want {
			t.Errorf("Inject = %q, want %q", got, want)
		}
		// And back.
		if sc := trace.SpanContextFromContext(p.Extract(context.Background(), c)); sc.TraceID() != tid || sc.SpanID() != sid || sc.TraceFlags() != flags {
			t.Errorf("round trip %+v", sc)
		}
	}
	c := carrier("")
	p.Inject(context.Background(), c)
	if got := c.Get("X-Amzn-Trace-Id"); got != "" {
		t.Errorf("Inject without a span = %q", got)
	}
}

// provider is a tracer provider as Start makes one, exporting to memory.
func provider(ratio float64) (trace.Tracer, *tracetest.InMemoryExporter) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithSampler(Sampler(ratio)), sdktrace.WithIDGenerator(IDGenerator()))
	return tp.Tracer("test"), exp
}

// The caller's Sampled flag decides; requests without a caller are traced
// at the ratio, with trace ids X-Ray accepts.
func TestSamplerFollowsTheCaller(t *testing.T) {
	var p Propagator
	tr, exp := provider(0)
	for _, h := range []string{"Root=" + root + ";Parent=" + parent + ";Sampled=1", "Root=" + root + ";Parent=" + parent + ";Sampled=0", ""} {
		_, span := tr.Start(p.Extract(context.Background(), carrier(h)), "engine.submit")
		span.End()
	}
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want only the sampled caller's", len(spans))
	}
	if s := spans[0]; s.SpanContext.TraceID().String() != "5759e988bd862e3fe1be46a994272793" || s.Parent.SpanID().String() != parent {
		t.Errorf("span trace %s parent %s", s.SpanContext.TraceID(), s.Parent.SpanID())
	}

	tr, exp = provider(1)
	_, span := tr.Start(context.Background(), "engine.submit")
	span.End()
	_, span = tr.Start(p.Extract(context.Background(), carrier("Root="+root+";Parent="+parent+";Sampled=0")), "engine.submit")
	span.End()
	spans = exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want the one without a caller", len(spans))
	}
	id := spans[0].SpanContext.TraceID()
	if epoch := int64(binary.BigEndian.Uint32(id[:4])); time.Since(time.Unix(epoch, 0)).Abs() > time.Minute {
		t.Errorf("trace id %s does not begin with the epoch second", id)
	}
}

// Without an endpoint tracing is off: nothing is started and the nil
// provider's methods are safe.
func TestStartOff(t *testing.T) {
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvTracesEndpoint, "")
	p, err := Start(context.Background(), "test", nil)
	if p != nil || err != nil {
		t.Fatalf("Start = %v, %v", p, err)
	}
	if _, span := p.Tracer().Start(context.Background(), "x"); span.IsRecording() {
		t.Error("the off tracer records")
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
	t.Setenv(EnvEndpoint, "http://127.0.0.1:4318")
	t.Setenv(EnvDisabled, "true")
	if p, err := Start(context.Background(), "test", nil); p != nil || err != nil {
		t.Fatalf("disabled: Start = %v, %v", p, err)
	}
}

// With an endpoint the spans go there over OTLP/HTTP, the queued ones at
// the latest on Shutdown.
func TestStartExportsAndFlushesOnShutdown(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/traces" && r.Header.Get("Content-Type") == "application/x-protobuf" {
			posts.Add(1)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	t.Setenv(EnvEndpoint, srv.URL)
	t.Setenv(EnvTracesEndpoint, "")
	t.Setenv(EnvDisabled, "")
	t.Setenv(EnvSampler, "")
	t.Setenv(EnvSamplerArg, "1")
	p, err := Start(context.Background(), "test", nil)
	if err != nil || p == nil {
		t.Fatalf("Start = %v, %v", p, err)
	}
	_, span := p.Tracer().Start(context.Background(), "engine.submit")
	span.End()
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if posts.Load() != 1 {
		t.Errorf("%d exports, want the span flushed once", posts.Load())
	}

	t.Setenv(EnvSamplerArg, "2")
	if _, err := Start(context.Background(), "test", nil); err == nil {
		t.Error("a ratio above 1 was taken")
	}
}
