package remote

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"tenger/internal/engine"
	"tenger/internal/tracing/xray"
)

// lambdaContext is ctx as aws-lambda-go's runtime makes an invocation's:
// the trace header under the plain string key "x-amzn-trace-id".
func lambdaContext(header string) context.Context {
	//nolint:staticcheck // the runtime's own key, looked up the same way
	return context.WithValue(context.Background(), "x-amzn-trace-id", header)
}

// In a traced Lambda invocation the client passes its trace to the engine;
// outside one (tenger serve, tests, a function without tracing) it sends
// no trace header.
func TestClientSendsTheTraceHeader(t *testing.T) {
	// No X-Ray daemon: the invocation's header is passed on as it came.
	t.Setenv("AWS_XRAY_DAEMON_ADDRESS", "")
	key := []byte("0123456789abcdef0123456789abcdef")
	var calls int
	h := Handler(countingSubmitter{&calls}, key, nil)
	seen := make(chan []string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Values(xray.HeaderName)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, Key: key, HTTP: srv.Client()}
	cmd := engine.Command{Kind: engine.KindCredit, Ref: "d"}

	for _, sampled := range []string{"1", "0"} {
		header := "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=" + sampled + ";Lineage=1:2b1b7a0c:0"
		if r := c.Submit(lambdaContext(header), cmd); r.Code != engine.OK {
			t.Fatalf("submit: %+v", r)
		}
		got := <-seen
		if len(got) != 1 {
			t.Fatalf("Sampled=%s: trace headers sent %q", sampled, got)
		}
		sent, ok := xray.Parse(got[0])
		if !ok || sent.Root() != "1-5759e988-bd862e3fe1be46a994272793" || !sent.HasParent() {
			t.Errorf("Sampled=%s: header sent %q", sampled, got[0])
		}
		if want := map[string]xray.Sampling{"1": xray.Sampled, "0": xray.NotSampled}[sampled]; sent.Sampling != want {
			t.Errorf("Sampled=%s: the header sent says %q", sampled, got[0])
		}
	}

	// No trace in the context: nothing is sent, even with the variable
	// Lambda sets (read only inside Lambda) left in the environment.
	t.Setenv("_X_AMZN_TRACE_ID", "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1")
	if r := c.Submit(context.Background(), cmd); r.Code != engine.OK {
		t.Fatalf("submit: %+v", r)
	}
	if got := <-seen; len(got) != 0 {
		t.Errorf("trace headers sent outside Lambda: %q", got)
	}
	// A malformed header in the invocation is not passed on.
	c.Submit(lambdaContext("Root=junk"), cmd)
	if got := <-seen; len(got) != 0 {
		t.Errorf("a malformed header was passed on: %q", got)
	}
}

// scripted answers by the command's Ref.
type scripted struct{}

func (scripted) Submit(_ context.Context, c engine.Command) engine.Result {
	switch c.Ref {
	case "poor":
		return engine.Result{Code: engine.Insufficient, Seq: 3}
	case "down":
		return engine.Result{Code: engine.Unavailable}
	case "again":
		return engine.Result{Code: engine.Exists, Seq: 2}
	}
	return engine.Result{Code: engine.OK, Seq: 5}
}

// The endpoint reports what it did with a request whose context asks for
// it (the engine task's span of the request).
func TestHandlerReports(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	reported := func(s Submitter) (*Client, chan Report, func()) {
		h := Handler(s, key, nil)
		reports := make(chan Report, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var rep Report
			h.ServeHTTP(w, r.WithContext(WithReport(r.Context(), &rep)))
			reports <- rep
		}))
		return &Client{URL: srv.URL, Key: key, HTTP: srv.Client()}, reports, srv.Close
	}
	c, reports, stop := reported(scripted{})
	defer stop()
	ctx := context.Background()
	cmds := func(refs ...string) []engine.Command {
		out := make([]engine.Command, len(refs))
		for i, r := range refs {
			out[i] = engine.Command{Kind: engine.KindCredit, Ref: r}
		}
		return out
	}
	for _, tc := range []struct {
		refs []string
		want Report
	}{
		{[]string{"a", "again"}, Report{Commands: 2, Outcome: OutcomeAccepted, Seq: 5}},
		{[]string{"a", "poor", "poor"}, Report{Commands: 3, Outcome: OutcomeRefused, Refused: 2, Seq: 5}},
		{[]string{"poor", "down"}, Report{Commands: 2, Outcome: OutcomeError, Refused: 1, Seq: 3}},
	} {
		_, _ = c.SubmitMany(ctx, cmds(tc.refs...))
		if got := <-reports; got != tc.want {
			t.Errorf("%v: report %+v, want %+v", tc.refs, got, tc.want)
		}
	}
	// A request refused before the engine is an error of no commands.
	bad := &Client{URL: c.URL, Key: []byte("another key"), HTTP: c.HTTP}
	_, _ = bad.SubmitMany(ctx, cmds("a"))
	if got := <-reports; got != (Report{Outcome: OutcomeError}) {
		t.Errorf("bad signature: report %+v", got)
	}

	// Waiting for the store: applied but not shown is still accepted.
	c, reports, stop = reported(&projecting{})
	defer stop()
	_, _ = c.SubmitProjected(ctx, engine.Command{Kind: engine.KindCredit, Ref: "slow"})
	if got, want := <-reports, (Report{Commands: 1, Wait: WaitProjected, Outcome: OutcomeAccepted, NotProjected: 1, Seq: 9}); got != want {
		t.Errorf("projected: report %+v, want %+v", got, want)
	}
}
