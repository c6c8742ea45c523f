package events

// Withdrawal workflow steps, in the order the state machine runs them (the
// step names of internal/withdraw).
const (
	StepValidate = "validate"
	StepHold     = "hold"
	StepSend     = "send"
	StepAwait    = "await"
	StepSettle   = "settle"
	StepRelease  = "release"
)

// Steps lists every step name.
var Steps = []string{StepValidate, StepHold, StepSend, StepAwait, StepSettle, StepRelease}

// Withdrawal names the withdrawal a workflow runs for. It is the state
// machine's "withdrawal" input (functions/wfstart writes it) and is passed
// on to every step. Only the id crosses the boundary: the steps read the
// stored withdrawal record (amount, coin, rail, destination) by it, so the
// state machine's history holds no account data.
type Withdrawal struct {
	// WithdrawalID is the wallet's withdrawal id ("w" and 24 hex digits).
	WithdrawalID string `json:"withdrawalId"`
}

// WorkflowStep is the payload every task of the withdrawal state machine
// passes to the workflow function (stacks/workflows.go builds it;
// functions/workflow decodes it).
type WorkflowStep struct {
	Step       string     `json:"step"`
	Withdrawal Withdrawal `json:"withdrawal"`
	// ExecutionID is the execution's ARN.
	ExecutionID string `json:"executionId"`
	// CorrelationID is the id of the request that submitted the
	// withdrawal (the execution input's correlationId).
	CorrelationID string `json:"correlationId,omitempty"`
	// Detail is the previous step's result detail ($.result.detail; empty
	// before the first step). The release step reports it as its reason.
	Detail string `json:"detail"`
	// Error is the error a catch stored ($.error: empty strings until one
	// did). The release step reports it when Detail is empty.
	Error *StepError `json:"error,omitempty"`
	// TaskToken is set on the await step only; the chain watcher or the
	// bank callback returns it with SendTaskSuccess or SendTaskFailure.
	TaskToken string `json:"taskToken,omitempty"`
}

// StepError is a caught error as Step Functions stores it.
type StepError struct {
	Error string `json:"Error"`
	Cause string `json:"Cause"`
}
