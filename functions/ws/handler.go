package main

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apikey"
	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/binance/wsstreamsaws"
	"tenger/internal/platform"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
)

// connections adapts the push port's AWS adapter to the WebSocket API's
// routes: $connect records the connection (with its TTL), $disconnect
// forgets it, $default handles sub/unsub/auth/ping frames and order-entry
// requests and posts the reply with PostToConnection. Frames in Binance's
// market stream dialect (SUBSCRIBE, LIST_SUBSCRIPTIONS...) are answered
// from the same endpoint, and ?streams= at $connect subscribes to them
// (internal/binance/wsstreamsaws): the engine task publishes their events.
type connections struct {
	fanout *apigw.Fanout
	// binance knows the stream names (the pair catalogue); st keeps the
	// connections' Binance subscriptions.
	binance *binance.Server
	st      store.Store
	now     func() time.Time
}

var _ awslambda.WebSocketHandler = connections{}

// Errors of newConnections.
var (
	errNoPush = errors.New("ws: " + platform.EnvWSEndpoint + " is not set, no WebSocket adapter")
)

// newConnections builds the handler from the platform's ports: the API
// Gateway adapter platform.NewAWS builds when WS_ENDPOINT is set (auth
// frames resolve sessions through the profile service), answering request
// frames with the spot service as the trade function builds it.
func newConnections(d *platform.Deps) (connections, error) {
	fanout, ok := d.Push.(*apigw.Fanout)
	if !ok {
		return connections{}, errNoPush
	}
	// Orders placed over the socket go to the engine task's endpoint.
	if err := d.NeedEngine(); err != nil {
		return connections{}, err
	}
	return connections{fanout: fanout.WithRequests(d.OrderRequests()), st: d.Store, now: d.Now,
		binance: binance.New(binance.Options{Markets: d.Markets, Now: d.Now, Log: d.Log.With().Str("service", "binance").Logger()})}, nil
}

// Connect implements awslambda.WebSocketHandler. ?streams=<a>/<b>/...
// subscribes to those Binance market streams at once (names that are not
// streams are ignored, as Binance does; more than
// binance.MaxStreamsPerConn refuses the connection) and to the user data
// of the listen keys among them (one that is not live refuses it), raw as
// on Binance's /ws/<a>/<b>, or combined with &combined=true as on its
// /stream: the edge maps those paths onto these parameters.
func (c connections) Connect(ctx context.Context, conn awslambda.WebSocketConn) error {
	list := conn.Query["streams"]
	combined := strings.EqualFold(conn.Query["combined"], "true")
	var names, keys []string
	if list != "" && c.binance != nil {
		var err error
		if names, keys, err = c.binance.URLStreams(list); err != nil {
			zerolog.Ctx(ctx).Info().Err(err).Msg("connection refused: too many streams")
			return awslambda.ErrForbidden
		}
	}
	type listen struct{ key, apiKey, uid string }
	var listens []listen
	for _, lk := range keys {
		apiKey, uid, err := apikey.LookupListenKey(ctx, c.st, lk, c.now())
		if errors.Is(err, apikey.ErrUnknownListenKey) {
			zerolog.Ctx(ctx).Info().Msg("connection refused: a listen key that is not live")
			return awslambda.ErrForbidden
		}
		if err != nil {
			return err
		}
		listens = append(listens, listen{lk, apiKey, uid})
	}
	if err := c.fanout.OnConnect(ctx, conn.ID); err != nil {
		return err
	}
	subs := wsstreamsaws.Open(c.st, c.fanout, conn.ID, c.now)
	for _, l := range listens {
		if err := subs.Listen(ctx, l.key, l.apiKey, l.uid, combined); err != nil {
			return err
		}
	}
	if len(names) == 0 && !combined {
		return nil
	}
	return subs.Update(ctx, names, func([]string, bool) ([]string, bool, error) { return names, combined, nil })
}

// Disconnect implements awslambda.WebSocketHandler.
func (c connections) Disconnect(ctx context.Context, connID string) error {
	return c.fanout.OnDisconnect(ctx, connID)
}

// Message implements awslambda.WebSocketHandler: a frame in Binance's
// market stream dialect is answered on the connection's Binance
// subscriptions, any other is the web app's.
func (c connections) Message(ctx context.Context, connID string, body []byte) error {
	if c.binance == nil || !binance.IsStreamFrame(body) {
		return c.fanout.OnMessage(ctx, connID, body)
	}
	answer := c.binance.AnswerStreamFrame(ctx, wsstreamsaws.Open(c.st, c.fanout, connID, c.now), body)
	if err := c.fanout.SendTo(ctx, connID, answer); err != nil && !errors.Is(err, push.ErrGone) {
		return err
	}
	return nil
}
