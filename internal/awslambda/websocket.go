package awslambda

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
)

// WebSocketConn describes the client of a WebSocket API event.
type WebSocketConn struct {
	// ID is API Gateway's connection id, the address PostToConnection takes.
	ID string
	// Headers and Query are those of the upgrade request ($connect only).
	Headers map[string]string
	Query   map[string]string
	// Cookies is the raw Cookie header of the upgrade request ($connect only).
	Cookies string
	// SourceIP is the client's address.
	SourceIP string
	// ConnectedAt is when the connection opened, in Unix milliseconds.
	ConnectedAt int64
}

// WebSocketHandler is what the ws function does for each route of the
// WebSocket API.
type WebSocketHandler interface {
	// Connect registers a new connection. An error refuses it (API Gateway
	// answers the upgrade with the returned status; ErrForbidden gives 403).
	Connect(ctx context.Context, c WebSocketConn) error
	// Disconnect forgets a connection that closed.
	Disconnect(ctx context.Context, connID string) error
	// Message handles a frame the client sent ($default route), e.g. a
	// subscription request. A reply, if any, is posted by the handler itself.
	Message(ctx context.Context, connID string, body []byte) error
}

// ErrForbidden refuses a $connect with 403 instead of 500.
var ErrForbidden = errors.New("awslambda: connection refused")

// WebSocketFunc is the Lambda handler signature for WebSocket API routes.
type WebSocketFunc func(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (events.APIGatewayProxyResponse, error)

// WebSocket dispatches $connect, $disconnect and $default events to h.
func (r *Runtime) WebSocket(h WebSocketHandler) WebSocketFunc {
	return func(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (events.APIGatewayProxyResponse, error) {
		rc := ev.RequestContext
		cid := headerValue(ev.Headers, HeaderCorrelationID)
		if cid == "" {
			cid = rc.RequestID
		}
		ctx, log := r.start(ctx).scope(ctx, cid, "connection_id", rc.ConnectionID, "route", rc.RouteKey)
		var err error
		switch rc.RouteKey {
		case "$connect":
			if !r.fromEdge(ev.Headers) {
				log.Warn().Msg("connection around the edge refused")
				return events.APIGatewayProxyResponse{StatusCode: http.StatusForbidden}, nil
			}
			err = h.Connect(ctx, WebSocketConn{
				ID:          rc.ConnectionID,
				Headers:     ev.Headers,
				Query:       ev.QueryStringParameters,
				Cookies:     headerValue(ev.Headers, "cookie"),
				SourceIP:    rc.Identity.SourceIP,
				ConnectedAt: rc.ConnectedAt,
			})
		case "$disconnect":
			err = h.Disconnect(ctx, rc.ConnectionID)
		default:
			body := []byte(ev.Body)
			if ev.IsBase64Encoded {
				if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
					err = fmt.Errorf("awslambda: frame is not base64: %w", err)
					break
				}
			}
			err = h.Message(ctx, rc.ConnectionID, body)
		}
		switch {
		case err == nil:
			log.Info().Msg("websocket event")
			return events.APIGatewayProxyResponse{StatusCode: http.StatusOK}, nil
		case errors.Is(err, ErrForbidden):
			log.Info().Msg("websocket connection refused")
			return events.APIGatewayProxyResponse{StatusCode: http.StatusForbidden}, nil
		default:
			log.Error().Err(err).Msg("websocket event failed")
			return events.APIGatewayProxyResponse{StatusCode: http.StatusInternalServerError}, nil
		}
	}
}
