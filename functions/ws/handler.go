package main

import (
	"context"

	"tenger/internal/awslambda"
	"tenger/internal/push/apigw"
)

// connections adapts the push port's AWS adapter to the WebSocket API's
// routes: $connect records the connection (with its TTL), $disconnect
// forgets it, $default handles sub/unsub/auth/ping frames and posts the
// reply with PostToConnection.
type connections struct {
	fanout *apigw.Fanout
}

var _ awslambda.WebSocketHandler = connections{}

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
