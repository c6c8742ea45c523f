// Package sfntask is the AWS side of the workflow port's completion: it
// delivers a rail's answer for a Step Functions task token (the
// waitForTaskToken state of the withdrawal state machine) with
// SendTaskSuccess or SendTaskFailure. Locally the in-process runner
// (workflow.Runner.Complete) plays this role.
package sfntask

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"
)

// API is the part of the Step Functions client the completer uses.
type API interface {
	SendTaskSuccess(ctx context.Context, in *sfn.SendTaskSuccessInput, opts ...func(*sfn.Options)) (*sfn.SendTaskSuccessOutput, error)
	SendTaskFailure(ctx context.Context, in *sfn.SendTaskFailureInput, opts ...func(*sfn.Options)) (*sfn.SendTaskFailureOutput, error)
}

var _ API = (*sfn.Client)(nil)

// ErrorRejected is the error name a failed task reports; the state
// machine's catch on the await state routes it to release.
const ErrorRejected = "RailRejected"

// Completer completes task tokens on Step Functions.
type Completer struct{ API API }

// Output is the await state's output on success.
type Output struct {
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Complete sends the outcome. A token that already completed or timed out
// is not an error: completions are delivered at least once.
func (c Completer) Complete(ctx context.Context, token string, ok bool, detail string) error {
	var err error
	if ok {
		out, _ := json.Marshal(Output{OK: true, Detail: detail})
		_, err = c.API.SendTaskSuccess(ctx, &sfn.SendTaskSuccessInput{TaskToken: aws.String(token), Output: aws.String(string(out))})
	} else {
		_, err = c.API.SendTaskFailure(ctx, &sfn.SendTaskFailureInput{TaskToken: aws.String(token),
			Error: aws.String(ErrorRejected), Cause: aws.String(detail)})
	}
	var gone *types.TaskTimedOut
	var invalid *types.InvalidToken
	var done *types.TaskDoesNotExist
	if errors.As(err, &gone) || errors.As(err, &done) || errors.As(err, &invalid) {
		return nil
	}
	return err
}
