// Command content is the Lambda function behind POST /graphql: the page
// texts of the web app per page id and locale.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

func main() {
	rt := awslambda.NewRuntime("content", os.Stdout)
	log := rt.Logger()
	ctx := context.Background()
	d, err := platform.NewAWS(ctx, log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	h, err := newHandler(ctx, d.Store, d.Config.ContentReadToken, log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(rt.HTTP(h))
}
