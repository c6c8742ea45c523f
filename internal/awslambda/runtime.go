// Package awslambda adapts Tenger's handlers to the AWS Lambda event shapes:
// API Gateway HTTP API (payload v2) requests to a net/http handler,
// WebSocket API events, DynamoDB stream batches with partial batch failure
// reporting, and the per-invocation zerolog context every function logs with
// (service, cold_start, function_request_id and a correlation id carried
// across the HTTP and change-feed hops).
//
// The functions under functions/<name> are thin mains around this package, so
// the behaviour tested here with recorded sample events is the behaviour in
// production.
package awslambda

import (
	"context"
	"crypto/subtle"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"

	"tenger/internal/emf"
)

// Log field names shared by every function, so one CloudWatch Logs Insights
// query can follow a request across the HTTP and stream hops.
const (
	FieldService           = "service"
	FieldColdStart         = "cold_start"
	FieldFunctionRequestID = "function_request_id"
	FieldCorrelationID     = "correlation_id"
)

// Where the correlation id travels between processes.
const (
	// HeaderCorrelationID is the HTTP request header a caller may set to
	// continue its own correlation id; without it the API Gateway request id
	// is used.
	HeaderCorrelationID = "X-Correlation-Id"
	// ItemAttrCorrelationID is the item attribute that carries the id of the
	// request that last wrote an item, so the change-feed consumer can log
	// under the same id as the writer.
	ItemAttrCorrelationID = "cid"
)

type correlationKey struct{}

// WithCorrelationID returns a context carrying id; producers read it back
// with CorrelationID to stamp outgoing messages and items.
func WithCorrelationID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, correlationKey{}, id)
}

// CorrelationID returns the correlation id carried by ctx, or "".
func CorrelationID(ctx context.Context) string {
	id, _ := ctx.Value(correlationKey{}).(string)
	return id
}

// Runtime is the per-process state of one Lambda function: its service name,
// its base logger and whether the next invocation is the cold start.
type Runtime struct {
	service string
	base    zerolog.Logger
	warm    atomic.Bool
	// origin, when set, is the value of HeaderOrigin every HTTP request and
	// WebSocket $connect must carry (RequireOrigin).
	origin string
	// metrics writes each request's outcome in CloudWatch's embedded metric
	// format, on the function's output (MetricsNamespace).
	metrics *emf.Writer
}

// MetricsNamespace is the CloudWatch namespace of the functions' metrics:
// Requests (Count) by Service and Outcome (ok, refused, error), so orders
// accepted and refused are the trade function's, withdrawal requests the
// wallet function's.
const MetricsNamespace = "Tenger/Api"

// countRequest writes one request's outcome metric.
func (r *Runtime) countRequest(outcome string, log zerolog.Logger) {
	if r.metrics == nil {
		return
	}
	if err := r.metrics.PutWith(time.Now(), map[string]string{"Outcome": outcome}, emf.Metric{Name: "Requests", Unit: emf.Count, Value: 1}); err != nil {
		log.Warn().Err(err).Msg("request metric not written")
	}
}

// HeaderOrigin is the header the edge (CloudFront) adds to every request
// it forwards to API Gateway, with a secret value: a request without it
// reached the execute-api endpoint directly, around the edge's web ACL.
const HeaderOrigin = "X-Tenger-Origin"

// RequireOrigin makes the function refuse (403) HTTP requests and
// WebSocket connections that do not carry HeaderOrigin with key: only the
// edge's are served. An empty key requires nothing.
func (r *Runtime) RequireOrigin(key string) { r.origin = key }

// fromEdge reports whether a request's headers carry the edge's key (or
// none is required).
func (r *Runtime) fromEdge(headers map[string]string) bool {
	if r.origin == "" {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(headerValue(headers, HeaderOrigin)), []byte(r.origin)) == 1
}

// NewRuntime returns the runtime of the function named service, logging JSON
// lines to w (os.Stdout when nil, which Lambda ships to CloudWatch Logs) at
// the level named by $LOG_LEVEL (info when unset or unknown).
func NewRuntime(service string, w io.Writer) *Runtime {
	if w == nil {
		w = os.Stdout
	}
	level := zerolog.InfoLevel
	if l, err := zerolog.ParseLevel(os.Getenv("LOG_LEVEL")); err == nil && l != zerolog.NoLevel {
		level = l
	}
	base := zerolog.New(w).Level(level).With().Timestamp().Str(FieldService, service).Logger()
	return &Runtime{service: service, base: base, metrics: emf.New(w, MetricsNamespace, map[string]string{"Service": service})}
}

// Service returns the function's service name.
func (r *Runtime) Service() string { return r.service }

// Logger returns the base logger (no invocation fields), for start-up logs.
func (r *Runtime) Logger() zerolog.Logger { return r.base }

// Begin starts one invocation: it returns a context carrying the correlation
// id and a logger (reachable with zerolog.Ctx) holding service, cold_start
// (true only on the process's first invocation) and function_request_id.
// An empty correlationID falls back to the Lambda request id, so every log
// line has one.
func (r *Runtime) Begin(ctx context.Context, correlationID string) (context.Context, zerolog.Logger) {
	inv := r.start(ctx)
	return inv.scope(ctx, correlationID)
}

// invocation is what one call to the function knows about itself.
type invocation struct {
	service   string
	base      zerolog.Logger
	cold      bool
	requestID string
}

func (r *Runtime) start(ctx context.Context) invocation {
	inv := invocation{service: r.service, base: r.base, cold: !r.warm.Swap(true)}
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		inv.requestID = lc.AwsRequestID
	}
	return inv
}

// scope returns the context and logger of the invocation, or of one record of
// a batch (each message of a batch may come from a different request, so each
// gets its own correlation id). extra holds alternating field names and values.
func (inv invocation) scope(ctx context.Context, correlationID string, extra ...string) (context.Context, zerolog.Logger) {
	if correlationID == "" {
		correlationID = inv.requestID
	}
	lc := inv.base.With().
		Bool(FieldColdStart, inv.cold).
		Str(FieldFunctionRequestID, inv.requestID).
		Str(FieldCorrelationID, correlationID)
	for i := 0; i+1 < len(extra); i += 2 {
		lc = lc.Str(extra[i], extra[i+1])
	}
	l := lc.Logger()
	ctx = WithCorrelationID(ctx, correlationID)
	ctx = context.WithValue(ctx, serviceKey{}, inv.service)
	return l.WithContext(ctx), l
}

type serviceKey struct{}

// ServiceOf returns the service name of the function whose invocation ctx
// belongs to (the Runtime's, set by Begin and the event adapters), or ""
// outside any invocation. The handler tests attribute the table calls a
// handler makes to its function by it (functions/fntest), so a test's own
// setup, which runs outside an invocation, is not taken for the function.
func ServiceOf(ctx context.Context) string {
	s, _ := ctx.Value(serviceKey{}).(string)
	return s
}
