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
	"net/http"
	"strconv"
	"time"

	"tenger/internal/engine"
	"tenger/internal/matching"
)

// Path is the endpoint's path.
const Path = "/engine/submit"

// Headers of a request.
const (
	HeaderTime = "X-Engine-Time" // Unix ms
	HeaderSig  = "X-Engine-Sig"  // hex HMAC-SHA256 of time + "\n" + body
)

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

func sign(key []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(ts))
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
		if r.Method != http.MethodPost || r.URL.Path != Path {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		ts := r.Header.Get(HeaderTime)
		ms, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || now().Sub(time.UnixMilli(ms)).Abs() > clockSkew ||
			!hmac.Equal([]byte(r.Header.Get(HeaderSig)), []byte(sign(key, ts, body))) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		cmds, err := decodeCommands(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := make([]engine.Result, len(cmds))
		done := make(chan struct{}, len(cmds))
		for i := range cmds {
			go func() {
				res[i] = s.Submit(r.Context(), cmds[i])
				done <- struct{}{}
			}()
		}
		for range cmds {
			<-done
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(encodeResults(res))
	})
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

// A result on the wire: code, reason, seq.
const resultSize = 10

func encodeResults(res []engine.Result) []byte {
	out := make([]byte, 0, 4+resultSize*len(res))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(res)))
	for _, r := range res {
		out = append(out, byte(r.Code), byte(r.Reason))
		out = binary.LittleEndian.AppendUint64(out, r.Seq)
	}
	return out
}

func decodeResults(b []byte, want int) ([]engine.Result, error) {
	if len(b) != 4+resultSize*want || int(binary.LittleEndian.Uint32(b)) != want {
		return nil, fmt.Errorf("remote: an answer of %d bytes for %d commands", len(b), want)
	}
	out := make([]engine.Result, want)
	for i := range out {
		r := b[4+i*resultSize:]
		out[i] = engine.Result{Code: engine.Code(r[0]), Reason: matching.Reason(r[1]), Seq: binary.LittleEndian.Uint64(r[2:])}
	}
	return out, nil
}

// Client submits commands to the endpoint.
type Client struct {
	URL  string // the engine's base URL (http://engine.tenger.local:8082)
	Key  []byte
	HTTP *http.Client
	Now  func() time.Time
}

// Submit submits one command (engine.Engine's signature).
func (c *Client) Submit(ctx context.Context, cmd engine.Command) engine.Result {
	res, err := c.SubmitMany(ctx, []engine.Command{cmd})
	if err != nil {
		return engine.Result{Code: engine.Unavailable}
	}
	return res[0]
}

// SubmitMany submits commands in one request and returns their answers in
// order; an error means none is known (the caller retries by its refs).
func (c *Client) SubmitMany(ctx context.Context, cmds []engine.Command) ([]engine.Result, error) {
	body := encodeCommands(cmds)
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	ts := strconv.FormatInt(now().UnixMilli(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+Path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set(HeaderTime, ts)
	req.Header.Set(HeaderSig, sign(c.Key, ts, body))
	req.Header.Set("Content-Type", "application/octet-stream")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 4+resultSize*MaxCommands+1))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("remote: engine answered %s: %.200s", resp.Status, out)
	}
	return decodeResults(out, len(cmds))
}
