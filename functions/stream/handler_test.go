package main

import (
	"io"

	"tenger/internal/awslambda"
	"tenger/internal/markets"
	"tenger/internal/push/apigw"
	"tenger/internal/userfeed"
)

// streamHandler is the stream function's handler on the API Gateway
// adapter p (and its table), built as main builds it.
func streamHandler(p *apigw.Fanout) awslambda.DynamoDBFunc {
	f := fanout{pusher: p, conns: p.UserConnections, users: userfeed.New(markets.Defaults())}
	return f.handler(awslambda.NewRuntime("stream", io.Discard))
}
