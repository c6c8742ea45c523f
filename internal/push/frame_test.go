package push

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
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
		`{"event":"auth","params":{"token":"x"}}`, `{"ping":"s"}`, `{"ping":null}`, `nope`} {
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
		default:
			t.Fatalf("unknown kind %d", fr.Kind)
		}
	})
}
