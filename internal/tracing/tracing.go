// Package tracing is the engine task's OpenTelemetry tracing: spans of the
// requests its endpoint serves, continuing the X-Ray traces of the API
// functions that send them (Propagator), with ids X-Ray accepts
// (IDGenerator), exported over OTLP/HTTP to the ADOT collector running
// beside the engine in its task, which puts them into X-Ray.
//
// Tracing is on only when the task's environment names an OTLP endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, as
// the engine stack sets it); otherwise Start returns a nil Provider: no
// exporter, no goroutine, and the endpoint is not wrapped at all.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"tenger/internal/tracing/xray"
)

// The environment Start reads (the OpenTelemetry SDK's own names; the
// exporter reads the endpoint variables itself, and OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES name the resource).
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	// EnvDisabled "true" turns tracing off whatever the endpoint.
	EnvDisabled = "OTEL_SDK_DISABLED"
	// EnvSampler, when set, replaces the default sampler with the SDK's
	// named one (always_on, parentbased_traceidratio, ...).
	EnvSampler = "OTEL_TRACES_SAMPLER"
	// EnvSamplerArg is the share of the requests without a caller's
	// trace that are traced (0 to 1; DefaultRatio when unset).
	EnvSamplerArg = "OTEL_TRACES_SAMPLER_ARG"
)

// DefaultRatio is the share of the requests that arrive without a
// caller's trace that are traced: enough to see the engine's latency, few
// enough to cost little.
const DefaultRatio = 0.05

// instrumentation names the tracer.
const instrumentation = "tenger/engine"

// shutdownTimeout bounds a flush that Shutdown's context leaves unbounded.
const shutdownTimeout = 5 * time.Second

// Provider is the engine's tracer provider. A nil Provider is tracing
// off: its Tracer is a no-op and its Shutdown does nothing.
type Provider struct {
	tp *sdktrace.TracerProvider
}

// Start turns tracing on when the environment names an OTLP endpoint,
// naming the resource service (OTEL_SERVICE_NAME wins); otherwise, or when
// OTEL_SDK_DISABLED is "true", it returns nil. Export errors (the collector
// down, say) are passed to onError; they never reach a request.
func Start(ctx context.Context, service string, onError func(error)) (*Provider, error) {
	if os.Getenv(EnvEndpoint) == "" && os.Getenv(EnvTracesEndpoint) == "" {
		return nil, nil
	}
	if strings.EqualFold(strings.TrimSpace(os.Getenv(EnvDisabled)), "true") {
		return nil, nil
	}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithIDGenerator(IDGenerator())}
	// A sampler named in the environment is the SDK's to build; only
	// without one is the ratio read here.
	if os.Getenv(EnvSampler) == "" {
		ratio, err := ratioFromEnv()
		if err != nil {
			return nil, err
		}
		opts = append(opts, sdktrace.WithSampler(Sampler(ratio)))
	}
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceName(service)),
		// Later options win: the environment's service name and
		// attributes over the default.
		resource.WithFromEnv())
	if err != nil && res == nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing exporter: %w", err)
	}
	if onError != nil {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(onError))
	}
	opts = append(opts, sdktrace.WithResource(res), sdktrace.WithBatcher(exp))
	return &Provider{tp: sdktrace.NewTracerProvider(opts...)}, nil
}

func ratioFromEnv() (float64, error) {
	v := strings.TrimSpace(os.Getenv(EnvSamplerArg))
	if v == "" {
		return DefaultRatio, nil
	}
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || r < 0 || r > 1 {
		return 0, fmt.Errorf("%s %q: a ratio from 0 to 1", EnvSamplerArg, v)
	}
	return r, nil
}

// Tracer is the engine's tracer; a no-op one when tracing is off.
func (p *Provider) Tracer() trace.Tracer {
	if p == nil {
		return noop.NewTracerProvider().Tracer(instrumentation)
	}
	return p.tp.Tracer(instrumentation)
}

// Shutdown exports the spans still queued and stops the exporter: the
// engine calls it once its endpoint has drained. Without a deadline in ctx
// it gives up after five seconds.
func (p *Provider) Shutdown(ctx context.Context) error {
	if p == nil {
		return nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, shutdownTimeout)
		defer cancel()
	}
	err := p.tp.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("tracing: spans not flushed in time: %w", err)
	}
	return err
}

// Sampler follows the caller's decision (the Sampled flag of its trace
// header) and traces ratio of the requests that arrive without one.
func Sampler(ratio float64) sdktrace.Sampler {
	return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio))
}

// IDGenerator makes ids X-Ray accepts: trace ids that begin with their
// epoch second (xray.NewTraceID; the ADOT collector's X-Ray exporter drops
// spans whose trace id does not), random span ids.
func IDGenerator() sdktrace.IDGenerator { return idGenerator{} }

type idGenerator struct{}

func (idGenerator) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	return xray.NewTraceID(time.Now()), xray.NewID()
}

func (idGenerator) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	return xray.NewID()
}
