package tracing

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"tenger/internal/tracing/xray"
)

// Propagator carries span contexts in X-Ray trace headers
// (X-Amzn-Trace-Id): Root is the trace id, Parent the span id, Sampled
// the sampled flag. The engine reads the header its callers send
// (internal/engine/remote's client passes the Lambda invocation's trace).
//
// A header without a valid Root, with a malformed Parent, or with no
// Parent at all is ignored: the request starts a trace of its own. Only
// "Sampled=1" marks the caller's trace sampled.
type Propagator struct{}

var _ propagation.TextMapPropagator = Propagator{}

// Inject writes the span context of ctx as an X-Ray header, when valid.
func (Propagator) Inject(ctx context.Context, carrier propagation.TextMapCarrier) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return
	}
	h := xray.Header{TraceID: sc.TraceID(), Parent: sc.SpanID(), Sampling: xray.NotSampled}
	if sc.IsSampled() {
		h.Sampling = xray.Sampled
	}
	carrier.Set(xray.HeaderName, h.String())
}

// Extract returns ctx with the remote span context of the carrier's X-Ray
// header, or ctx as it is when there is none worth following.
func (Propagator) Extract(ctx context.Context, carrier propagation.TextMapCarrier) context.Context {
	h, ok := xray.Parse(carrier.Get(xray.HeaderName))
	if !ok || !h.HasParent() {
		return ctx
	}
	var flags trace.TraceFlags
	if h.Sampling == xray.Sampled {
		flags = trace.FlagsSampled
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: h.TraceID, SpanID: h.Parent, TraceFlags: flags, Remote: true,
	})
	return trace.ContextWithRemoteSpanContext(ctx, sc)
}

// Fields are the headers Inject writes.
func (Propagator) Fields() []string { return []string{xray.HeaderName} }
