package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/store"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

const (
	machineARN = "arn:aws:states:ap-northeast-2:123456789012:stateMachine:tenger-dev-withdrawal"
	p2pARN     = "arn:aws:states:ap-northeast-2:123456789012:stateMachine:tenger-dev-p2p-timeout"
)

// fakeSFN is Step Functions as far as StartExecution goes: a second start
// with a used name answers ExecutionAlreadyExists; names in fail answer
// their error.
type fakeSFN struct {
	mu      sync.Mutex
	started map[string]string // name → input
	calls   []string
	fail    map[string]error
}

func (f *fakeSFN) StartExecution(_ context.Context, in *sfn.StartExecutionInput, _ ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	name := aws.ToString(in.Name)
	f.calls = append(f.calls, name)
	if arn := aws.ToString(in.StateMachineArn); arn != machineARN && arn != p2pARN {
		return nil, errors.New("wrong state machine " + aws.ToString(in.StateMachineArn))
	}
	if err := f.fail[name]; err != nil {
		return nil, err
	}
	if _, ok := f.started[name]; ok {
		return nil, &types.ExecutionAlreadyExists{Message: aws.String("Execution Already Exists: '" + name + "'")}
	}
	f.started[name] = aws.ToString(in.Input)
	return &sfn.StartExecutionOutput{ExecutionArn: aws.String(machineARN + ":" + name)}, nil
}

func batch(t *testing.T) events.DynamoDBEvent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "ddb_stream_wf_insert.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

const (
	w1 = "w3f9c1d2e7a8b4c5d6e7f8091"
	w2 = "w7a6b5c4d3e2f1a0b9c8d7e6f"
)

// TestStartsOneExecutionPerWithdrawal feeds the recorded stream batch: the
// two withdrawal workflow inserts start one execution each, named after the
// withdrawal with its id and correlation id as input; the modify and the
// other workflow kind start nothing; the redelivered batch starts nothing
// more and fails nothing.
func TestStartsOneExecutionPerWithdrawal(t *testing.T) {
	api := &fakeSFN{started: map[string]string{}}
	h := awslambda.NewRuntime("wfstart", io.Discard).DynamoDBBatch(starter{api: api, stateMachine: machineARN}.handle)
	ev := batch(t)
	resp, err := h(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("batch: %+v %v", resp, err)
	}
	if len(api.calls) != 2 || api.calls[0] != w1 || api.calls[1] != w2 {
		t.Fatalf("StartExecution calls = %v, want [%s %s]", api.calls, w1, w2)
	}
	var in executionInput
	if err := json.Unmarshal([]byte(api.started[w1]), &in); err != nil {
		t.Fatal(err)
	}
	if in.Withdrawal.WithdrawalID != w1 || in.CorrelationID != "Kx1aWwWwoAMEVs5=" {
		t.Errorf("input of %s = %s", w1, api.started[w1])
	}

	resp, err = h(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("redelivered batch: %+v %v", resp, err)
	}
	if len(api.started) != 2 || len(api.calls) != 4 {
		t.Errorf("after redelivery: started %d, calls %v", len(api.started), api.calls)
	}
}

// TestFailedStartIsReportedAndRetried: a start that fails (throttled) is
// the batch's item failure, by its sequence number, so Lambda retries from
// it; the earlier record's execution is not started twice on the retry.
func TestFailedStartIsReportedAndRetried(t *testing.T) {
	api := &fakeSFN{started: map[string]string{}, fail: map[string]error{
		w2: &types.ExecutionLimitExceeded{Message: aws.String("too many executions")},
	}}
	h := awslambda.NewRuntime("wfstart", io.Discard).DynamoDBBatch(starter{api: api, stateMachine: machineARN}.handle)
	ev := batch(t)
	resp, _ := h(context.Background(), ev)
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[3].Change.SequenceNumber {
		t.Fatalf("failures = %+v, want the w2 record %s", resp.BatchItemFailures, ev.Records[3].Change.SequenceNumber)
	}
	if _, ok := api.started[w1]; !ok || len(api.started) != 1 {
		t.Fatalf("started = %v", api.started)
	}
	// Lambda retries from the failed record once the limit clears.
	delete(api.fail, w2)
	retry := events.DynamoDBEvent{Records: ev.Records[3:]}
	resp, _ = h(context.Background(), retry)
	if len(resp.BatchItemFailures) != 0 || len(api.started) != 2 {
		t.Fatalf("retry: %+v started %v", resp.BatchItemFailures, api.started)
	}
}

func TestExecutionName(t *testing.T) {
	if executionName(w1) != w1 {
		t.Errorf("a valid id is not used as is: %s", executionName(w1))
	}
	odd := "weird id/with#chars"
	n := executionName(odd)
	if n != executionName(odd) || !validName.MatchString(n) || n == odd {
		t.Errorf("name of %q = %q", odd, n)
	}
}

