// Package fntest holds what the Lambda functions' handler tests share: a
// fresh table on DynamoDB Local that checks every call of a function or
// of the engine against its declared key space (internal/store/keyspace),
// a recording notifier, the recorded API Gateway events of events/samples
// with their placeholders filled, a call helper that decodes the
// envelope, the engine task's endpoint, API keys made on a table
// (APIKeys) and the DynamoDB stream records of store changes
// (StreamEvent). It is imported by tests only.
package fntest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"tenger/internal/awslambda"
	"tenger/internal/engine/lease"
	"tenger/internal/engine/remote"
	"tenger/internal/futures"
	"tenger/internal/httpapi"
	"tenger/internal/notify"
	"tenger/internal/platform"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/dynamo"
	"tenger/localstack/ddblocal"
)

// Table creates a table of its own on DynamoDB Local (the test is skipped
// without it, as ddblocal.Endpoint does) and deletes it when the test ends.
// Every call a function's handler or the engine task makes on it is
// checked against the caller's key space (internal/store/keyspace) when
// the test ends: one outside it fails the test, as IAM would refuse it in
// AWS (keyGuard).
func Table(t testing.TB, name string) *dynamo.Store {
	t.Helper()
	ep := ddblocal.Endpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	guard := &keyGuard{}
	client := ddblocal.NewClient(ctx, ep, func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, guard.middleware)
	})
	table := fmt.Sprintf("tenger-%s-%d", name, time.Now().UnixNano())
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	st := dynamo.New(client, ddblocal.NewStreamsClient(ctx, ep), table)
	t.Cleanup(func() {
		guard.check(t)
		_ = st.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = dynamo.DeleteTable(ctx, client, table)
	})
	return st
}

// Recorder is a notify.Sender that keeps what was sent, so a test can read
// the code a user would receive.
type Recorder struct {
	mu   sync.Mutex
	sent []notify.Message
}

var _ notify.Sender = (*Recorder)(nil)

// Send records a valid message.
func (r *Recorder) Send(_ context.Context, m notify.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m)
	return nil
}

// LastCode returns the newest code sent to an address ("" when none).
func (r *Recorder) LastCode(to string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.sent) - 1; i >= 0; i-- {
		if r.sent[i].To == to {
			return r.sent[i].Code
		}
	}
	return ""
}

// Messages returns what was sent to an address, oldest first.
func (r *Recorder) Messages(to string) []notify.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []notify.Message
	for _, m := range r.sent {
		if m.To == to {
			out = append(out, m)
		}
	}
	return out
}

// SampleEvent reads events/samples/<name> (from a functions/<fn> test
// directory) and replaces its {{placeholders}} in the body, cookies and
// headers; an unfilled placeholder in the body fails the test.
func SampleEvent(t testing.TB, name string, fill map[string]string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	var ev events.APIGatewayV2HTTPRequest
	readSample(t, name, &ev)
	for k, v := range fill {
		ph := "{{" + k + "}}"
		ev.Body = strings.ReplaceAll(ev.Body, ph, v)
		for i, c := range ev.Cookies {
			ev.Cookies[i] = strings.ReplaceAll(c, ph, v)
		}
		for h, val := range ev.Headers {
			ev.Headers[h] = strings.ReplaceAll(val, ph, v)
		}
	}
	if strings.Contains(ev.Body, "{{") {
		t.Fatalf("%s: unfilled placeholder in %s", name, ev.Body)
	}
	// A browser signed in with this session token sends its session's
	// anti-forgery token (sign-in set it in the XSRF-TOKEN cookie), not the
	// recorded event's value, which belongs to no session.
	if tok := fill["token"]; tok != "" {
		if _, ok := ev.Headers["x-xsrf-token"]; ok {
			v := httpapi.XSRFToken(tok)
			ev.Headers["x-xsrf-token"] = v
			for i, c := range ev.Cookies {
				if strings.HasPrefix(c, httpapi.CookieXSRF+"=") {
					ev.Cookies[i] = httpapi.CookieXSRF + "=" + v
				}
			}
		}
	}
	return ev
}

