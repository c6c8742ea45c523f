package push

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"tenger/internal/apperr"
)

func TestParseFrame(t *testing.T) {
	cases := []struct {
		in   string
		want Frame
	}{
		{`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`, Frame{Kind: FrameSub, Channel: "market_btcusdt_ticker"}},
		{`{"event":"unsub","params":{"channel":"a"}}`, Frame{Kind: FrameUnsub, Channel: "a"}},
		{`{"event":"auth","params":{"token":"t0k"}}`, Frame{Kind: FrameAuth, Token: "t0k"}},
		{`{"event":"ping"}`, Frame{Kind: FramePing}},
		{`{"ping":123}`, Frame{Kind: FramePing, Ping: json.RawMessage("123")}},
		{`{"ping":"abc"}`, Frame{Kind: FramePing, Ping: json.RawMessage(`"abc"`)}},
	}
	for _, c := range cases {
		got, err := ParseFrame([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got.Kind != c.want.Kind || got.Channel != c.want.Channel || got.Token != c.want.Token || string(got.Ping) != string(c.want.Ping) {
			t.Fatalf("%s: got %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{``, `[]`, `{}`, `{"event":"sub"}`, `{"event":"sub","params":{"channel":"a b"}}`,
		`{"event":"auth","params":{}}`, `{"ping":[1]}`, `{"event":"nope"}`, `{"event":"sub","params":{"channel":"` + strings.Repeat("x", 200) + `"}}`,
		`{"ping":1,"pad":"` + strings.Repeat("x", MaxFrameLen) + `"}`} {
		if _, err := ParseFrame([]byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: %v, want ErrInvalid", bad, err)
		}
	}
}

// A field of the wrong JSON type is named with its JSON kind, never a Go type.
func TestFrameTypeErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"event":"sub","params":"x"}`:           "params must be an object",
		`{"event":"sub","params":{"channel":1}}`: "params.channel must be a string",
		`{"event":1}`:                            "event must be a string",
	} {
		_, err := ParseFrame([]byte(in))
		if !errors.Is(err, ErrInvalid) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestPongAndEnvelopes(t *testing.T) {
	if got := string(Pong(Frame{Kind: FramePing, Ping: json.RawMessage("42")})); got != `{"pong":42}` {
		t.Fatalf("pong %s", got)
	}
	b, err := Data("user_orders", time.UnixMilli(5), map[string]string{"id": "o1"})
	if err != nil || string(b) != `{"channel":"user_orders","ts":5,"data":{"id":"o1"}}` {
		t.Fatalf("data %s %v", b, err)
	}
	b, err = Tick("market_x", time.UnixMilli(6), []int{1})
	if err != nil || string(b) != `{"channel":"market_x","ts":6,"tick":[1]}` {
		t.Fatalf("tick %s %v", b, err)
	}
}

// FuzzParseFrame: any input either parses into a frame whose fields obey
// the validation rules, or fails with ErrInvalid; a pong built from a parsed
// ping is always valid JSON.
func FuzzParseFrame(f *testing.F) {
	for _, s := range []string{`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`, `{"ping":1}`, `{"event":"ping"}`,
		`{"event":"auth","params":{"token":"x"}}`, `{"ping":"s"}`, `{"ping":null}`, `nope`,
		`{"id":"c1","method":"order.place","params":{"symbol":"btcusdt"}}`, `{"id":7,"method":"order.cancel"}`, `{"id":"x","method":"m","params":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := ParseFrame(b)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		switch fr.Kind {
		case FrameSub, FrameUnsub:
			if ValidateChannel(fr.Channel) != nil {
				t.Fatalf("accepted bad channel %q", fr.Channel)
			}
		case FramePing:
			if !json.Valid(Pong(fr)) {
				t.Fatalf("invalid pong %s", Pong(fr))
			}
		case FrameAuth:
			if fr.Token == "" {
				t.Fatal("auth without token")
			}
		case FrameRequest:
			if fr.Method == "" || len(fr.Method) > MaxMethodLen || len(fr.Params) == 0 || fr.Params[0] != '{' || !json.Valid(fr.ID) {
				t.Fatalf("accepted bad request %+v", fr)
			}
		default:
			t.Fatalf("unknown kind %d", fr.Kind)
		}
	})
}

// subPusher records subscriptions.
type subPusher struct {
	Pusher
	subs []string
}

func (p *subPusher) Subscribe(_ context.Context, _, ch string) error {
	p.subs = append(p.subs, ch)
	return nil
}

func (p *subPusher) Unsubscribe(context.Context, string, string) error { return nil }

// TestHandleFrameRefusesUnknownChannels: with a channel check, a
// subscription to a channel it does not know gets an error reply and is not
// made; a frame with a wrongly typed field says which field.
func TestHandleFrameRefusesUnknownChannels(t *testing.T) {
	p := &subPusher{}
	known := func(ch string) bool { return ch == "market_btcusdt_ticker" }
	reply := func(frame string) eventRep {
		b, err := HandleFrame(context.Background(), p, nil, known, "c1", []byte(frame))
		var r eventRep
		if err != nil || json.Unmarshal(b, &r) != nil {
			t.Fatalf("%s: %s %v", frame, b, err)
		}
		return r
	}
	if r := reply(`{"event":"sub","params":{"channel":"market_dogeusdt_ticker"}}`); r.Status != "error" || r.Msg != "unknown channel" {
		t.Fatalf("unknown channel: %+v", r)
	}
	if r := reply(`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`); r.Status != "ok" {
		t.Fatalf("known channel: %+v", r)
	}
	if len(p.subs) != 1 || p.subs[0] != "market_btcusdt_ticker" {
		t.Fatalf("subscriptions %v", p.subs)
	}
	if r := reply(`{"event":"sub","params":{"channel":123}}`); r.Status != "error" || r.Msg != "params.channel must be a string" {
		t.Fatalf("typed channel: %+v", r)
	}
	if r := reply(`{"event":"unsub","params":{"channel":"market_dogeusdt_ticker"}}`); r.Status != "ok" {
		t.Fatalf("unsub of an unknown channel: %+v", r)
	}
	var r eventRep
	if err := json.Unmarshal(ErrorReply("text frames only"), &r); err != nil || r.TS <= 0 || r.Msg != "text frames only" {
		t.Fatalf("error reply %+v %v", r, err)
	}
}

// TestParseRequestFrame: a frame with a method and no event is a request:
// its id is echoed as sent (a string, or an integer), params default to
// {}, and a bad request is still a FrameRequest (with its id when that is
// valid) whose error names what is wrong, so its answer can say so.
func TestParseRequestFrame(t *testing.T) {
	f, err := ParseFrame([]byte(`{"id":"c1","method":"order.place","params":{"symbol":"btcusdt"},"lang":"mn_MN"}`))
	if err != nil || f.Kind != FrameRequest || string(f.ID) != `"c1"` || f.Method != "order.place" ||
		string(f.Params) != `{"symbol":"btcusdt"}` || f.Lang != "mn_MN" {
		t.Fatalf("request %+v %v", f, err)
	}
	f, err = ParseFrame([]byte(`{"method":"order.cancelAll","id":-42}`))
	if err != nil || string(f.ID) != "-42" || string(f.Params) != "{}" || f.Lang != "" {
		t.Fatalf("integer id %+v %v", f, err)
	}
	// A frame with an event is read as before, whatever else it holds.
	if f, err := ParseFrame([]byte(`{"event":"ping","method":"order.place"}`)); err != nil || f.Kind != FramePing {
		t.Fatalf("event frame with a method %+v %v", f, err)
	}
	for in, want := range map[string]struct{ id, msg string }{
		`{"method":"order.place"}`:                              {"", "id: required"},
		`{"id":"","method":"order.place"}`:                      {"", "id: must be a string of 1 to 64 characters or an integer"},
		`{"id":1.5,"method":"order.place"}`:                     {"", "id: must be a string of 1 to 64 characters or an integer"},
		`{"id":{"a":1},"method":"order.place"}`:                 {"", "id: must be a string of 1 to 64 characters or an integer"},
		`{"id":"` + strings.Repeat("x", 65) + `","method":"m"}`: {"", "id: must be a string of 1 to 64 characters or an integer"},
		`{"id":"a\nb","method":"m"}`:                            {"", "id: must be a string of 1 to 64 characters or an integer"},
		`{"id":"c2","method":5}`:                                {`"c2"`, "method: must be a string of 1 to 64 characters"},
		`{"id":"c3","method":""}`:                               {`"c3"`, "method: must be a string of 1 to 64 characters"},
		`{"id":"c4","method":"order.place","params":[1]}`:       {`"c4"`, "params: must be a JSON object"},
		`{"id":"c5","method":"order.place","params":"x"}`:       {`"c5"`, "params: must be a JSON object"},
		`{"id":"c6","method":"order.place","id":"c7"}`:          {`"c7"`, "id: duplicate key"},
	} {
		f, err := ParseFrame([]byte(in))
		if f.Kind != FrameRequest || !errors.Is(err, ErrInvalid) || !strings.HasSuffix(err.Error(), want.msg) || string(f.ID) != want.id {
			t.Errorf("%s: %+v %v, want id %q and %q", in, f, err, want.id, want.msg)
		}
	}
	// A request longer than MaxFrameLen is refused before it is read.
	long := `{"id":"c8","method":"order.place","params":{"pad":"` + strings.Repeat("x", MaxFrameLen) + `"}}`
	if f, err := ParseFrame([]byte(long)); !errors.Is(err, ErrInvalid) || f.Kind == FrameRequest {
		t.Fatalf("long request %+v %v", f, err)
	}
}

// TestRequestOf: a bad request frame is refused with 410 naming what is
// wrong; a good one carries its parts.
func TestRequestOf(t *testing.T) {
	f, perr := ParseFrame([]byte(`{"id":"c1","method":"order.place","params":[]}`))
	r := RequestOf(f, perr)
	var ae *apperr.Error
	if !errors.As(r.Refused, &ae) || ae.Entry.Code != apperr.CodeParam || !strings.Contains(ae.Message(apperr.LangEN), "params: must be a JSON object") || string(r.ID) != `"c1"` {
		t.Fatalf("refused request %+v", r)
	}
	f, perr = ParseFrame([]byte(`{"id":"c2","method":"order.cancel","params":{"order_id":"5"}}`))
	if r := RequestOf(f, perr); r.Refused != nil || r.Method != "order.cancel" || string(r.Params) != `{"order_id":"5"}` {
		t.Fatalf("request %+v", r)
	}
}

// TestApplyFrameRefusesRequestsWithoutMethods: an adapter that serves no
// requests answers one with an error reply (and no panic).
func TestApplyFrameRefusesRequestsWithoutMethods(t *testing.T) {
	b, err := HandleFrame(context.Background(), &subPusher{}, nil, nil, "c1", []byte(`{"id":"c1","method":"order.place"}`))
	var r eventRep
	if err != nil || json.Unmarshal(b, &r) != nil || r.Status != "error" || r.Msg == "" {
		t.Fatalf("request without methods: %s %v", b, err)
	}
}

// TestServeRequestRecovers: a RequestFunc that panics is answered as its
// refusal with CodeInternal, and the panic is reported.
func TestServeRequestRecovers(t *testing.T) {
	rf := func(_ context.Context, r Request) []byte {
		if r.Refused == nil {
			panic("boom")
		}
		return []byte(apperr.As(r.Refused).Entry.Code)
	}
	answer, p := ServeRequest(context.Background(), rf, Request{ID: json.RawMessage(`"c1"`)})
	if p == nil || string(answer) != apperr.CodeInternal {
		t.Fatalf("answer %s, panic %v", answer, p)
	}
}