// TestSweepStartsWithdrawalsNeverStarted: on the schedule's event (the
// recorded sample), the function starts the withdrawals submitted more
// than SweepAfter ago whose workflow instance was never handed over — one
// whose execution exists counts as started — and hands them over; a fresh
// one is left to its stream record, and one the stream path started is not
// in the due index any more. The next sweep finds nothing.
func TestSweepStartsWithdrawalsNeverStarted(t *testing.T) {
	ctx := context.Background()
	// On DynamoDB Local, so the sweep's calls are checked against the
	// function's key space (fntest.Table).
	st := fntest.Table(t, "wfstart-sweep")
	clock := time.Date(2026, 12, 6, 10, 15, 0, 0, time.UTC)
	def := workflow.Definition{Kind: withdraw.WorkflowKind, First: "validate", Steps: map[string]workflow.Step{"validate": {}}}
	submit := func(id string, at time.Time) {
		t.Helper()
		op, err := workflow.StartOp(def, id, map[string]string{"withdrawalId": id}, at)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Transact(ctx, []store.Op{op}); err != nil {
			t.Fatal(err)
		}
	}
	submit("w-lost", clock.Add(-time.Hour))
	submit("w-exists", clock.Add(-30*time.Minute))
	submit("w-fresh", clock.Add(-time.Minute))
	submit("w-streamed", clock.Add(-time.Hour))
	api := &fakeSFN{started: map[string]string{"w-exists": "{}"}}
	s := starter{api: api, stateMachine: machineARN, st: st, now: func() time.Time { return clock }}
	// The stream path started one and handed it over.
	if err := s.start(ctx, "w-streamed", "c-1"); err != nil {
		t.Fatal(err)
	}
	api.calls = nil

	h := handler(awslambda.NewRuntime("wfstart", io.Discard), s)
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "eventbridge_scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := h(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := out.(sweepResult); !ok || r.Started != 2 {
		t.Fatalf("sweep answered %#v", out)
	}
	if got := strings.Join(api.calls, ","); got != "w-exists,w-lost" && got != "w-lost,w-exists" {
		t.Fatalf("started %s", got)
	}
	if _, ok := api.started["w-lost"]; !ok {
		t.Error("w-lost not started")
	}
	waiting, err := workflow.Waiting(ctx, st, withdraw.WorkflowKind, clock.Add(time.Hour))
	if err != nil || len(waiting) != 1 || waiting[0].ID != "w-fresh" {
		t.Fatalf("still waiting %+v %v", waiting, err)
	}
	api.calls = nil
	if out, err := h(ctx, b); err != nil || out.(sweepResult).Started != 0 || len(api.calls) != 0 {
		t.Fatalf("second sweep %v %v %v", out, err, api.calls)
	}
	// A stream batch still goes to the batch handler.
	raw, _ := json.Marshal(batch(t))
	if resp, err := h(ctx, raw); err != nil {
		t.Fatalf("batch through the handler: %v %v", resp, err)
	}
}

// TestStartsP2PDeadline: the recorded insert of a P2P order's deadline
// instance starts one execution of the P2P state machine, named after the
// instance, with the order and the deadline its Wait state waits for; a
// starter without that machine leaves it alone; a redelivery starts
// nothing more.
func TestStartsP2PDeadline(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", "ddb_stream_wf_p2p_insert.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	api := &fakeSFN{started: map[string]string{}}
	clock := func() time.Time { return time.UnixMilli(1796634000000) }
	without := awslambda.NewRuntime("wfstart", io.Discard).DynamoDBBatch(starter{api: api, stateMachine: machineARN, now: clock}.handle)
	if resp, err := without(context.Background(), ev); err != nil || len(resp.BatchItemFailures) != 0 || len(api.calls) != 0 {
		t.Fatalf("without the P2P machine: %+v %v, calls %v", resp, err, api.calls)
	}
	h := awslambda.NewRuntime("wfstart", io.Discard).DynamoDBBatch(starter{api: api, stateMachine: machineARN, p2pMachine: p2pARN, now: clock}.handle)
	for i := 0; i < 2; i++ {
		if resp, err := h(context.Background(), ev); err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("batch: %+v %v", resp, err)
		}
	}
	const name = "p2p-timeout-1796634000000123456"
	if len(api.started) != 1 || len(api.calls) != 2 || api.calls[0] != name {
		t.Fatalf("started %v, calls %v", api.started, api.calls)
	}
	var in p2pInput
	if err := json.Unmarshal([]byte(api.started[name]), &in); err != nil {
		t.Fatal(err)
	}
	if in.OrderID != "1796634000000123456" || in.Deadline != "2026-12-07T09:15:00Z" {
		t.Fatalf("input %s", api.started[name])
	}
}
