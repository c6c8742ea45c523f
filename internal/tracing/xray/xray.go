// Package xray reads and writes AWS X-Ray trace headers (X-Amzn-Trace-Id),
// makes ids X-Ray accepts, and records a Lambda function's calls to a
// downstream service as X-Ray subsegments. It uses the standard library
// only: the API functions link it (internal/engine/remote's client carries
// their trace to the engine task), and they must not grow by an
// OpenTelemetry SDK for one header; the engine task's OpenTelemetry setup
// (internal/tracing) reads the same headers through it.
package xray

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"
)

// HeaderName is the HTTP header that carries an X-Ray trace.
const HeaderName = "X-Amzn-Trace-Id"

// Sampling is a trace header's sampling decision.
type Sampling uint8

// The decisions a header can carry.
const (
	// SamplingUnknown: no Sampled field, or "Sampled=?" (the caller left
	// the decision to the receiver).
	SamplingUnknown Sampling = iota
	Sampled
	NotSampled
)

// Header is a parsed X-Amzn-Trace-Id: "Root=1-<8 hex epoch>-<24 hex>;
// Parent=<16 hex>;Sampled=0|1". Fields other than these three (Lineage,
// Self) are dropped: the engine, the one receiver, reads none of them.
type Header struct {
	// TraceID is Root's 128 bits: the epoch second the trace began (4
	// bytes), then 12 random bytes. It is an OpenTelemetry trace id as is.
	TraceID [16]byte
	// Parent is the caller's segment or subsegment id; zero when absent.
	Parent   [8]byte
	Sampling Sampling
}

// Parse reads a trace header. It reports false for a header without a
// valid Root or with a malformed Parent: such a header is ignored whole,
// as X-Ray ignores it, rather than half trusted.
func Parse(s string) (Header, bool) {
	var h Header
	root := false
	for part := range strings.SplitSeq(s, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "Root":
			if !parseRoot(v, &h.TraceID) {
				return Header{}, false
			}
			root = true
		case "Parent":
			if len(v) != 16 {
				return Header{}, false
			}
			if _, err := hex.Decode(h.Parent[:], []byte(v)); err != nil || h.Parent == [8]byte{} {
				return Header{}, false
			}
		case "Sampled":
			switch v {
			case "1":
				h.Sampling = Sampled
			case "0":
				h.Sampling = NotSampled
			default:
				h.Sampling = SamplingUnknown
			}
		}
	}
	return h, root
}

// parseRoot reads "1-<8 hex>-<24 hex>" into id; a zero id is not valid.
func parseRoot(v string, id *[16]byte) bool {
	if len(v) != 35 || v[0] != '1' || v[1] != '-' || v[10] != '-' {
		return false
	}
	if _, err := hex.Decode(id[:4], []byte(v[2:10])); err != nil {
		return false
	}
	if _, err := hex.Decode(id[4:], []byte(v[11:])); err != nil {
		return false
	}
	return *id != [16]byte{}
}

// HasParent says whether the header names its caller's segment.
func (h Header) HasParent() bool { return h.Parent != [8]byte{} }

// Root is the X-Ray form of TraceID: "1-<8 hex>-<24 hex>".
func (h Header) Root() string {
	var b [35]byte
	b[0], b[1], b[10] = '1', '-', '-'
	hex.Encode(b[2:10], h.TraceID[:4])
	hex.Encode(b[11:], h.TraceID[4:])
	return string(b[:])
}

// String is the header's value, with Parent when set and Sampled when
// decided.
func (h Header) String() string {
	var b strings.Builder
	b.Grow(len("Root=;Parent=;Sampled=0") + 35 + 16)
	b.WriteString("Root=")
	b.WriteString(h.Root())
	if h.HasParent() {
		b.WriteString(";Parent=")
		b.WriteString(hex.EncodeToString(h.Parent[:]))
	}
	switch h.Sampling {
	case Sampled:
		b.WriteString(";Sampled=1")
	case NotSampled:
		b.WriteString(";Sampled=0")
	}
	return b.String()
}

// NewTraceID makes a trace id X-Ray accepts: the epoch second of now in
// its first four bytes (X-Ray drops traces whose ids start more than 30
// days in the past), then 12 random bytes.
func NewTraceID(now time.Time) [16]byte {
	var id [16]byte
	binary.BigEndian.PutUint32(id[:4], uint32(now.Unix()))
	binary.BigEndian.PutUint32(id[4:8], rand.Uint32())
	binary.BigEndian.PutUint64(id[8:], rand.Uint64())
	return id
}

// NewID makes a segment (span) id: 8 random bytes, never all zero.
func NewID() [8]byte {
	var id [8]byte
	for id == [8]byte{} {
		binary.BigEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}

// lambdaTraceKey is the context key under which aws-lambda-go's runtime
// puts the invocation's trace header (lambda/invoke_loop.go: a plain
// string key, so it is looked up with one).
const lambdaTraceKey = "x-amzn-trace-id"

// inLambda says whether this process is a Lambda function: only there is
// _X_AMZN_TRACE_ID read.
var inLambda = sync.OnceValue(func() bool { return os.Getenv("AWS_LAMBDA_RUNTIME_API") != "" })

// FromContext is the trace of the Lambda invocation ctx belongs to: the
// header the Go runtime puts in the invocation's context, or, for a
// context not derived from it, the _X_AMZN_TRACE_ID variable the runtime
// sets while a function serves one invocation at a time. Outside Lambda
// (tenger serve, tests) there is none.
func FromContext(ctx context.Context) (Header, bool) {
	raw, _ := ctx.Value(lambdaTraceKey).(string)
	if raw == "" && inLambda() {
		raw = os.Getenv("_X_AMZN_TRACE_ID")
	}
	if raw == "" {
		return Header{}, false
	}
	return Parse(raw)
}