// Envelope is an API answer with its data left raw.
type Envelope struct {
	Code string          `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

// Do runs an event through a handler and decodes the answer's envelope.
func Do(t testing.TB, h awslambda.HTTPFunc, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, Envelope) {
	t.Helper()
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "test-" + ev.RequestContext.RequestID})
	resp, err := h(ctx, ev)
	if err != nil {
		t.Fatalf("%s: %v", ev.RawPath, err)
	}
	var env Envelope
	if err := json.Unmarshal([]byte(resp.Body), &env); err != nil {
		t.Fatalf("%s: status %d body %q: %v", ev.RawPath, resp.StatusCode, resp.Body, err)
	}
	return resp, env
}

// Call is Do that, with out set, also requires success and decodes the data.
func Call(t testing.TB, h awslambda.HTTPFunc, ev events.APIGatewayV2HTTPRequest, out any) Envelope {
	t.Helper()
	_, env := Do(t, h, ev)
	if out != nil {
		if env.Code != "0" {
			t.Fatalf("%s: %+v", ev.RawPath, env)
		}
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatalf("%s: data %s: %v", ev.RawPath, env.Data, err)
		}
	}
	return env
}

// EngineKey signs the test engine's endpoint.
var EngineKey = []byte("fntest-engine-key-0123456789abcdef")

// Engine runs the engine that owns the spot balances on st as the engine
// task does in AWS: its journal in a temp dir, its projection into st,
// its endpoint on a local port, and the lease item naming that port. It
// sets d.EngineRemote, so d's services reach it as a function's do, and
// returns the engine (to check it against the store); it stops when the
// test ends.
func Engine(t testing.TB, d *platform.Deps) *spot.Runtime {
	t.Helper()
	rt, _ := EngineFutures(t, d)
	return rt
}

// EngineFutures is Engine, answering also the engine's futures runtime
// (its price loop does not run by itself: the test moves the index,
// SetDevIndex, and runs Step).
func EngineFutures(t testing.TB, d *platform.Deps) (*spot.Runtime, *futures.Runtime) {
	t.Helper()
	// The engine's calls go through its own store, so they are checked
	// against the engine task's key space, not the function's.
	st := EngineStore(d.Store)
	decimals := func(coin string) int32 { dec, _ := spot.CoinDecimals(d.Coins, coin); return dec }
	fr, err := futures.New(futures.Options{Contracts: d.Contracts(), Decimals: decimals, Store: st, Every: -1, Log: d.Log})
	if err != nil {
		t.Fatal(err)
	}
	ro := spot.RuntimeOptions{Dir: t.TempDir(), Store: st, Coins: d.Coins,
		Markets: d.Markets, Counter: spotfunds.Counter, Log: d.Log, SnapshotEvery: -1}
	fr.EngineOptions(&ro)
	rt, err := spot.StartRuntime(context.Background(), ro)
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.Start(context.Background(), rt); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(remote.Handler(rt, EngineKey, nil))
	l := lease.New(st, platform.EngineLease, "fntest", time.Hour, nil)
	l.Advertise(strings.TrimPrefix(srv.URL, "http://"))
	if ok, err := l.TryAcquire(context.Background()); !ok || err != nil {
		t.Fatalf("engine lease: %v %v", ok, err)
	}
	t.Cleanup(func() {
		srv.Close()
		fr.Close()
		_ = rt.Close()
	})
	UseEngine(d)
	return rt, fr
}

// UseEngine has d's services reach the engine Engine started, as another
// function's process would.
func UseEngine(d *platform.Deps) {
	d.EngineRemote = platform.NewRemoteEngine(d.Store, d.Coins, EngineKey)
	d.EngineKey = EngineKey
}

// WebSocketEvent reads a recorded WebSocket API event of events/samples
// (as a function's test, two directories below the repository, sees it).
func WebSocketEvent(t testing.TB, name string) events.APIGatewayWebsocketProxyRequest {
	t.Helper()
	var ev events.APIGatewayWebsocketProxyRequest
	readSample(t, name, &ev)
	return ev
}

// readSample decodes a recorded event of events/samples into ev.
func readSample(t testing.TB, name string, ev any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, ev); err != nil {
		t.Fatal(err)
	}
}
