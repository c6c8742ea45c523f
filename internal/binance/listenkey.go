package binance

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"time"

	"tenger/internal/apikey"
)

// ListenKeys keep the listen keys of the user data streams
// (apikey.Service).
type ListenKeys interface {
	OpenListenKey(ctx context.Context, r apikey.Resolved) (string, error)
	KeepListenKey(ctx context.Context, r apikey.Resolved, listenKey string) error
	CloseListenKey(ctx context.Context, r apikey.Resolved, listenKey string) error
	ListenKeyOwner(ctx context.Context, listenKey string) (apiKey, uid string, err error)
}

// CodeBadListenKey is Binance's -1125.
const CodeBadListenKey = -1125

// ErrBadListenKey is -1125.
func ErrBadListenKey() *Error { return badRequest(CodeBadListenKey, "This listenKey does not exist.") }

// listenKeyRE is what a listen key looks like (apikey.KeyLen letters and
// digits): a /ws/ name of that form is looked up as one.
var listenKeyRE = regexp.MustCompile(`^[A-Za-z0-9]{64}$`)

// addListenKeyRoutes registers Binance's listen key calls (USER_STREAM:
// an API key, no signature):
//
//	POST   /api/v3/userDataStream              → {"listenKey":"…"} (the key's live one, or a new one)
//	PUT    /api/v3/userDataStream?listenKey=…  → {} (kept alive 60 minutes more)
//	DELETE /api/v3/userDataStream?listenKey=…  → {}
//
// The stream is /ws/<listenKey> (or /stream?streams=<listenKey>): the
// account's executionReport and outboundAccountPosition events, then
// listenKeyExpired when the key expires, is closed or its API key is
// deleted.
func (s *Server) addListenKeyRoutes() {
	const path = "/api/v3/userDataStream"
	s.route(http.MethodPost, path, 2, SecUserStream, func(c *Call) (any, error) {
		lk, err := s.opts.ListenKeys.OpenListenKey(c.Ctx, account(c))
		if err != nil {
			return nil, err
		}
		return struct {
			ListenKey string `json:"listenKey"`
		}{lk}, nil
	})
	// PUT keeps the key alive, DELETE closes it.
	onKey := func(act func(ctx context.Context, r apikey.Resolved, listenKey string) error) handlerFunc {
		return func(c *Call) (any, error) {
			lk, _, err := c.Params.String("listenKey", true)
			if err != nil {
				return nil, err
			}
			if err := act(c.Ctx, account(c), lk); errors.Is(err, apikey.ErrUnknownListenKey) {
				return nil, ErrBadListenKey()
			} else if err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}
	}
	s.route(http.MethodPut, path, 2, SecUserStream, onKey(s.opts.ListenKeys.KeepListenKey)).params("listenKey")
	s.route(http.MethodDelete, path, 2, SecUserStream, onKey(s.opts.ListenKeys.CloseListenKey)).params("listenKey")
}

// listenKeyExpired is the event that ends a listen key's stream.
type listenKeyExpired struct {
	Event     string `json:"e"`
	EventTime int64  `json:"E"`
	ListenKey string `json:"listenKey"`
}

// userStream makes a market streams session hear a listen key's events
// too (raw, or wrapped {"stream":<listenKey>,"data":…} on a combined
// connection). It answers the stop of the subscription; err is -1125 for
// a key that is not live.
func (st *Streams) userStream(ctx context.Context, ss *wsSession, listenKey string) (stop func(), err error) {
	s := st.s
	_, uid, err := s.checkListenKey(ctx, listenKey)
	if err != nil {
		return nil, err
	}
	stop = s.users.listen(uid, &userSub{
		deliver: func(ev []byte) bool { return ss.send(ListenKeyEvent(listenKey, ss.combined, ev)) },
		valid: func(ctx context.Context) bool {
			_, owner, err := s.opts.ListenKeys.ListenKeyOwner(ctx, listenKey)
			return err == nil && owner == uid
		},
		ended: func() {
			ss.send(ListenKeyEvent(listenKey, ss.combined, ListenKeyExpired(listenKey, s.now())))
			stop()
		},
	})
	return stop, nil
}

// ListenKeyEvent is a user data event as a listen-key stream sends it:
// as it is, or wrapped as {"stream":<listenKey>,"data":<event>} on a
// combined connection.
func ListenKeyEvent(listenKey string, combined bool, ev []byte) []byte {
	if !combined {
		return ev
	}
	b, _ := json.Marshal(struct {
		Stream string          `json:"stream"`
		Data   json.RawMessage `json:"data"`
	}{listenKey, ev})
	return b
}

// ListenKeyExpired is the last event of a listen-key stream: the key
// expired, was closed, or its API key was deleted.
func ListenKeyExpired(listenKey string, at time.Time) []byte {
	b, _ := json.Marshal(listenKeyExpired{Event: "listenKeyExpired", EventTime: at.UnixMilli(), ListenKey: listenKey})
	return b
}

// checkListenKey is the API key and user of a live listen key (-1125
// otherwise).
func (s *Server) checkListenKey(ctx context.Context, listenKey string) (apiKey, uid string, err error) {
	if s.users == nil || s.opts.ListenKeys == nil {
		return "", "", ErrBadListenKey()
	}
	apiKey, uid, err = s.opts.ListenKeys.ListenKeyOwner(ctx, listenKey)
	if errors.Is(err, apikey.ErrUnknownListenKey) {
		return "", "", ErrBadListenKey()
	}
	return apiKey, uid, err
}
