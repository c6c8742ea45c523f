// Package remote carries engine commands from the processes that take
// them (the API functions in AWS) to the engine task over a private
// endpoint, and the engine's answers back, synchronously: a Submit answers
// once the command is durable in the engine's journal, so a balance that
// cannot cover an order is refused in the caller's request, as in `tenger
// serve`.
//
// The wire format is the engine's own command codec, length-prefixed, in
// one POST of one or more commands; answers come back in the same order.
// Every request is signed with HMAC-SHA256 over its timestamp and body
// under a key both sides hold (a secret in AWS), and refused when the
// signature is wrong or the timestamp more than a minute away: the
// endpoint is inside the VPC, the key keeps anything else there from
// moving money.
//
// In a traced Lambda invocation a request also carries the invocation's
// X-Ray trace (X-Amzn-Trace-Id, internal/tracing/xray; unsigned, as it
// changes nothing the engine does), and the engine task continues it
// (WithReport gives its span what the endpoint did). Elsewhere no trace
// header is sent.
package remote

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"tenger/internal/engine"
	"tenger/internal/matching"
	"tenger/internal/tracing/xray"
)

// Path is the endpoint's path.
const Path = "/engine/submit"

// Headers of a request.
const (
	HeaderTime = "X-Engine-Time" // Unix ms
	HeaderSig  = "X-Engine-Sig"  // hex HMAC-SHA256 of time + "\n" + wait + "\n" + body
	// HeaderWait "projected" asks for answers once the store shows the
	// commands (ProjectedSubmitter), not only the journal.
	HeaderWait = "X-Engine-Wait"
)

// WaitProjected is HeaderWait's value for read-your-writes answers.
const WaitProjected = "projected"

// ErrNotProjected says a command was applied and is durable, but the
// store did not show it within the engine's wait.
var ErrNotProjected = errors.New("remote: the store does not show the command yet")

// MaxCommands bounds the commands of one request, MaxBody its size.
const (
	MaxCommands = 1024
	MaxBody     = 4 << 20
)

// clockSkew is how far a request's timestamp may be from the server's.
const clockSkew = time.Minute

// Submitter is what the endpoint serves: the engine (engine.Engine).
type Submitter interface {
	Submit(ctx context.Context, c engine.Command) engine.Result
}

// ProjectedSubmitter is a Submitter that can also answer once the store
// shows a command (spot.Runtime): its SubmitProjected's error says only
// that the store does not show it yet.
type ProjectedSubmitter interface {
	Submitter
	SubmitProjected(ctx context.Context, c engine.Command) (engine.Result, error)
}

