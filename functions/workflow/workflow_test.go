package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tenger/events"
	"tenger/internal/awslambda"
)

func sampleStep(t *testing.T) events.WorkflowStep {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "workflow_validate.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in events.WorkflowStep
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// lambdaErrorType is the error type name Lambda reports for err (the
// dynamic type's name, pointer stripped), which Step Functions matches.
func lambdaErrorType(err error) string {
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func TestValidateStepFromSample(t *testing.T) {
	var logs bytes.Buffer
	h := handler(awslambda.NewRuntime("workflow", &logs))
	in := sampleStep(t)
	res, err := h(context.Background(), in)
	if err != nil || !res.Valid || res.Status != "validated" || res.Step != events.StepValidate || len(res.Problems) != 0 {
		t.Fatalf("valid sample: %+v %v", res, err)
	}
	// The state machine's Choice reads $.results.validate.valid.
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"valid":true`) {
		t.Errorf("result JSON = %s", b)
	}
	if !strings.Contains(logs.String(), `"correlation_id":"Kx1aIiIioAMEVs9="`) {
		t.Errorf("correlation id not logged: %s", logs.String())
	}

	in.Withdrawal.Amount = "0"
	in.Withdrawal.Address = "short"
	res, err = h(context.Background(), in)
	if err != nil || res.Valid || res.Status != "rejected" || len(res.Problems) != 2 {
		t.Fatalf("invalid withdrawal: %+v %v", res, err)
	}
}

func TestMoneyStepsRefuseUntilTheWalletLands(t *testing.T) {
	h := handler(awslambda.NewRuntime("workflow", io.Discard))
	for _, step := range []string{events.StepHold, events.StepSend, events.StepSettle, events.StepRelease} {
		in := sampleStep(t)
		in.Step = step
		_, err := h(context.Background(), in)
		var su *StepUnavailable
		if !errors.As(err, &su) || su.Step != step || lambdaErrorType(err) != "StepUnavailable" {
			t.Errorf("%s: %v (type %s)", step, err, lambdaErrorType(err))
		}
	}
	in := sampleStep(t)
	in.Step = events.StepAwait
	if _, err := h(context.Background(), in); !errors.Is(err, errMalformed) {
		t.Errorf("await without a task token: %v", err)
	}
	in.Step = "teleport"
	if _, err := h(context.Background(), in); !errors.Is(err, errMalformed) {
		t.Errorf("unknown step: %v", err)
	}
	// The retried error type is the one the state machine names.
	if lambdaErrorType(&Transient{Err: errors.New("x")}) != "Transient" {
		t.Error("Transient type name changed; update stacks/workflows.go errTransient")
	}
}
