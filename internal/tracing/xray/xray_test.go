package xray

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// lambdaHeader is a trace header as the Lambda runtime hands it to a
// function (with the Lineage field Lambda adds).
const lambdaHeader = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1;Lineage=1:2b1b7a0c:0"

// lambdaContext is ctx as aws-lambda-go's runtime makes an invocation's:
// the header under the plain string key "x-amzn-trace-id".
func lambdaContext(header string) context.Context {
	//nolint:staticcheck // the runtime's own key, looked up the same way
	return context.WithValue(context.Background(), "x-amzn-trace-id", header)
}

func TestParse(t *testing.T) {
	h, ok := Parse(lambdaHeader)
	if !ok {
		t.Fatal("a Lambda header was not read")
	}
	if h.Root() != "1-5759e988-bd862e3fe1be46a994272793" || !h.HasParent() || h.Sampling != Sampled {
		t.Fatalf("parsed %+v (root %s)", h, h.Root())
	}
	if got := binary.BigEndian.Uint32(h.TraceID[:4]); got != 0x5759e988 {
		t.Errorf("trace id epoch %x", got)
	}
	// Written back without the fields nothing downstream reads.
	if got, want := h.String(), "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	// Spaces after the separators, and the fields in any order.
	if h2, ok := Parse("Sampled=0; Parent=53995c3f42cd8ad8; Root=1-5759e988-bd862e3fe1be46a994272793"); !ok || h2.TraceID != h.TraceID ||
		h2.Parent != h.Parent || h2.Sampling != NotSampled {
		t.Errorf("reordered header: %+v %v", h2, ok)
	}

	for in, want := range map[string]Sampling{
		"Root=1-5759e988-bd862e3fe1be46a994272793":           SamplingUnknown,
		"Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=?": SamplingUnknown,
		"Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1": Sampled,
		"Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=0": NotSampled,
	} {
		h, ok := Parse(in)
		if !ok || h.Sampling != want || h.HasParent() {
			t.Errorf("Parse(%q) = %+v %v, want sampling %d without parent", in, h, ok, want)
		}
		if !ok || h.String() != strings.TrimSuffix(in, ";Sampled=?") {
			t.Errorf("Parse(%q).String() = %q", in, h.String())
		}
	}
}

// A header without a valid Root, or with a malformed Parent, is ignored
// whole.
func TestParseMalformed(t *testing.T) {
	for _, in := range []string{
		"",
		"garbage",
		"Parent=53995c3f42cd8ad8;Sampled=1",
		"Root=1-5759e988-bd862e3fe1be46a99427279;Parent=53995c3f42cd8ad8",   // root too short
		"Root=2-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",  // version
		"Root=1-5759e98g-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",  // not hex
		"Root=1_5759e988_bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",  // separators
		"Root=1-00000000-000000000000000000000000;Parent=53995c3f42cd8ad8",  // zero trace id
		"Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad",   // parent too short
		"Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8adz",  // parent not hex
		"Root=1-5759e988-bd862e3fe1be46a994272793;Parent=0000000000000000",  // zero parent
		"Root=1-5759e988-bd862e3fe1be46a994272793-;Parent=53995c3f42cd8ad8", // trailing junk
	} {
		if h, ok := Parse(in); ok {
			t.Errorf("Parse(%q) = %+v, want it ignored", in, h)
		}
	}
}

func TestNewIDs(t *testing.T) {
	now := time.Unix(1_765_000_000, 0)
	id := NewTraceID(now)
	if got := binary.BigEndian.Uint32(id[:4]); got != uint32(now.Unix()) {
		t.Errorf("trace id epoch %d, want %d", got, now.Unix())
	}
	if id == NewTraceID(now) {
		t.Error("two trace ids of one second are equal")
	}
	if NewID() == ([8]byte{}) || NewID() == NewID() {
		t.Error("span ids are zero or repeat")
	}
	h := Header{TraceID: id, Parent: NewID(), Sampling: Sampled}
	if back, ok := Parse(h.String()); !ok || back != h {
		t.Errorf("round trip %+v -> %q -> %+v", h, h.String(), back)
	}
}

func TestFromContext(t *testing.T) {
	if _, ok := FromContext(context.Background()); ok {
		t.Error("a trace outside Lambda")
	}
	h, ok := FromContext(lambdaContext(lambdaHeader))
	if !ok || h.Root() != "1-5759e988-bd862e3fe1be46a994272793" {
		t.Errorf("FromContext = %+v %v", h, ok)
	}
	if _, ok := FromContext(lambdaContext("junk")); ok {
		t.Error("a malformed header was followed")
	}
}

