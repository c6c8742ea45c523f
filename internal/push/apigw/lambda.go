package apigw

import (
	"context"
	"encoding/base64"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
)

// ManagementEndpoint is the base endpoint of the management API for a
// WebSocket API's domain and stage, as found in every event's request
// context (use it as the client's BaseEndpoint).
func ManagementEndpoint(domainName, stage string) string {
	return "https://" + domainName + "/" + stage
}

// HandleEvent serves one API Gateway WebSocket event: $connect records the
// connection (and binds it to a user when the URL carries ?token= that Auth
// accepts), $disconnect forgets it, and every other route is a client frame.
// It is the whole body of the ws Lambda function.
func (f *Fanout) HandleEvent(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (events.APIGatewayProxyResponse, error) {
	id := ev.RequestContext.ConnectionID
	ok := events.APIGatewayProxyResponse{StatusCode: http.StatusOK}
	switch ev.RequestContext.RouteKey {
	case "$connect":
		if err := f.OnConnect(ctx, id); err != nil {
			return events.APIGatewayProxyResponse{StatusCode: http.StatusInternalServerError}, err
		}
		if tok := ev.QueryStringParameters["token"]; tok != "" && f.opts.Auth != nil {
			user, session, valid := f.opts.Auth(ctx, tok)
			if !valid {
				// Refuse the upgrade rather than leave a half-signed-in socket.
				_ = f.forget(ctx, id)
				return events.APIGatewayProxyResponse{StatusCode: http.StatusUnauthorized}, nil
			}
			if err := f.Bind(ctx, id, user, session); err != nil {
				return events.APIGatewayProxyResponse{StatusCode: http.StatusInternalServerError}, err
			}
		}
		return ok, nil
	case "$disconnect":
		return ok, f.OnDisconnect(ctx, id)
	default:
		body := []byte(ev.Body)
		if ev.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(ev.Body)
			if err != nil {
				return events.APIGatewayProxyResponse{StatusCode: http.StatusBadRequest}, nil
			}
			body = b
		}
		return ok, f.OnMessage(ctx, id, body)
	}
}
