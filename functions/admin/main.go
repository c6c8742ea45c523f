// Command admin is the operators' Lambda function in AWS until an operator
// console exists: the actions `tenger kyc`, `tenger corporate`, `tenger
// support`, `tenger account`, `tenger competition` and `tenger earn ...
// set` take on a data directory, taken on the table. It has no route and
// no function URL: an operator invokes it directly, and IAM's
// lambda:InvokeFunction on it (the Admin stack's Operators policy) is the
// authorization:
//
//	aws lambda invoke --function-name tenger-<stage>-admin --qualifier live \
//	  --cli-binary-format raw-in-base64-out \
//	  --payload '{"op":"kyc.approve","uid":"10000001","level":"basic","by":"alice"}' out.json
//
// The operations and their fields are Request's (ops.go); the answer is a
// Response. Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64,
// bootstrap).
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

func main() {
	rt := awslambda.NewRuntime("admin", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(handler(rt, newOps(d)))
}
