// Package events describes the messages that cross process boundaries in
// Tenger, and holds the recorded AWS event samples (samples/) the handler
// tests feed through the real code.
//
// Two kinds of message cross a boundary between Tenger's own processes:
//
//   - Order commands, on the orders FIFO queue, from the trade API (and the
//     engine's outbox sweep, which sends again an order stored but maybe
//     never queued) to the engine. The body is a binary matching.Command of
//     matching.CommandSize (72) bytes, encoded by matching.EncodeCommand
//     and decoded by the engine with matching.DecodeCommand; its layout is
//     documented there, and this package defines no Go type for it. The
//     message group is the pair's symbol ("btcusdt"); a place command's
//     deduplication id is "place:<order id>", an amend's
//     "amend:<order id>:<lots>:<request ms>", cancel and cancel-all
//     commands have none (the SQS adapter sends a random one). Over SQS the
//     body travels base64-encoded (internal/queue/sqsq). The engine settles
//     its own events in the table, so no queue carries engine events.
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