// listenDaemon is a stand-in X-Ray daemon: the default daemon points at
// it for the test.
func listenDaemon(t *testing.T) *net.UDPConn {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	d := &Daemon{Addr: conn.LocalAddr().String()}
	prev := defaultDaemon
	defaultDaemon = func() *Daemon { return d }
	t.Cleanup(func() { defaultDaemon = prev })
	return conn
}

// received reads one document the daemon got, or fails after a second.
func received(t *testing.T, conn *net.UDPConn) map[string]any {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 64<<10)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatalf("no subsegment: %v", err)
	}
	pre, doc, ok := strings.Cut(string(buf[:n]), "\n")
	if !ok || pre != `{"format":"json","version":1}` {
		t.Fatalf("datagram %q", buf[:n])
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A sampled invocation's call is a subsegment under the function's
// segment, and the header sent on names it as the parent.
func TestCallRecordsASubsegment(t *testing.T) {
	conn := listenDaemon(t)
	c := StartCall(lambdaContext(lambdaHeader), "engine", "POST", "http://10.0.1.23:8082/engine/submit")
	sent, ok := Parse(c.Header())
	if !ok || sent.Root() != "1-5759e988-bd862e3fe1be46a994272793" || sent.Sampling != Sampled {
		t.Fatalf("header sent %q", c.Header())
	}
	if sent.Parent == [8]byte{} || c.Header() == "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1" {
		t.Fatalf("the header sent does not name the call: %q", c.Header())
	}
	c.End(200, nil)
	doc := received(t, conn)
	want := map[string]any{"type": "subsegment", "name": "engine", "trace_id": "1-5759e988-bd862e3fe1be46a994272793",
		"parent_id": "53995c3f42cd8ad8", "id": strings.TrimSuffix(strings.TrimPrefix(c.Header(), "Root=1-5759e988-bd862e3fe1be46a994272793;Parent="), ";Sampled=1"),
		"namespace": "remote"}
	for k, v := range want {
		if doc[k] != v {
			t.Errorf("subsegment %s = %v, want %v (%v)", k, doc[k], v, doc)
		}
	}
	if doc["start_time"].(float64) > doc["end_time"].(float64) || doc["fault"] != nil || doc["error"] != nil {
		t.Errorf("subsegment times or flags: %v", doc)
	}
	if got := doc["http"].(map[string]any)["response"].(map[string]any)["status"]; got != 200.0 {
		t.Errorf("status %v", got)
	}

	// A call that got no answer, or a 5xx, is a fault; a 4xx an error.
	for _, tc := range []struct {
		status int
		err    error
		flag   string
	}{{0, errors.New("connection refused"), "fault"}, {503, nil, "fault"}, {401, nil, "error"}, {429, nil, "throttle"}} {
		c := StartCall(lambdaContext(lambdaHeader), "engine", "POST", "http://x/engine/submit")
		c.End(tc.status, tc.err)
		if doc := received(t, conn); doc[tc.flag] != true {
			t.Errorf("status %d err %v: %s not set: %v", tc.status, tc.err, tc.flag, doc)
		}
	}
}

// An invocation that is not sampled passes its header on as it came and
// records nothing; so does a sampled one without a daemon to send to.
func TestCallWithoutRecording(t *testing.T) {
	conn := listenDaemon(t)
	notSampled := "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0"
	c := StartCall(lambdaContext(notSampled), "engine", "POST", "http://x/engine/submit")
	if c.Header() != notSampled {
		t.Errorf("header sent %q, want %q", c.Header(), notSampled)
	}
	c.End(200, nil)
	_ = conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := conn.Read(make([]byte, 1024)); err == nil {
		t.Errorf("a subsegment of an unsampled trace: %d bytes", n)
	}

	defaultDaemon = func() *Daemon { return &Daemon{} }
	c = StartCall(lambdaContext(lambdaHeader), "engine", "POST", "http://x/engine/submit")
	if want := "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"; c.Header() != want {
		t.Errorf("without a daemon the header sent is %q, want %q", c.Header(), want)
	}
	c.End(200, nil)

	// Outside Lambda: no call at all, and its methods are safe.
	c = StartCall(context.Background(), "engine", "POST", "http://x/engine/submit")
	if c != nil || c.Header() != "" {
		t.Errorf("a call outside Lambda: %+v", c)
	}
	c.End(200, nil)
}

func TestDaemonAddr(t *testing.T) {
	for in, want := range map[string]string{
		"":                                      "",
		"169.254.79.129:2000":                   "169.254.79.129:2000",
		"tcp:127.0.0.1:2000 udp:127.0.0.2:2001": "127.0.0.2:2001",
		"udp:127.0.0.2:2001 tcp:127.0.0.1:2000": "127.0.0.2:2001",
	} {
		if got := daemonAddr(in); got != want {
			t.Errorf("daemonAddr(%q) = %q, want %q", in, got, want)
		}
	}
}
