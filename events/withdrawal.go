package events

import (
	"fmt"
	"regexp"
)

// Withdrawal workflow steps, in the order the state machine runs them.
const (
	StepValidate = "validate"
	StepHold     = "hold"
	StepSend     = "send"
	StepAwait    = "await"
	StepSettle   = "settle"
	StepRelease  = "release"
)

// Withdrawal rails.
const (
	RailChain = "chain"
	RailBank  = "bank"
)

// Withdrawal is the state machine's input ("withdrawal" key), created by the
// wallet API after the user's codes and limits were checked.
type Withdrawal struct {
	WithdrawalID string `json:"withdrawalId"`
	UserID       string `json:"userId"`
	Coin         string `json:"coin"`
	Amount       string `json:"amount"`
	Fee          string `json:"fee"`
	Rail         string `json:"rail"`
	// Chain rail: network and destination address (and memo/tag).
	Network string `json:"network,omitempty"`
	Address string `json:"address,omitempty"`
	Memo    string `json:"memo,omitempty"`
	// Bank rail: the user's saved bank account id.
	BankAccountID string `json:"bankAccountId,omitempty"`
}

// WorkflowStep is what the state machine passes to the workflow function.
type WorkflowStep struct {
	Step          string     `json:"step"`
	Withdrawal    Withdrawal `json:"withdrawal"`
	ExecutionID   string     `json:"executionId"`
	CorrelationID string     `json:"correlationId,omitempty"`
	// TaskToken is set on the await step only; the chain watcher or the
	// bank callback returns it with SendTaskSuccess or SendTaskFailure.
	TaskToken string `json:"taskToken,omitempty"`
}

// StepResult is what the workflow function answers (the state machine keeps
// it under $.results.<step>).
type StepResult struct {
	Step string `json:"step"`
	// Valid is the validate step's verdict; the state machine ends in
	// Rejected when it is false.
	Valid    bool     `json:"valid"`
	Problems []string `json:"problems,omitempty"`
	// Status says what the step did ("validated", "held", ...).
	Status string `json:"status"`
}

var coinRE = regexp.MustCompile(`^[A-Z0-9]{2,12}$`)

// Problems lists everything wrong with a withdrawal request; an empty list
// means valid. It checks the request's shape only: balances, limits and codes
// are the wallet's checks at hold time.
func (w Withdrawal) Problems() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if w.WithdrawalID == "" || len(w.WithdrawalID) > 64 {
		add("withdrawalId must be 1..64 characters")
	}
	if w.UserID == "" || len(w.UserID) > 64 {
		add("userId must be 1..64 characters")
	}
	if !coinRE.MatchString(w.Coin) {
		add("coin %q is not an upper-case coin symbol", w.Coin)
	}
	if err := positive("amount", w.Amount); err != nil {
		add("%s", trimInvalid(err))
	}
	if w.Fee != "0" {
		if err := positive("fee", w.Fee); err != nil {
			add("%s", trimInvalid(err))
		}
	}
	switch w.Rail {
	case RailChain:
		if w.Network == "" {
			add("network is required for a chain withdrawal")
		}
		if len(w.Address) < 10 || len(w.Address) > 128 {
			add("address must be 10..128 characters")
		}
		if w.BankAccountID != "" {
			add("bankAccountId is only for bank withdrawals")
		}
	case RailBank:
		if w.BankAccountID == "" {
			add("bankAccountId is required for a bank withdrawal")
		}
		if w.Address != "" || w.Network != "" {
			add("address and network are only for chain withdrawals")
		}
	default:
		add("rail must be chain or bank")
	}
	return out
}

func trimInvalid(err error) string {
	s := err.Error()
	p := ErrInvalid.Error() + ": "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
