package main

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/binance/wsapiaws"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
	"tenger/internal/store"
)

// handler serves the WebSocket API's routes.
type handler struct {
	srv *binance.Server
	api *binance.WSAPI
	st  store.Store
	fan *apigw.Fanout
	now func() time.Time
}

var _ awslambda.WebSocketHandler = handler{}

// errNoEndpoint: the function was deployed without its API's endpoint.
var errNoEndpoint = errors.New("wsapi: " + platform.EnvBinanceWSEndpoint + " is not set")

// newHandler builds the handler on the Binance-compatible API as the
// openapi function builds it (market data, API keys, spot order entry).
func newHandler(d *platform.Deps) (handler, error) {
	if d.BinancePush == nil {
		return handler{}, errNoEndpoint
	}
	if err := d.NeedEngine(); err != nil {
		return handler{}, err
	}
	srv, err := d.BinanceAPI()
	if err != nil {
		return handler{}, err
	}
	return handler{srv: srv, api: srv.WSAPI(nil), st: d.Store, fan: d.BinancePush, now: d.Now}, nil
}

// Connect implements awslambda.WebSocketHandler: opening a connection
// costs its address binance.WSAPIConnectWeight (over the limit it is
// refused, 403); ?returnRateLimits=false is remembered.
func (h handler) Connect(ctx context.Context, c awslambda.WebSocketConn) error {
	if err := h.srv.ChargeConnect(c.SourceIP); err != nil {
		zerolog.Ctx(ctx).Info().Int("code", err.Code).Msg("connection over the request weight limit")
		return awslambda.ErrForbidden
	}
	limits := !strings.EqualFold(c.Query["returnRateLimits"], "false")
	return wsapiaws.Connect(ctx, h.st, h.fan, c.ID, c.SourceIP, limits, h.now())
}

// Disconnect implements awslambda.WebSocketHandler: the connection's items
// (its state and subscriptions among them) go.
func (h handler) Disconnect(ctx context.Context, connID string) error {
	return h.fan.OnDisconnect(ctx, connID)
}

// Message implements awslambda.WebSocketHandler: one request frame,
// answered on the connection. A connection the table does not know (its
// items expired) is closed.
func (h handler) Message(ctx context.Context, connID string, body []byte) error {
	conn, err := wsapiaws.Open(ctx, h.st, h.fan, connID, h.now)
	if errors.Is(err, wsapiaws.ErrGone) {
		return h.fan.Disconnect(ctx, connID)
	}
	if err != nil {
		return err
	}
	h.api.Handle(ctx, conn, body)
	return nil
}
