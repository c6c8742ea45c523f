package sfntask

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"
)

type fake struct {
	success []*sfn.SendTaskSuccessInput
	failure []*sfn.SendTaskFailureInput
	err     error
}

func (f *fake) SendTaskSuccess(_ context.Context, in *sfn.SendTaskSuccessInput, _ ...func(*sfn.Options)) (*sfn.SendTaskSuccessOutput, error) {
	f.success = append(f.success, in)
	return &sfn.SendTaskSuccessOutput{}, f.err
}

func (f *fake) SendTaskFailure(_ context.Context, in *sfn.SendTaskFailureInput, _ ...func(*sfn.Options)) (*sfn.SendTaskFailureOutput, error) {
	f.failure = append(f.failure, in)
	return &sfn.SendTaskFailureOutput{}, f.err
}

func TestComplete(t *testing.T) {
	f := &fake{}
	c := Completer{API: f}
	if err := c.Complete(context.Background(), "tok", true, "0xabc"); err != nil {
		t.Fatal(err)
	}
	var out Output
	if len(f.success) != 1 || *f.success[0].TaskToken != "tok" || json.Unmarshal([]byte(*f.success[0].Output), &out) != nil || !out.OK || out.Detail != "0xabc" {
		t.Fatalf("success %+v", f.success)
	}
	if err := c.Complete(context.Background(), "tok2", false, "bank rejected"); err != nil {
		t.Fatal(err)
	}
	if len(f.failure) != 1 || *f.failure[0].Error != ErrorRejected || *f.failure[0].Cause != "bank rejected" {
		t.Fatalf("failure %+v", f.failure)
	}
	f.err = &types.TaskTimedOut{}
	if err := c.Complete(context.Background(), "old", true, ""); err != nil {
		t.Fatalf("a timed-out token is not an error: %v", err)
	}
}
