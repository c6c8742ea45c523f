// Package events describes the messages that cross process boundaries in
// Tenger, and holds the recorded AWS event samples (samples/) the handler
// tests feed through the real code.
//
// Two kinds of message cross a boundary between Tenger's own processes:
//
//   - Engine commands, from the functions that enter orders or move spot
//     money to the active engine task, over its private endpoint
//     (internal/engine/remote: the engine's own command codec, signed;
//     answered once the command is durable in the journal). Every command
//     carries its caller's idempotency reference, so a caller without an
//     answer sends it again; no queue carries engine commands or events.
//   - Withdrawal workflow steps, from the Step Functions state machine to
//     the workflow function: WorkflowStep, defined here. The step's answer
//     is internal/withdraw's StepOutput (functions/workflow).
//
// The JSON schemas under schemas/v1 describe the workflow payload for
// readers outside Go; a test keeps them equal to these types and checks the
// recorded Step Functions samples against them.
//
// Compatibility rule: a version only gains optional fields. Removing or
// changing a field makes a new version (schemas/v2), and consumers accept
// every version still in flight.
package events
