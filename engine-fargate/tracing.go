package main

import (
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"tenger/internal/engine/remote"
	"tenger/internal/tracing"
)

// submitSpan names the span of one request to the engine's endpoint.
const submitSpan = "engine.submit"

// The span's own attributes (the collector's X-Ray exporter indexes them
// as annotations: stacks/engine.go's collector configuration).
const (
	attrCommands     = attribute.Key("engine.commands")
	attrWait         = attribute.Key("engine.wait")
	attrOutcome      = attribute.Key("engine.outcome")
	attrSeq          = attribute.Key("engine.seq")
	attrRefused      = attribute.Key("engine.refused")
	attrNotProjected = attribute.Key("engine.not_projected")
)

// traced makes each request h serves one server span, the child of the
// caller's span when its X-Ray header names one (the function's call to
// the engine), with what the endpoint did (remote.Report). A request the
// sampler leaves out is served as it came, with no report to fill.
func traced(tr trace.Tracer, h http.Handler) http.Handler {
	var prop tracing.Propagator
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tr.Start(ctx, submitSpan, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(r.Method), semconv.URLPath(r.URL.Path)))
		defer span.End()
		if !span.IsRecording() {
			h.ServeHTTP(w, r)
			return
		}
		var rep remote.Report
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r.WithContext(remote.WithReport(ctx, &rep)))
		wait := rep.Wait
		if wait == "" {
			wait = "journal"
		}
		span.SetAttributes(semconv.HTTPResponseStatusCode(sw.status), attrCommands.Int(rep.Commands), attrWait.String(wait),
			attrOutcome.String(rep.Outcome))
		if rep.Seq > 0 {
			span.SetAttributes(attrSeq.Int64(int64(rep.Seq)))
		}
		if rep.Refused > 0 {
			span.SetAttributes(attrRefused.Int(rep.Refused))
		}
		if rep.NotProjected > 0 {
			span.SetAttributes(attrNotProjected.Int(rep.NotProjected))
		}
		// A refused order is the engine doing its work; only a request it
		// could not serve is an error of the span.
		if rep.Outcome == remote.OutcomeError {
			desc := "a command was not made durable"
			if sw.status != http.StatusOK {
				desc = http.StatusText(sw.status)
			}
			span.SetStatus(codes.Error, desc)
		}
	})
}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
