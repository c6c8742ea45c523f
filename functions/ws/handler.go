package main

import (
	"context"
	"errors"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
)

// connections adapts the push port's AWS adapter to the WebSocket API's
// routes: $connect records the connection (with its TTL), $disconnect
// forgets it, $default handles sub/unsub/auth/ping frames and order-entry
// requests and posts the reply with PostToConnection.
type connections struct {
	fanout *apigw.Fanout
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
	return connections{fanout: fanout.WithRequests(d.OrderRequests())}, nil
}

// Connect implements awslambda.WebSocketHandler.
func (c connections) Connect(ctx context.Context, conn awslambda.WebSocketConn) error {
	return c.fanout.OnConnect(ctx, conn.ID)
}

// Disconnect implements awslambda.WebSocketHandler.
func (c connections) Disconnect(ctx context.Context, connID string) error {
	return c.fanout.OnDisconnect(ctx, connID)
}

// Message implements awslambda.WebSocketHandler.
func (c connections) Message(ctx context.Context, connID string, body []byte) error {
	return c.fanout.OnMessage(ctx, connID, body)
}
