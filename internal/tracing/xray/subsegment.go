package xray

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Call is one call a traced Lambda invocation makes to a downstream
// service over HTTP. When the invocation is sampled and the X-Ray daemon
// is reachable, the call becomes a subsegment of the function's segment
// (sent to the daemon when it ends) and the header sent downstream names
// it as the parent, so the service's own segment hangs under the call in
// the trace; otherwise the invocation's header is passed on as it came.
type Call struct {
	send   Header // the header sent downstream
	parent [8]byte
	id     [8]byte
	name   string
	method string
	url    string
	start  time.Time
	daemon *Daemon // nil: nothing is recorded
}

// StartCall starts a call named name (the service, as X-Ray's trace map
// shows it) to url. It is nil, and costs nothing more, when ctx carries no
// trace: outside Lambda, or in a function without active tracing.
func StartCall(ctx context.Context, name, method, url string) *Call {
	h, ok := FromContext(ctx)
	if !ok {
		return nil
	}
	c := &Call{send: h}
	if h.Sampling != Sampled || !h.HasParent() {
		return c
	}
	d := DefaultDaemon()
	if !d.reachable() {
		return c
	}
	*c = Call{send: h, parent: h.Parent, id: NewID(), name: name, method: method, url: url, start: time.Now(), daemon: d}
	c.send.Parent = c.id
	return c
}

// Header is the trace header to send downstream; "" for a nil Call.
func (c *Call) Header() string {
	if c == nil {
		return ""
	}
	return c.send.String()
}

// End records the call's end: its HTTP status (0 when no answer came) and
// the transport error, if any. Nil-safe; a call that records nothing
// returns at once.
func (c *Call) End(status int, err error) {
	if c == nil || c.daemon == nil {
		return
	}
	end := time.Now()
	doc := subsegment{
		Type: "subsegment", Name: c.name, ID: hex.EncodeToString(c.id[:]), TraceID: c.send.Root(),
		ParentID: hex.EncodeToString(c.parent[:]), Namespace: "remote",
		StartTime: seconds(c.start), EndTime: seconds(end),
		HTTP: &subsegmentHTTP{Request: subsegmentRequest{Method: c.method, URL: c.url}},
	}
	if status > 0 {
		doc.HTTP.Response = &subsegmentResponse{Status: status}
	}
	// X-Ray's classes: an error is the caller's fault (4xx), a throttle a
	// 429, a fault the service's (5xx) or the network's (no answer).
	switch {
	case err != nil || status == 0 || status >= 500:
		doc.Fault = true
	case status == http.StatusTooManyRequests:
		doc.Error, doc.Throttle = true, true
	case status >= 400:
		doc.Error = true
	}
	c.daemon.send(doc)
}

func seconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// subsegment is an independent subsegment document: X-Ray joins it to its
// parent segment by trace_id and parent_id.
type subsegment struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	ID        string          `json:"id"`
	TraceID   string          `json:"trace_id"`
	ParentID  string          `json:"parent_id"`
	StartTime float64         `json:"start_time"`
	EndTime   float64         `json:"end_time"`
	Namespace string          `json:"namespace"`
	HTTP      *subsegmentHTTP `json:"http,omitempty"`
	Error     bool            `json:"error,omitempty"`
	Throttle  bool            `json:"throttle,omitempty"`
	Fault     bool            `json:"fault,omitempty"`
}

type subsegmentHTTP struct {
	Request  subsegmentRequest   `json:"request"`
	Response *subsegmentResponse `json:"response,omitempty"`
}

type subsegmentRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
}

type subsegmentResponse struct {
	Status int `json:"status"`
}

// Daemon is the X-Ray daemon a Lambda function's subsegments are sent to,
// over UDP (the daemon Lambda runs beside a traced function).
type Daemon struct {
	// Addr is the daemon's UDP address (host:port).
	Addr string

	once sync.Once
	conn net.Conn
}

var defaultDaemon = sync.OnceValue(func() *Daemon {
	return &Daemon{Addr: daemonAddr(os.Getenv("AWS_XRAY_DAEMON_ADDRESS"))}
})

// DefaultDaemon is the daemon AWS_XRAY_DAEMON_ADDRESS names (Lambda sets
// it in a traced function); its Addr is empty elsewhere.
func DefaultDaemon() *Daemon { return defaultDaemon() }

// daemonAddr reads AWS_XRAY_DAEMON_ADDRESS: "host:port", or "tcp:host:port
// udp:host:port" when the two differ; subsegments go over UDP.
func daemonAddr(v string) string {
	for f := range strings.FieldsSeq(v) {
		if a, ok := strings.CutPrefix(f, "udp:"); ok {
			return a
		}
		if !strings.HasPrefix(f, "tcp:") {
			return f
		}
	}
	return ""
}

// reachable dials the daemon once: a UDP "connection" only fixes the
// destination, so it fails only on a bad address.
func (d *Daemon) reachable() bool {
	d.once.Do(func() {
		if d.Addr == "" {
			return
		}
		if c, err := net.Dial("udp", d.Addr); err == nil {
			d.conn = c
		}
	})
	return d.conn != nil
}

// daemonPreamble heads every document sent to the daemon.
const daemonPreamble = `{"format":"json","version":1}` + "\n"

// send writes one document in one datagram. A lost datagram loses one
// subsegment, never the call: errors are dropped.
func (d *Daemon) send(doc subsegment) {
	b, err := json.Marshal(doc)
	if err != nil {
		return
	}
	_, _ = d.conn.Write(append([]byte(daemonPreamble), b...))
}