func sign(key []byte, ts, wait string, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(ts))
	m.Write([]byte{'\n'})
	m.Write([]byte(wait))
	m.Write([]byte{'\n'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Handler serves the endpoint. Commands of one request are submitted
// concurrently (the engine groups them), and answered in their order.
func Handler(s Submitter, key []byte, now func() time.Time) http.Handler {
	if now == nil {
		now = time.Now
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A request answered before its commands' results is an error
		// in its report; finish says otherwise once they are known.
		rep := reportOf(r.Context())
		if rep != nil {
			rep.Outcome = OutcomeError
		}
		if r.Method != http.MethodPost || r.URL.Path != Path {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		ts, wait := r.Header.Get(HeaderTime), r.Header.Get(HeaderWait)
		if rep != nil {
			rep.Wait = wait
		}
		ms, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || now().Sub(time.UnixMilli(ms)).Abs() > clockSkew ||
			!hmac.Equal([]byte(r.Header.Get(HeaderSig)), []byte(sign(key, ts, wait, body))) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		ps, projects := s.(ProjectedSubmitter)
		if wait != "" && (wait != WaitProjected || !projects) {
			http.Error(w, "this endpoint cannot wait for "+wait, http.StatusBadRequest)
			return
		}
		cmds, err := decodeCommands(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if rep != nil {
			rep.Commands = len(cmds)
		}
		res := make([]answer, len(cmds))
		done := make(chan struct{}, len(cmds))
		for i := range cmds {
			go func() {
				defer func() { done <- struct{}{} }()
				if wait == "" {
					res[i].Result = s.Submit(r.Context(), cmds[i])
					return
				}
				var err error
				res[i].Result, err = ps.SubmitProjected(r.Context(), cmds[i])
				res[i].notProjected = err != nil
			}()
		}
		for range cmds {
			<-done
		}
		rep.finish(res)
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(encodeResults(res))
	})
}

// The outcomes of a request, as its Report gives them.
const (
	// OutcomeAccepted: the engine applied every command (or had, for a
	// retry), and the answers are durable.
	OutcomeAccepted = "accepted"
	// OutcomeRefused: the engine answered every command and refused at
	// least one (a balance that cannot cover an order, a rejected order,
	// an unknown pair...).
	OutcomeRefused = "refused"
	// OutcomeError: the request was not served (bad signature, malformed,
	// a wait the endpoint cannot give) or the engine could not make a
	// command durable (engine.Unavailable).
	OutcomeError = "error"
)

// Report is what the endpoint did with one request, for the engine task's
// trace of it: Handler fills the Report of a request whose context carries
// one (WithReport), and costs nothing more for any other.
type Report struct {
	// Commands is the number of commands in the request (0 when it was
	// not read); Wait its HeaderWait ("" for the journal).
	Commands int
	Wait     string
	Outcome  string
	// Refused counts the commands the engine refused, NotProjected those
	// applied that the store did not show in the wait.
	Refused, NotProjected int
	// Seq is the highest sequence number of the request's commands: the
	// engine batch that made them durable (0 when none was applied).
	Seq uint64
}

type reportKey struct{}

// WithReport returns ctx carrying rep, for Handler to fill.
func WithReport(ctx context.Context, rep *Report) context.Context {
	return context.WithValue(ctx, reportKey{}, rep)
}

func reportOf(ctx context.Context) *Report {
	rep, _ := ctx.Value(reportKey{}).(*Report)
	return rep
}

// finish sets the outcome from the commands' answers; nil-safe.
func (rep *Report) finish(res []answer) {
	if rep == nil {
		return
	}
	rep.Outcome = OutcomeAccepted
	for _, a := range res {
		rep.Seq = max(rep.Seq, a.Seq)
		if a.notProjected {
			rep.NotProjected++
		}
		switch a.Code {
		case engine.OK, engine.Exists:
		case engine.Unavailable:
			rep.Outcome = OutcomeError
		default:
			rep.Refused++
			if rep.Outcome == OutcomeAccepted {
				rep.Outcome = OutcomeRefused
			}
		}
	}
}

func encodeCommands(cmds []engine.Command) []byte {
	var out []byte
	out = binary.LittleEndian.AppendUint32(out, uint32(len(cmds)))
	for i := range cmds {
		c := engine.AppendCommand(nil, &cmds[i])
		out = binary.LittleEndian.AppendUint32(out, uint32(len(c)))
		out = append(out, c...)
	}
	return out
}

func decodeCommands(b []byte) ([]engine.Command, error) {
	if len(b) < 4 {
		return nil, errors.New("remote: no commands")
	}
	n := binary.LittleEndian.Uint32(b)
	b = b[4:]
	if n == 0 || n > MaxCommands {
		return nil, fmt.Errorf("remote: %d commands, 1 to %d per request", n, MaxCommands)
	}
	out := make([]engine.Command, n)
	for i := range out {
		if len(b) < 4 {
			return nil, errors.New("remote: truncated request")
		}
		l := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint32(len(b)) < l {
			return nil, errors.New("remote: truncated request")
		}
		if err := engine.DecodeCommand(b[:l], &out[i]); err != nil {
			return nil, fmt.Errorf("remote: command %d: %w", i, err)
		}
		b = b[l:]
	}
	if len(b) != 0 {
		return nil, errors.New("remote: data after the commands")
	}
	return out, nil
}

// answer is one command's answer: the engine's result, and whether the
// store did not show it within the wait (HeaderWait).
type answer struct {
	engine.Result
	notProjected bool
}

// An answer on the wire: code, reason, flags (bit 0: not projected), seq,
// and the order an Exists place names.
const resultSize = 19

func encodeResults(res []answer) []byte {
	out := make([]byte, 0, 4+resultSize*len(res))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(res)))
	for _, r := range res {
		var flags byte
		if r.notProjected {
			flags |= 1
		}
		out = append(out, byte(r.Code), byte(r.Reason), flags)
		out = binary.LittleEndian.AppendUint64(out, r.Seq)
		out = binary.LittleEndian.AppendUint64(out, r.OrderID)
	}
	return out
}

func decodeResults(b []byte, want int) ([]answer, error) {
	if len(b) != 4+resultSize*want || int(binary.LittleEndian.Uint32(b)) != want {
		return nil, fmt.Errorf("remote: an answer of %d bytes for %d commands", len(b), want)
	}
	out := make([]answer, want)
	for i := range out {
		r := b[4+i*resultSize:]
		out[i] = answer{Result: engine.Result{Code: engine.Code(r[0]), Reason: matching.Reason(r[1]), Seq: binary.LittleEndian.Uint64(r[3:]),
			OrderID: binary.LittleEndian.Uint64(r[11:])}, notProjected: r[2]&1 != 0}
	}
	return out, nil
}

// Client submits commands to the endpoint.
type Client struct {
	// URL is the engine's base URL (http://10.0.1.23:8082); Resolve, when
	// set, finds it instead (the active engine's address from its lease),
	// and is asked again when the engine it named cannot be reached.
	URL     string
	Resolve func(ctx context.Context) (string, error)
	Key     []byte
	HTTP    *http.Client
	Now     func() time.Time

	mu     sync.Mutex
	cached string
}

// Submit submits one command (engine.Engine's signature); Unavailable
// when the engine cannot be reached or its answer is not known.
func (c *Client) Submit(ctx context.Context, cmd engine.Command) engine.Result {
	res, err := c.SubmitMany(ctx, []engine.Command{cmd})
	if err != nil {
		return engine.Result{Code: engine.Unavailable}
	}
	return res[0]
}

// SubmitProjected submits one command and answers once the store shows it
// (spot.Runtime's SubmitProjected over the wire): ErrNotProjected with the
// result when the engine applied it but the store did not show it in time.
func (c *Client) SubmitProjected(ctx context.Context, cmd engine.Command) (engine.Result, error) {
	res, err := c.submit(ctx, []engine.Command{cmd}, WaitProjected)
	if err != nil {
		return engine.Result{Code: engine.Unavailable}, nil
	}
	if res[0].notProjected {
		return res[0].Result, ErrNotProjected
	}
	return res[0].Result, nil
}

// SubmitMany submits commands in one request and returns their answers in
// order; an error means none is known (the caller retries by its refs).
func (c *Client) SubmitMany(ctx context.Context, cmds []engine.Command) ([]engine.Result, error) {
	res, err := c.submit(ctx, cmds, "")
	if err != nil {
		return nil, err
	}
	out := make([]engine.Result, len(res))
	for i := range res {
		out[i] = res[i].Result
	}
	return out, nil
}

// errNotSent marks a request the engine certainly did not take: its
// connection was refused, or an engine that is not active answered it.
type errNotSent struct{ err error }

func (e errNotSent) Error() string { return e.err.Error() }
func (e errNotSent) Unwrap() error { return e.err }

// submit sends to the engine Resolve names; when that engine certainly did
// not take the request and Resolve now names another, it sends once more
// there (a standby took over). Nothing is sent twice to one engine.
func (c *Client) submit(ctx context.Context, cmds []engine.Command, wait string) ([]answer, error) {
	body := encodeCommands(cmds)
	base, err := c.base(ctx, false)
	if err != nil {
		return nil, err
	}
	res, err := c.send(ctx, base, body, wait, len(cmds))
	var ns errNotSent
	if err == nil || !errors.As(err, &ns) || c.Resolve == nil {
		return res, err
	}
	next, rerr := c.base(ctx, true)
	if rerr != nil || next == base {
		return nil, err
	}
	return c.send(ctx, next, body, wait, len(cmds))
}

// base is the engine's base URL, resolved again when fresh is set.
func (c *Client) base(ctx context.Context, fresh bool) (string, error) {
	if c.Resolve == nil {
		return c.URL, nil
	}
	c.mu.Lock()
	cached := c.cached
	c.mu.Unlock()
	if cached != "" && !fresh {
		return cached, nil
	}
	u, err := c.Resolve(ctx)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.cached = u
	c.mu.Unlock()
	return u, nil
}

// engineSegment names the engine's calls in a function's X-Ray trace.
const engineSegment = "engine"

func (c *Client) send(ctx context.Context, base string, body []byte, wait string, n int) (res []answer, err error) {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	ts := strconv.FormatInt(now().UnixMilli(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+Path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	// In a traced Lambda invocation the call is a subsegment of the
	// function's trace and the engine continues it (X-Amzn-Trace-Id,
	// outside the signature: it changes no command); elsewhere call is
	// nil and nothing is sent.
	call := xray.StartCall(ctx, engineSegment, http.MethodPost, req.URL.String())
	status := 0
	defer func() { call.End(status, err) }()
	if h := call.Header(); h != "" {
		req.Header.Set(xray.HeaderName, h)
	}
	req.Header.Set(HeaderTime, ts)
	if wait != "" {
		req.Header.Set(HeaderWait, wait)
	}
	req.Header.Set(HeaderSig, sign(c.Key, ts, wait, body))
	req.Header.Set("Content-Type", "application/octet-stream")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if op := (*net.OpError)(nil); errors.As(err, &op) && op.Op == "dial" {
			return nil, errNotSent{err}
		}
		return nil, err
	}
	defer resp.Body.Close()
	status = resp.StatusCode
	out, err := io.ReadAll(io.LimitReader(resp.Body, 4+resultSize*MaxCommands+1))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		return nil, errNotSent{fmt.Errorf("remote: engine answered %s: %.200s", resp.Status, out)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("remote: engine answered %s: %.200s", resp.Status, out)
	}
	return decodeResults(out, n)
}
